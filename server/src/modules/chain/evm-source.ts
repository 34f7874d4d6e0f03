import { createPublicClient, getAddress, http, parseAbiItem, type PublicClient } from 'viem';
import type { ChainSource, TokenTransfer } from './chain-source.js';
import { ERC20_ABI } from './erc20.js';

const TRANSFER_EVENT = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/** BEP20 USDT through any EVM JSON-RPC endpoint (a BSC node, a provider, or the dev chain). */
export class EvmChainSource implements ChainSource {
  readonly network = 'BEP20' as const;
  private readonly client: PublicClient;

  constructor(
    rpcUrl: string,
    private readonly tokenAddress: `0x${string}`,
    timeoutMs = 10_000,
  ) {
    // cacheTime 0: viem otherwise answers block numbers from a ~4 s cache, and a watcher must see the head.
    this.client = createPublicClient({ transport: http(rpcUrl, { timeout: timeoutMs, retryCount: 0 }), cacheTime: 0 });
  }

  headBlock(): Promise<bigint> {
    return this.client.getBlockNumber({ cacheTime: 0 });
  }

  async blockHash(blockNumber: bigint): Promise<string | null> {
    try {
      const block = await this.client.getBlock({ blockNumber });
      return block.hash;
    } catch (error) {
      if (error instanceof Error && error.name === 'BlockNotFoundError') return null;
      throw error;
    }
  }

  async transfers(fromBlock: bigint, toBlock: bigint): Promise<TokenTransfer[]> {
    const logs = await this.client.getLogs({
      address: this.tokenAddress,
      event: TRANSFER_EVENT,
      fromBlock,
      toBlock,
      strict: true,
    });
    const transfers: TokenTransfer[] = [];
    for (const log of logs) {
      if (log.removed || log.blockNumber === null || log.blockHash === null || log.transactionHash === null) continue;
      if (log.logIndex === null) continue;
      transfers.push({
        txHash: log.transactionHash.toLowerCase(),
        logIndex: log.logIndex,
        blockNumber: log.blockNumber,
        blockHash: log.blockHash.toLowerCase(),
        from: getAddress(log.args.from),
        toKey: log.args.to.toLowerCase(),
        rawAmount: log.args.value,
      });
    }
    return transfers;
  }

  tokenDecimals(): Promise<number> {
    return this.client.readContract({ address: this.tokenAddress, abi: ERC20_ABI, functionName: 'decimals' });
  }
}
