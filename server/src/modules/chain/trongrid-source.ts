import type { ChainSource, TokenTransfer } from './chain-source.js';
import { tronMatchKey } from './address-derivation.js';

/** What TronGrid answers for `/wallet/getnowblock` and `/wallet/getblockbynum` (only what we read). */
interface TronBlock {
  blockID?: string;
  block_header?: { raw_data?: { number?: number } };
}

/** One entry of `/v1/contracts/{contract}/events` (TronGrid v1). */
interface TronEvent {
  transaction_id: string;
  event_index: number;
  block_number: number;
  event_name: string;
  result: Record<string, string>;
  _unconfirmed?: boolean;
}

interface TronEventsPage {
  success?: boolean;
  data?: TronEvent[];
  meta?: { fingerprint?: string };
  error?: string;
}

export class TronGridError extends Error {
  override name = 'TronGridError';
}

/** An address as TronGrid prints it in event results (`0x…`, `41…` hex or base58 `T…`) to its 20-byte key. */
export function tronAddressKey(value: string): string | null {
  if (/^0x[0-9a-fA-F]{40}$/.test(value)) return value.toLowerCase();
  if (/^41[0-9a-fA-F]{40}$/.test(value)) return `0x${value.slice(2).toLowerCase()}`;
  return tronMatchKey(value);
}

/**
 * TRC20 USDT through TronGrid's HTTP API: the full-node calls `/wallet/getnowblock` and
 * `/wallet/getblockbynum` for the head and block ids, and the v1 extension
 * `/v1/contracts/{contract}/events?event_name=Transfer&block_number=N` for the transfers of a block
 * (paged by `fingerprint`). The token's decimals come from configuration (6 for USDT on TRON).
 */
export class TronGridChainSource implements ChainSource {
  readonly network = 'TRC20' as const;

  constructor(
    private readonly baseUrl: string,
    private readonly tokenAddress: string,
    private readonly decimals: number,
    private readonly apiKey: string | undefined,
    private readonly timeoutMs = 10_000,
  ) {}

  private async request<T>(path: string, body?: object): Promise<T> {
    const response = await fetch(new URL(path, this.baseUrl), {
      method: body ? 'POST' : 'GET',
      headers: {
        accept: 'application/json',
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(this.apiKey ? { 'TRON-PRO-API-KEY': this.apiKey } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!response.ok) throw new TronGridError(`${path.split('?')[0]} answered HTTP ${response.status}`);
    try {
      return (await response.json()) as T;
    } catch {
      throw new TronGridError(`${path.split('?')[0]} answered something that is not JSON`);
    }
  }

  async headBlock(): Promise<bigint> {
    const block = await this.request<TronBlock>('/wallet/getnowblock', {});
    const number = block.block_header?.raw_data?.number;
    if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 0) {
      throw new TronGridError('getnowblock answered without a block number');
    }
    return BigInt(number);
  }

  async blockHash(blockNumber: bigint): Promise<string | null> {
    const block = await this.request<TronBlock>('/wallet/getblockbynum', { num: Number(blockNumber) });
    if (!block.blockID) return null;
    if (!/^[0-9a-fA-F]{64}$/.test(block.blockID)) throw new TronGridError('getblockbynum answered a malformed block id');
    return block.blockID.toLowerCase();
  }

  /**
   * TronGrid serves events from an index that can lag its full node, and answers a block it has not
   * indexed yet as having no events. The newest Transfer of the token in that index
   * (`order_by=block_timestamp,desc&limit=1`) bounds what can be read in full: blocks after it are
   * read once a later event shows the index has passed them (USDT moves in nearly every TRON block).
   */
  async readableBlock(): Promise<bigint> {
    const query = new URLSearchParams({ event_name: 'Transfer', order_by: 'block_timestamp,desc', limit: '1' });
    const result = await this.request<TronEventsPage>(`/v1/contracts/${this.tokenAddress}/events?${query.toString()}`);
    if (result.success === false || !Array.isArray(result.data)) {
      throw new TronGridError(`events answered ${result.error ?? 'without data'}`);
    }
    const newest = result.data[0]?.block_number;
    if (newest === undefined) return -1n;
    if (!Number.isSafeInteger(newest) || newest < 0) throw new TronGridError('events answered a malformed block number');
    return BigInt(newest);
  }

  async transfers(fromBlock: bigint, toBlock: bigint): Promise<TokenTransfer[]> {
    const transfers: TokenTransfer[] = [];
    for (let blockNumber = fromBlock; blockNumber <= toBlock; blockNumber += 1n) {
      const events = await this.blockEvents(blockNumber);
      if (events.length === 0) continue;
      const blockHash = await this.blockHash(blockNumber);
      // The block is gone between the two calls: the next scan reads this range again.
      if (blockHash === null) throw new TronGridError(`block ${blockNumber} disappeared during the scan`);
      for (const event of events) {
        const toKey = tronAddressKey(event.result.to ?? '');
        const fromKey = tronAddressKey(event.result.from ?? '');
        const value = event.result.value ?? '';
        if (!toKey || !fromKey || !/^\d+$/.test(value))
          throw new TronGridError(`malformed Transfer event in ${event.transaction_id}`);
        transfers.push({
          txHash: event.transaction_id.toLowerCase(),
          logIndex: event.event_index,
          blockNumber,
          blockHash,
          from: event.result.from!,
          toKey,
          rawAmount: BigInt(value),
        });
      }
    }
    return transfers;
  }

  private async blockEvents(blockNumber: bigint): Promise<TronEvent[]> {
    const events: TronEvent[] = [];
    let fingerprint: string | undefined;
    for (let page = 0; page < 1000; page += 1) {
      const query = new URLSearchParams({ event_name: 'Transfer', block_number: blockNumber.toString(), limit: '200' });
      if (fingerprint) query.set('fingerprint', fingerprint);
      const result = await this.request<TronEventsPage>(`/v1/contracts/${this.tokenAddress}/events?${query.toString()}`);
      if (result.success === false || !Array.isArray(result.data)) {
        throw new TronGridError(`events answered ${result.error ?? 'without data'}`);
      }
      for (const event of result.data) {
        if (event.event_name !== 'Transfer' || BigInt(event.block_number) !== blockNumber) continue;
        events.push(event);
      }
      fingerprint = result.meta?.fingerprint;
      if (!fingerprint) return events;
    }
    throw new TronGridError(`too many pages of events in block ${blockNumber}`);
  }

  tokenDecimals(): Promise<number> {
    return Promise.resolve(this.decimals);
  }
}
