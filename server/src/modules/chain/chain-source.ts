import type { Network } from '@custos/contract';

/** One token transfer event to some address, as a watcher needs it. */
export interface TokenTransfer {
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
  /** The sender as the chain shows it to people. */
  from: string;
  /** The receiver's 20-byte account hash as lowercase 0x-hex (matches `deposit_addresses.match_key`). */
  toKey: string;
  /** Token units as on chain. */
  rawAmount: bigint;
}

/** What a deposit watcher reads from a chain: an EVM JSON-RPC node or TronGrid. */
export interface ChainSource {
  readonly network: Network;
  headBlock(): Promise<bigint>;
  /** The canonical block hash at `blockNumber`, or null when the chain has no such block (yet). */
  blockHash(blockNumber: bigint): Promise<string | null>;
  /**
   * The last block whose transfers this source can answer in full, where that can lag the head (an
   * event index behind its node); absent when `transfers` reads the node itself.
   */
  readableBlock?(): Promise<bigint>;
  /** Every transfer of the token in blocks `fromBlock..toBlock`, inclusive. */
  transfers(fromBlock: bigint, toBlock: bigint): Promise<TokenTransfer[]>;
  tokenDecimals(): Promise<number>;
}
