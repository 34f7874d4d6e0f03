import {
  MACHINE_STATUSES,
  machineDailyOutput,
  machineInfoQuery,
  money,
  type Locale,
  type MachineIndex,
  type MachinePaymentAsset,
  type MachineProduct,
  type MemberMachine,
  type MiningRecord,
  type Money,
} from '@custos/contract';
import { translate } from '../../lib/i18n/server-messages';
import { balanceProblem } from '../../lib/money/amount';
import type { Page } from '../../lib/paging/pages';

// ── Paths ────────────────────────────────────────────────────────────────────────────────────────

/** index3: the machines on sale and mine. */
export const MACHINES_PATH = '/pages/index/index3';
const DETAIL_PATH = '/pages/goods_detail/goods_detail';
const RECORDS_PATH = '/pages/blance_record/blance_record2';

/** goods_detail?id=…: a machine and its buy form. */
export function machineDetailPath(productId: string): string {
  return `${DETAIL_PATH}?id=${encodeURIComponent(productId)}`;
}

/** blance_record2: the mining records of all my machines, or of one (`?machineId=`). */
export function miningRecordsPath(machineId?: string): string {
  return machineId ? `${RECORDS_PATH}?machineId=${encodeURIComponent(machineId)}` : RECORDS_PATH;
}

/** Whether a link's id is one the server takes (a UUID), so a broken link asks the server nothing. */
export function isMachineId(text: string | null): text is string {
  return text !== null && machineInfoQuery.safeParse({ id: text }).success;
}

// ── Statuses ─────────────────────────────────────────────────────────────────────────────────────

/** antd-mobile Tag colours. */
export type TagColor = 'default' | 'primary' | 'success' | 'warning' | 'danger';
export type MachineStatus = MemberMachine['status'];

/** My machines' segments: those mining now, those past their lifetime. */
export const MACHINE_SEGMENTS: readonly MachineStatus[] = MACHINE_STATUSES;

/** Mining is blue, past its lifetime grey. */
export const MACHINE_STATUS_COLOURS: Record<MachineStatus, TagColor> = { running: 'primary', expired: 'default' };

/** The locale key of a status tag: "Running", "Expired". */
export function machineStatusKey(status: MachineStatus): `machines.status.${MachineStatus}` {
  return `machines.status.${status}`;
}

// ── Output ───────────────────────────────────────────────────────────────────────────────────────

export interface ProductOutput {
  /** RAB a day: hashrate × output per T, rounded down (the contract's `machineDailyOutput`, as paid). */
  daily: Money;
  /** What the machine produces over its lifetime: the daily output × the lifetime in days. */
  lifetime: Money;
}

export function productOutput(product: Pick<MachineProduct, 'hashrate' | 'dailyOutputPerT' | 'lifetimeDays'>): ProductOutput {
  const daily = machineDailyOutput(product);
  return { daily, lifetime: money.multiply(daily, String(product.lifetimeDays), 'down') };
}

// ── Buying ───────────────────────────────────────────────────────────────────────────────────────

/** What the member can pay with: cash USDT and available tickets. */
export interface BuyBalances {
  usdt: string;
  tickets: string;
}

/** The price of a product in the chosen asset. */
export function priceIn(product: Pick<MachineProduct, 'priceUsdt' | 'priceTickets'>, payWith: MachinePaymentAsset): string {
  return payWith === 'USDT' ? product.priceUsdt : product.priceTickets;
}

/** What is available to pay with in the chosen asset. */
export function availableIn(balances: BuyBalances, payWith: MachinePaymentAsset): string {
  return payWith === 'USDT' ? balances.usdt : balances.tickets;
}

/**
 * The server's refusal of a purchase, in its words and order: a machine no longer on sale, then a
 * price above what is available in the chosen asset ("Insufficient TICKET balance"). Null when the
 * server would take it (the trading password aside).
 */
export function buyProblem(
  product: Pick<MachineProduct, 'status' | 'priceUsdt' | 'priceTickets'>,
  payWith: MachinePaymentAsset,
  balances: BuyBalances,
  locale: Locale,
): string | null {
  if (product.status !== 'active') return translate(locale, 'machine.retired');
  return balanceProblem(money.parseMoney(priceIn(product, payWith)), availableIn(balances, payWith), payWith, locale);
}

/** The asset chosen first: USDT when it covers the price, else tickets when they do, else USDT. */
export function defaultPayment(
  product: Pick<MachineProduct, 'priceUsdt' | 'priceTickets'>,
  balances: BuyBalances,
): MachinePaymentAsset {
  const covers = (asset: MachinePaymentAsset) =>
    money.compare(money.parseMoney(priceIn(product, asset)), money.parseMoney(availableIn(balances, asset))) <= 0;
  return covers('USDT') || !covers('TICKET') ? 'USDT' : 'TICKET';
}

// ── Lists ────────────────────────────────────────────────────────────────────────────────────────

/** The index without its page of machines: the summary card. */
export type MachineSummary = Omit<MachineIndex, 'machines'>;

export function summaryOf(index: MachineIndex): MachineSummary {
  const { machines: _machines, ...summary } = index;
  return summary;
}

export type MiningRow = MiningRecord & { id: string };

/** A machine produces once per platform day: machine and day name a record. */
export function withMiningIds(page: Page<MiningRecord>): Page<MiningRow> {
  return { ...page, items: page.items.map((record) => ({ ...record, id: `${record.machineId}|${record.day}` })) };
}
