import {
  NETWORKS,
  RECHARGE_CONFIRMATIONS,
  RECHARGE_MINIMUM_USDT,
  type AdminDeposit,
  type Deposit,
  type DepositStatus,
  type Network,
  type RechargeAddress,
  type RechargeIndex,
  type WatcherStatus,
} from '@custos/contract';
import { AppError } from '../../http/app-error.js';
import type { MemberSessionContext } from '../auth/auth.service.js';
import type { AddressDeriver } from './address-derivation.js';
import type { ChainRepository, DepositRow } from './chain.repository.js';
import type { DepositWatcher } from './deposit-watcher.js';

function iso(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

/** Deposit addresses, deposit records and the watchers' state, for members and the console. */
export class ChainService {
  constructor(
    private readonly repository: ChainRepository,
    private readonly derivers: Partial<Record<Network, AddressDeriver>>,
    private readonly watchers: Partial<Record<Network, DepositWatcher>>,
  ) {}

  private confirmationsOf(network: Network): number {
    return this.watchers[network]?.confirmations ?? RECHARGE_CONFIRMATIONS;
  }

  index(): RechargeIndex {
    return {
      networks: NETWORKS.map((network) => ({ network, enabled: Boolean(this.derivers[network]) })),
      minimumAmount: RECHARGE_MINIMUM_USDT,
      confirmations: RECHARGE_CONFIRMATIONS,
    };
  }

  /** The member's deposit address on `network`, made on first request (credited to the main account). */
  async address(context: MemberSessionContext, network: Network): Promise<RechargeAddress> {
    const deriver = this.derivers[network];
    if (!deriver) throw AppError.conflict('recharge.network_disabled', { network });
    const memberId = context.member.id;
    let row = await this.repository.findAddress(memberId, network);
    if (!row) {
      const accountId = await this.repository.mainAccountOf(memberId);
      if (!accountId) throw new Error(`member ${memberId} has no main account`);
      const index = await this.repository.nextDerivationIndex();
      const derived = deriver.derive(index);
      await this.repository.insertAddress({
        member_id: memberId,
        account_id: accountId,
        network,
        derivation_index: index,
        address: derived.address,
        match_key: derived.matchKey,
      });
      row = (await this.repository.findAddress(memberId, network))!;
    }
    return {
      network,
      address: row.address,
      minimumAmount: RECHARGE_MINIMUM_USDT,
      confirmations: this.confirmationsOf(network),
    };
  }

  private toDeposit(row: DepositRow): Deposit {
    const required = this.confirmationsOf(row.network);
    return {
      id: row.id,
      network: row.network,
      txHash: row.tx_hash,
      fromAddress: row.from_address,
      toAddress: row.to_address,
      amount: row.amount,
      status: row.status,
      confirmations: row.status === 'orphaned' ? 0 : Math.min(row.confirmations, required),
      requiredConfirmations: required,
      blockNumber: row.block_number,
      seenAt: new Date(row.seen_at).toISOString(),
      creditedAt: iso(row.credited_at),
    };
  }

  async list(context: MemberSessionContext, network: Network | undefined, page: number, pageSize: number) {
    const { rows, total } = await this.repository.listForMember(context.member.id, network, pageSize, (page - 1) * pageSize);
    return { items: rows.map((row) => this.toDeposit(row)), total, page, pageSize };
  }

  async adminDeposits(
    filter: { network?: Network; status?: DepositStatus; query?: string },
    page: number,
    pageSize: number,
  ): Promise<{ items: AdminDeposit[]; total: number; page: number; pageSize: number }> {
    const { rows, total } = await this.repository.listAll(filter, pageSize, (page - 1) * pageSize);
    return {
      items: rows.map((row) => ({
        ...this.toDeposit(row),
        memberId: row.member_id,
        memberEmail: row.member_email,
        accountId: row.account_id,
        logIndex: row.log_index,
        blockHash: row.block_hash,
      })),
      total,
      page,
      pageSize,
    };
  }

  /**
   * The demo's chain is a new one at every start (decision 019): its blocks are numbered from 0
   * again, so the watcher forgets the old chain's cursor and scans the new one from its start.
   */
  async startOverOnNewChain(network: Network): Promise<void> {
    await this.repository.deleteCursor(network);
  }

  async watcherStatuses(): Promise<WatcherStatus[]> {
    const cursors = new Map((await this.repository.cursors()).map((cursor) => [cursor.network, cursor]));
    return Promise.all(
      NETWORKS.map(async (network) => {
        const cursor = cursors.get(network);
        const head = cursor?.head_block ?? null;
        const scanned = cursor ? cursor.scanned_block : null;
        return {
          network,
          enabled: Boolean(this.watchers[network]),
          headBlock: head,
          scannedBlock: scanned,
          lagBlocks: head !== null && scanned !== null ? Number(BigInt(head) - BigInt(scanned)) : null,
          lastScanAt: iso(cursor?.last_scan_at ?? null),
          lastError: cursor?.last_error ?? null,
          lastErrorAt: iso(cursor?.last_error_at ?? null),
          consecutiveFailures: cursor?.consecutive_failures ?? 0,
          confirming: await this.repository.countConfirming(network),
        };
      }),
    );
  }
}
