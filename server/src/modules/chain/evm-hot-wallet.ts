import {
  createPublicClient,
  encodeFunctionData,
  formatUnits,
  http,
  keccak256,
  parseTransaction,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { ERC20_ABI, ERC20_TRANSFER_GAS } from './erc20.js';

export interface SignedPayout {
  rawTx: Hex;
  txHash: Hex;
  nonce: bigint;
}

/**
 * The BEP20 hot wallet that pays approved withdrawals: signs USDT transfers locally (the key never
 * leaves this process), broadcasts them, and reads receipts and balances. Signing and broadcasting
 * are separate so the signed transaction can be stored first and sent again unchanged on a retry.
 */
export class EvmHotWallet {
  private readonly client: PublicClient;
  private readonly account: PrivateKeyAccount;
  private decimals: number | undefined;
  private chainId: number | undefined;

  constructor(
    rpcUrl: string,
    private readonly tokenAddress: `0x${string}`,
    privateKey: Hex,
    timeoutMs = 10_000,
  ) {
    this.client = createPublicClient({ transport: http(rpcUrl, { timeout: timeoutMs, retryCount: 0 }), cacheTime: 0 });
    this.account = privateKeyToAccount(privateKey);
  }

  get address(): `0x${string}` {
    return this.account.address;
  }

  async tokenDecimals(): Promise<number> {
    this.decimals ??= await this.client.readContract({ address: this.tokenAddress, abi: ERC20_ABI, functionName: 'decimals' });
    return this.decimals;
  }

  async signTransfer(to: `0x${string}`, amountUnits: bigint, nonce: bigint): Promise<SignedPayout> {
    this.chainId ??= await this.client.getChainId();
    const gasPrice = await this.client.getGasPrice();
    const rawTx = await this.account.signTransaction({
      type: 'legacy',
      chainId: this.chainId,
      nonce: Number(nonce),
      to: this.tokenAddress,
      data: encodeFunctionData({ abi: ERC20_ABI, functionName: 'transfer', args: [to, amountUnits] }),
      gas: ERC20_TRANSFER_GAS,
      gasPrice,
      value: 0n,
    });
    return { rawTx, txHash: keccak256(rawTx), nonce };
  }

  /**
   * A transaction that uses up `nonce` and moves nothing (0 BNB to the wallet itself), priced above
   * `replacing` so that nodes take it instead: once it is mined, a payout signed with that nonce can
   * never be mined.
   */
  async signCancel(nonce: bigint, replacing: Hex): Promise<SignedPayout> {
    this.chainId ??= await this.client.getChainId();
    const original = parseTransaction(replacing).gasPrice ?? 0n;
    const current = await this.client.getGasPrice();
    // Nodes replace a pending transaction only for a clearly higher price (10 % on geth; 25 % here).
    const bumped = (original * 125n) / 100n + 1n;
    const rawTx = await this.account.signTransaction({
      type: 'legacy',
      chainId: this.chainId,
      nonce: Number(nonce),
      to: this.account.address,
      gas: 21_000n,
      gasPrice: current > bumped ? current : bumped,
      value: 0n,
    });
    return { rawTx, txHash: keccak256(rawTx), nonce };
  }

  /** Sends a signed transaction; sending one the node already has is not an error. */
  async broadcast(rawTx: Hex): Promise<void> {
    try {
      await this.client.sendRawTransaction({ serializedTransaction: rawTx });
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      if (/already known|known transaction|already imported/i.test(text)) return;
      throw error;
    }
  }

  /** The receipt and how many confirmations it has, or null while it is not mined. */
  async receipt(txHash: Hex): Promise<{ receipt: TransactionReceipt; confirmations: bigint } | null> {
    try {
      const receipt = await this.client.getTransactionReceipt({ hash: txHash });
      const head = await this.client.getBlockNumber({ cacheTime: 0 });
      return { receipt, confirmations: head - receipt.blockNumber + 1n };
    } catch (error) {
      if (error instanceof Error && error.name === 'TransactionReceiptNotFoundError') return null;
      throw error;
    }
  }

  /** Whether the node knows the transaction at all (mined or in its pool). */
  async known(txHash: Hex): Promise<boolean> {
    try {
      await this.client.getTransaction({ hash: txHash });
      return true;
    } catch (error) {
      if (error instanceof Error && error.name === 'TransactionNotFoundError') return false;
      throw error;
    }
  }

  headBlock(): Promise<bigint> {
    return this.client.getBlockNumber({ cacheTime: 0 });
  }

  /**
   * The wallet's transaction count as of `blockNumber`. A state read by block number is pinned: a
   * node that does not have that block answers an error, never a count from another view.
   */
  nonceAt(blockNumber: bigint): Promise<number> {
    return this.client.getTransactionCount({ address: this.account.address, blockNumber });
  }

  /**
   * The hash of the wallet's transaction that used `nonce`, found in the first block (at or before
   * `atOrBefore`) whose count is past it; every read is by block number, so all of them describe
   * one chain. Throws if the node's answers do not agree with each other.
   */
  async nonceUser(nonce: bigint, atOrBefore: bigint): Promise<Hex> {
    let low = 0n;
    let high = atOrBefore;
    if (BigInt(await this.nonceAt(high)) <= nonce) throw new Error(`nonce ${nonce} is not used at block ${high}`);
    while (low < high) {
      const middle = (low + high) / 2n;
      if (BigInt(await this.nonceAt(middle)) > nonce) high = middle;
      else low = middle + 1n;
    }
    const block = await this.client.getBlock({ blockNumber: high, includeTransactions: true });
    const used = block.transactions.find(
      (transaction) =>
        transaction.from.toLowerCase() === this.account.address.toLowerCase() && BigInt(transaction.nonce) === nonce,
    );
    if (!used) throw new Error(`block ${high} has no transaction of the wallet with nonce ${nonce}`);
    return used.hash;
  }

  /** The nonce of the last mined transaction + 1: nonces below it can never be used again. */
  minedNonce(): Promise<number> {
    return this.client.getTransactionCount({ address: this.account.address, blockTag: 'latest' });
  }

  async balances(): Promise<{ usdt: string; native: string }> {
    const [usdt, native, decimals] = await Promise.all([
      this.client.readContract({
        address: this.tokenAddress,
        abi: ERC20_ABI,
        functionName: 'balanceOf',
        args: [this.account.address],
      }),
      this.client.getBalance({ address: this.account.address }),
      this.tokenDecimals(),
    ]);
    return { usdt: formatUnits(usdt, decimals), native: formatUnits(native, 18) };
  }
}
