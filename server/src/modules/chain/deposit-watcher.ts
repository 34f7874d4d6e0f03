import type { FastifyBaseLogger } from 'fastify';
import { money, RECHARGE_MINIMUM_USDT, type Money, type Network } from '@custos/contract';
import type { Db } from '../../db/client.js';
import type { LedgerService } from '../ledger/ledger.service.js';
import type { ChainSource, TokenTransfer } from './chain-source.js';
import type { ChainRepository, SeenDeposit } from './chain.repository.js';
import type { MemberEventPublisher } from '../notifications/member-events.service.js';

export interface DepositWatcherOptions {
  confirmations: number;
  /** First block to scan when there is no cursor yet; default: the head at first start. */
  startBlock: bigint | undefined;
  maxBlockRange: number;
  pollMs: number;
  /** Longest pause between tries while the chain's endpoint keeps failing. */
  maxBackoffMs?: number;
}

export interface ScanResult {
  headBlock: bigint;
  fromBlock: bigint;
  toBlock: bigint;
  scannedBlock: bigint;
  seen: number;
  credited: number;
  orphaned: number;
  /** Another instance moved the cursor first: this scan wrote nothing. */
  raced: boolean;
}

/** The chain's endpoint answered from a view behind the head: the scan wrote nothing and is repeated. */
export class ChainLagError extends Error {
  override name = 'ChainLagError';
}

/** How far back to scan again when the last final block itself was replaced (a reorganisation deeper than the confirmations). */
const DEEP_REORG_REWIND_BLOCKS = 64n;

/** Token units (e.g. 18 decimals) to money's 4 places, rounding down as for anything paid to a member. */
export function tokenUnitsToMoney(rawAmount: bigint, decimals: number): Money {
  const places = BigInt(money.MONEY_PLACES);
  const scale = BigInt(decimals);
  return money.fromUnits(scale >= places ? rawAmount / 10n ** (scale - places) : rawAmount * 10n ** (places - scale));
}

/**
 * Watches one chain for USDT sent to members' deposit addresses (docs/decisions/009-chain-deposits.md).
 *
 * Each scan reads blocks after the cursor up to the head, records every deposit at first sight,
 * credits those with enough confirmations, marks as orphaned the ones whose block left the chain,
 * and moves the cursor only up to blocks that are final. Everything a scan learns is written in one
 * transaction together with the cursor, after all chain reads, so a failure part-way writes nothing
 * and the next scan repeats the same blocks; crediting is keyed by (network, tx hash, log index) in
 * the ledger, so nothing is credited twice, whichever instance scans.
 */
