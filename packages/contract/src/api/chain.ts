import { z } from 'zod';
import { pageOf, pageQuery } from './paging.js';

/** The networks USDT is deposited and withdrawn on (product.md §5). */
export const NETWORKS = ['BEP20', 'TRC20'] as const;
export type Network = (typeof NETWORKS)[number];

/** Smallest deposit that is credited; smaller ones are recorded and shown, never credited or refunded. */
export const RECHARGE_MINIMUM_USDT = '1.0000';
/** Network confirmations before a deposit is credited. */
export const RECHARGE_CONFIRMATIONS = 3;

/**
 * Where a deposit stands: seen on chain and waiting for confirmations; credited to the member;
 * below the minimum (final, never credited); or orphaned (its block left the chain before it was
 * confirmed: it is credited only if the transaction reappears in a new block).
 */
export const DEPOSIT_STATUSES = ['confirming', 'credited', 'below_minimum', 'orphaned'] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];

/** Block explorers for links in records (transactions and addresses). */
export const EXPLORERS: Record<Network, { tx: string; address: string }> = {
  BEP20: { tx: 'https://bscscan.com/tx/', address: 'https://bscscan.com/address/' },
  TRC20: { tx: 'https://tronscan.org/#/transaction/', address: 'https://tronscan.org/#/address/' },
};

export const networkSchema = z.enum(NETWORKS);

/** GET /api/recharge/recharge: what the recharge screen needs before an address is shown. */
export const rechargeIndexResponse = z.object({
  networks: z.array(z.object({ network: networkSchema, enabled: z.boolean() })),
  minimumAmount: z.string(),
  confirmations: z.number().int(),
});
export type RechargeIndex = z.infer<typeof rechargeIndexResponse>;

/** GET /api/recharge/address?network=BEP20 */
export const rechargeAddressQuery = z.object({ network: networkSchema });
export const rechargeAddressResponse = z.object({
  network: networkSchema,
  address: z.string(),
  minimumAmount: z.string(),
  confirmations: z.number().int(),
});
export type RechargeAddress = z.infer<typeof rechargeAddressResponse>;

export const depositSchema = z.object({
  id: z.string(),
  network: networkSchema,
  txHash: z.string(),
  fromAddress: z.string(),
  toAddress: z.string(),
  amount: z.string(),
  status: z.enum(DEPOSIT_STATUSES),
  confirmations: z.number().int(),
  requiredConfirmations: z.number().int(),
  blockNumber: z.string(),
  seenAt: z.string(),
  creditedAt: z.string().nullable(),
});
export type Deposit = z.infer<typeof depositSchema>;

/** GET /api/recharge/list: the member's deposits (main account), newest first. */
export const rechargeListQuery = pageQuery.extend({ network: networkSchema.optional() });
export const rechargeListResponse = pageOf(depositSchema);

// ── Console ──────────────────────────────────────────────────────────────────────────────────────

/** GET /api/admin/chain/deposits */
export const adminDepositsQuery = pageQuery.extend({
  network: networkSchema.optional(),
  status: z.enum(DEPOSIT_STATUSES).optional(),
  /** E-mail, address or transaction hash (exact). */
  query: z.string().trim().max(254).optional(),
});
export const adminDepositSchema = depositSchema.extend({
  memberId: z.string(),
  memberEmail: z.string(),
  accountId: z.string(),
  logIndex: z.number().int(),
  blockHash: z.string(),
});
export type AdminDeposit = z.infer<typeof adminDepositSchema>;
export const adminDepositsResponse = pageOf(adminDepositSchema);

/** GET /api/admin/chain/watchers: one row per network. */
export const watcherStatusSchema = z.object({
  network: networkSchema,
  /** False when the network is not configured (no RPC, token or deposit key). */
  enabled: z.boolean(),
  headBlock: z.string().nullable(),
  /** Every block up to here is scanned and final. */
  scannedBlock: z.string().nullable(),
  lagBlocks: z.number().int().nullable(),
  lastScanAt: z.string().nullable(),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  consecutiveFailures: z.number().int(),
  confirming: z.number().int(),
});
export type WatcherStatus = z.infer<typeof watcherStatusSchema>;
export const adminWatchersResponse = z.array(watcherStatusSchema);
