import { z } from 'zod';
import * as money from '../money.js';
import type { Money } from '../money.js';
import { ValidationReason, requiredText } from '../validators.js';
import { pageOf, pageQuery } from './paging.js';
import { decimalRateSchema, idempotencyKeySchema, moneyAmountSchema, tradePasswordField } from './ledger.js';

export const MACHINE_PAYMENT_ASSETS = ['USDT', 'TICKET'] as const;
export type MachinePaymentAsset = (typeof MACHINE_PAYMENT_ASSETS)[number];
export const MACHINE_STATUSES = ['running', 'expired'] as const;

/** A mining machine on sale (operator settings). */
export const machineProductSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Hashrate in T (terahash), up to 4 places. */
  hashrate: z.string(),
  priceUsdt: z.string(),
  priceTickets: z.string(),
  /** RAB produced per T per day. */
  dailyOutputPerT: z.string(),
  lifetimeDays: z.number().int(),
  status: z.enum(['active', 'retired']),
});
export type MachineProduct = z.infer<typeof machineProductSchema>;
export const machineListResponse = z.array(machineProductSchema);
export const machineInfoQuery = z.object({ id: z.uuid() });

/** The RAB a machine produces each day: hashrate × output per T, rounded down (paid to members). */
export function machineDailyOutput(product: Pick<MachineProduct, 'hashrate' | 'dailyOutputPerT'>): Money {
  return money.multiply(money.parseMoney(product.hashrate), product.dailyOutputPerT, 'down');
}

/** POST /api/machine/buy */
export const machineBuyRequest = z.object({
  machineId: z.uuid(),
  payWith: z.enum(MACHINE_PAYMENT_ASSETS),
  tradePassword: tradePasswordField,
  idempotencyKey: idempotencyKeySchema,
});

export const memberMachineSchema = z.object({
  id: z.string(),
  productId: z.string(),
  name: z.string(),
  hashrate: z.string(),
  dailyOutput: z.string(),
  paidAsset: z.enum(MACHINE_PAYMENT_ASSETS),
  paidAmount: z.string(),
  /** Platform dates: output for each day after the start day up to the end day. */
  startDate: z.string(),
  endDate: z.string(),
  daysLeft: z.number().int(),
  daysMined: z.number().int(),
  outputSoFar: z.string(),
  status: z.enum(MACHINE_STATUSES),
  createdAt: z.string(),
});
export type MemberMachine = z.infer<typeof memberMachineSchema>;

/** GET /api/machine/index: my mining at a glance and my machines. */
export const machineIndexQuery = pageQuery.extend({ status: z.enum(MACHINE_STATUSES).optional() });
export const machineIndexResponse = z.object({
  totalHashrate: z.string(),
  running: z.number().int(),
  outputSoFar: z.string(),
  lastDayOutput: z.string(),
  ticketsAvailable: z.string(),
  ticketsUsed: z.string(),
  machines: pageOf(memberMachineSchema),
});
export type MachineIndex = z.infer<typeof machineIndexResponse>;

/** GET /api/machine/detail: mining records, one per machine per day, newest first. */
export const miningRecordQuery = pageQuery.extend({ machineId: z.uuid().optional() });
export const miningRecordSchema = z.object({
  machineId: z.string(),
  name: z.string(),
  hashrate: z.string(),
  day: z.string(),
  amount: z.string(),
});
export type MiningRecord = z.infer<typeof miningRecordSchema>;
export const miningRecordsResponse = pageOf(miningRecordSchema);

// ── Console ──────────────────────────────────────────────────────────────────────────────────────

const hashrateSchema = z.string().regex(/^(?:0|[1-9]\d{0,9})(?:\.\d{1,4})?$/, { error: ValidationReason.invalid });
export const machineProductInput = z
  .object({
    name: requiredText(40),
    hashrate: hashrateSchema,
    priceUsdt: moneyAmountSchema,
    priceTickets: moneyAmountSchema,
    dailyOutputPerT: decimalRateSchema,
    lifetimeDays: z.number().int().min(1).max(3650),
  })
  .superRefine((value, context) => {
    if (!/[1-9]/.test(value.hashrate))
      context.addIssue({ code: 'custom', path: ['hashrate'], message: ValidationReason.amountPositive });
  });
export const machineProductIdParams = z.object({ id: z.uuid() });
export const adminMachineProductsResponse = z.array(machineProductSchema.extend({ running: z.number().int() }));
export const adminMemberMachinesQuery = pageQuery.extend({
  status: z.enum(MACHINE_STATUSES).optional(),
  query: z.string().trim().max(254).optional(),
});
export const adminMemberMachinesResponse = pageOf(memberMachineSchema.extend({ memberEmail: z.string(), accountId: z.string() }));