export class DepositWatcher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;
  private failures = 0;
  private decimals: number | undefined;
  private readonly minimum = money.parseMoney(RECHARGE_MINIMUM_USDT);

  constructor(
    private readonly db: Db,
    readonly source: ChainSource,
    private readonly repository: ChainRepository,
    private readonly ledger: LedgerService,
    private readonly options: DepositWatcherOptions,
    private readonly logger: FastifyBaseLogger,
    /** Tells the member live (decision 022); tests that drive a watcher of their own may leave it out. */
    private readonly events?: MemberEventPublisher,
  ) {}

  get network(): Network {
    return this.source.network;
  }

  get confirmations(): number {
    return this.options.confirmations;
  }

  /** One scan; throws what the chain or the database threw (the loop records it and backs off). */
  async scan(): Promise<ScanResult> {
    const network = this.network;
    const headBlock = await this.source.headBlock();
    let cursor = await this.repository.cursor(network);
    if (!cursor) {
      const start = this.options.startBlock ?? headBlock;
      await this.repository.initCursor(network, start - 1n);
      cursor = (await this.repository.cursor(network))!;
    }
    let scannedBlock = BigInt(cursor.scanned_block);
    if (cursor.scanned_hash !== null && scannedBlock >= 0n) {
      const canonical = await this.source.blockHash(scannedBlock);
      if (canonical !== null && canonical !== cursor.scanned_hash) {
        const rewoundTo = scannedBlock - DEEP_REORG_REWIND_BLOCKS < -1n ? -1n : scannedBlock - DEEP_REORG_REWIND_BLOCKS;
        const reason = `block ${scannedBlock} was replaced after it counted as final: scanning again from ${rewoundTo + 1n}`;
        this.logger.error({ network, scannedBlock, rewoundTo }, 'deposit watcher: reorganisation deeper than the confirmations');
        await this.repository.rewindCursor(network, rewoundTo, reason);
        scannedBlock = rewoundTo;
      }
    }

    const fromBlock = scannedBlock + 1n;
    const lastInRange = fromBlock + BigInt(this.options.maxBlockRange) - 1n;
    // Never read past what the source can answer in full (an event index behind the head answers an
    // unindexed block as empty): a block read as empty too early would be passed over for good.
    const readable = this.source.readableBlock ? await this.source.readableBlock() : headBlock;
    const readHead = readable < headBlock ? readable : headBlock;
    const toBlock = readHead < lastInRange ? readHead : lastInRange;
    // Blocks up to here have at least `confirmations` confirmations (the head counts as one).
    const finalBlock = headBlock - BigInt(this.options.confirmations) + 1n;
    const newScanned = toBlock < finalBlock ? toBlock : finalBlock;

    // A node behind the head it (or another node behind the same address) reported answers logs for
    // blocks it lacks as none: the last block read must be there before and after the read.
    if (fromBlock <= toBlock) await this.requireBlock(toBlock);
    const transfers = fromBlock <= toBlock ? await this.source.transfers(fromBlock, toBlock) : [];
    const newScannedHash = newScanned > scannedBlock ? await this.requireBlock(newScanned) : cursor.scanned_hash;
    if (fromBlock <= toBlock && toBlock !== newScanned) await this.requireBlock(toBlock);
    this.decimals ??= await this.source.tokenDecimals();
    const decimals = this.decimals;

    const result = await this.db.transaction(async (tx) => {
      const locked = await this.repository.lockCursorAt(tx, network, scannedBlock);
      if (!locked) return { seen: 0, credited: 0, orphaned: 0, raced: true };
      const ours = await this.repository.addressesByMatchKey(tx, network, [...new Set(transfers.map((t) => t.toKey))]);
      const addressByKey = new Map(ours.map((row) => [row.match_key, row]));
      const seen: SeenDeposit[] = [];
      for (const transfer of transfers) {
        const address = addressByKey.get(transfer.toKey);
        if (!address) continue;
        seen.push(this.toSeen(transfer, address.id, decimals));
      }
      await this.repository.upsertSeen(tx, network, seen);
      const orphaned = fromBlock <= toBlock ? await this.repository.orphanMissing(tx, network, fromBlock, toBlock, seen) : 0;
      let credited = 0;
      if (fromBlock <= newScanned) {
        for (const deposit of await this.repository.lockCreditable(tx, network, fromBlock, newScanned)) {
          const amount = money.parseMoney(deposit.amount);
          const posted = await this.ledger.post(tx, {
            idempotencyKey: `deposit:${network}:${deposit.tx_hash}:${deposit.log_index}`,
            kind: 'deposit',
            referenceType: 'chain_deposit',
            referenceId: deposit.id,
            postings: [
              { account: { platformCode: 'deposits', asset: 'USDT' }, amount: money.negate(amount), recordType: 'recharge' },
              {
                account: { ownerAccountId: deposit.account_id, asset: 'USDT', purpose: 'available' },
                amount,
                recordType: 'recharge',
              },
            ],
          });
          await this.repository.markCredited(tx, deposit.id, posted.entryId);
          await this.events?.publish(tx, deposit.member_id, {
            kind: 'deposit.credited',
            depositId: deposit.id,
            network,
            amount: money.formatMoney(amount),
          });
          credited += 1;
        }
      }
      await this.repository.advanceCursor(tx, network, {
        scannedBlock: newScanned > scannedBlock ? newScanned : scannedBlock,
        scannedHash: newScanned > scannedBlock ? newScannedHash : cursor.scanned_hash,
        headBlock,
      });
      return { seen: seen.length, credited, orphaned, raced: false };
    });
    if (result.credited > 0 || result.orphaned > 0) {
      this.logger.info({ network, fromBlock, toBlock, ...result }, 'deposit watcher: scan');
    }
    return {
      headBlock,
      fromBlock,
      toBlock,
      scannedBlock: newScanned > scannedBlock ? newScanned : scannedBlock,
      ...result,
    };
  }

  /** The block's hash; a block the node does not have (yet) ends the scan without writing anything. */
  private async requireBlock(blockNumber: bigint): Promise<string> {
    const hash = await this.source.blockHash(blockNumber);
    if (hash === null) throw new ChainLagError(`the node does not have block ${blockNumber} yet (it lags the head it reported)`);
    return hash;
  }

  private toSeen(transfer: TokenTransfer, depositAddressId: string, decimals: number): SeenDeposit {
    const amount = tokenUnitsToMoney(transfer.rawAmount, decimals);
    return {
      txHash: transfer.txHash,
      logIndex: transfer.logIndex,
      blockNumber: transfer.blockNumber,
      blockHash: transfer.blockHash,
      fromAddress: transfer.from,
      depositAddressId,
      rawAmount: transfer.rawAmount,
      amount: money.formatMoney(amount),
      status: money.compare(amount, this.minimum) < 0 ? 'below_minimum' : 'confirming',
    };
  }

  /** A scan that never throws: failures are logged, shown in the console and retried with back-off. */
  async scanOnce(): Promise<ScanResult | null> {
    try {
      const result = await this.scan();
      this.failures = 0;
      return result;
    } catch (error) {
      this.failures += 1;
      const message = error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : String(error);
      this.logger.warn({ network: this.network, failures: this.failures, err: error }, 'deposit watcher: scan failed');
      await this.repository.recordFailure(this.network, message).catch((recordError: unknown) => {
        this.logger.error({ err: recordError }, 'deposit watcher: could not record the failure');
      });
      return null;
    }
  }

  /** The delay before the next scan: the poll interval, doubled per consecutive failure up to the cap. */
  nextDelayMs(): number {
    if (this.failures === 0) return this.options.pollMs;
    const cap = this.options.maxBackoffMs ?? 60_000;
    return Math.min(cap, this.options.pollMs * 2 ** Math.min(this.failures, 16));
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const loop = () => {
      if (this.stopped) return;
      this.running = this.scanOnce().finally(() => {
        if (!this.stopped) this.timer = setTimeout(loop, this.nextDelayMs());
      });
    };
    loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
