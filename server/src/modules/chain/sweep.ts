import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';
import { bytesToHex } from '@noble/hashes/utils';
import { createPublicClient, createWalletClient, http, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { money, type Money } from '@custos/contract';
import { addressOfPublicKey } from './address-derivation.js';
import type { ChainRepository, DepositAddressRow } from './chain.repository.js';
import { tokenUnitsToMoney } from './deposit-watcher.js';
import { ERC20_ABI, ERC20_TRANSFER_GAS } from './erc20.js';

export interface SweepOptions {
  rpcUrl: string;
  tokenAddress: `0x${string}`;
  /** The deposit keys' mnemonic, given at run time and never stored. */
  mnemonic: string;
  /** BIP-44 account of the deposit key (`m/44'/60'/account'`). */
  account: number;
  collectionAddress: `0x${string}`;
  /** Addresses holding less USDT than this are left alone. */
  minimum: Money;
  /**
   * The wallet that sends gas to deposit addresses that have too little. It must not be the payout
   * hot wallet: the sweep would take nonces out from under payouts signed ahead of time.
   */
  gasKey: Hex;
  /** The BEP20 payout hot wallet's address when one is configured (the gas wallet must differ). */
  hotWalletAddress: `0x${string}` | null;
  dryRun: boolean;
  log: (line: string) => void;
}

export interface SweepResult {
  address: string;
  amount: string;
  gasTxHash: string | null;
  txHash: string | null;
  status: 'sent' | 'failed' | 'planned';
  error: string | null;
}

export class SweepError extends Error {
  override name = 'SweepError';
}

/**
 * `npm run sweep` for BEP20: moves every deposit address's USDT above a threshold to the collection
 * wallet, sending gas first where an address has too little, and records each move. The mnemonic is
 * checked against every stored address before anything is sent.
 */
export async function sweepBep20(repository: ChainRepository, options: SweepOptions): Promise<SweepResult[]> {
  if (!validateMnemonic(options.mnemonic.trim(), wordlist)) throw new SweepError('that is not a valid BIP-39 mnemonic');
  const gasAccount = privateKeyToAccount(options.gasKey);
  if (options.hotWalletAddress !== null && gasAccount.address.toLowerCase() === options.hotWalletAddress.toLowerCase()) {
    // Payouts are signed with nonces handed out in the database before they are sent; a gas top-up
    // from the same account would use one of those nonces and void a signed payout.
    throw new SweepError('SWEEP_GAS_KEY must be a wallet of its own, not the payout hot wallet; nothing was sent');
  }
  const external = HDKey.fromMasterSeed(mnemonicToSeedSync(options.mnemonic.trim())).derive(`m/44'/60'/${options.account}'/0`);
  const addresses = await repository.depositAddressesOf('BEP20');
  const keys = new Map<string, Hex>();
  for (const row of addresses) {
    const child = external.deriveChild(row.derivation_index);
    if (addressOfPublicKey('BEP20', child.publicKey!).address !== row.address) {
      throw new SweepError(
        `the mnemonic (account ${options.account}) does not make deposit address #${row.derivation_index} (${row.address}); nothing was sent`,
      );
    }
    keys.set(row.id, `0x${bytesToHex(child.privateKey!)}`);
  }

  const transport = http(options.rpcUrl, { timeout: 30_000, retryCount: 0 });
  const client: PublicClient = createPublicClient({ transport, cacheTime: 0 });
  const gasWallet = createWalletClient({ transport, account: gasAccount });
  const decimals = await client.readContract({ address: options.tokenAddress, abi: ERC20_ABI, functionName: 'decimals' });
  const results: SweepResult[] = [];
  for (const row of addresses) {
    const address = row.address as `0x${string}`;
    const rawAmount = await client.readContract({
      address: options.tokenAddress,
      abi: ERC20_ABI,
      functionName: 'balanceOf',
      args: [address],
    });
    const amount = tokenUnitsToMoney(rawAmount, decimals);
    if (rawAmount === 0n || money.compare(amount, options.minimum) < 0) continue;
    const shown = money.formatMoney(amount);
    if (options.dryRun) {
      options.log(`would sweep ${shown} USDT from ${address} (#${row.derivation_index})`);
      results.push({ address, amount: shown, gasTxHash: null, txHash: null, status: 'planned', error: null });
      continue;
    }
    let gasTxHash: Hex | null = null;
    let txHash: Hex | null = null;
    try {
      const gasPrice = await client.getGasPrice();
      const needed = ERC20_TRANSFER_GAS * gasPrice;
      const native = await client.getBalance({ address });
      if (native < needed) {
        gasTxHash = await gasWallet.sendTransaction({ to: address, value: needed - native, chain: null });
        await waitFor(client, gasTxHash);
        options.log(`sent gas to ${address}: ${gasTxHash}`);
      }
      const depositWallet = createWalletClient({ transport, account: privateKeyToAccount(keys.get(row.id)!) });
      txHash = await depositWallet.writeContract({
        address: options.tokenAddress,
        abi: ERC20_ABI,
        functionName: 'transfer',
        args: [options.collectionAddress, rawAmount],
        gas: ERC20_TRANSFER_GAS,
        gasPrice,
        chain: null,
      });
      await waitFor(client, txHash);
      options.log(`swept ${shown} USDT from ${address}: ${txHash}`);
      results.push(await record(repository, row, options, rawAmount, shown, gasTxHash, txHash, null));
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
      options.log(`could not sweep ${address}: ${message}`);
      results.push(await record(repository, row, options, rawAmount, shown, gasTxHash, txHash, message));
    }
  }
  return results;
}

async function waitFor(client: PublicClient, hash: Hex): Promise<void> {
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 500, timeout: 180_000 });
  if (receipt.status !== 'success') throw new SweepError(`transaction ${hash} reverted`);
}

async function record(
  repository: ChainRepository,
  row: DepositAddressRow,
  options: SweepOptions,
  rawAmount: bigint,
  amount: string,
  gasTxHash: string | null,
  txHash: string | null,
  error: string | null,
): Promise<SweepResult> {
  const status = error === null ? 'sent' : 'failed';
  await repository.recordSweep({
    network: 'BEP20',
    depositAddressId: row.id,
    fromAddress: row.address,
    toAddress: options.collectionAddress,
    rawAmount: rawAmount.toString(),
    amount,
    gasTxHash,
    txHash,
    status,
    error,
  });
  return { address: row.address, amount, gasTxHash, txHash, status, error };
}
