import { createPublicClient, createWalletClient, http, parseAbi, parseUnits, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { accountPrivateKey, TEST_USDT_ABI } from '../../devchain/devchain.mjs';

/**
 * The dev chain the global setup started, seen from a test: send test USDT to an address (as a
 * member's wallet would), mine blocks for confirmations, read balances.
 */
function rpcUrl(): string {
  const url = process.env.E2E_RPC_URL;
  if (!url) throw new Error('E2E_RPC_URL is not set (global setup did not run)');
  return url;
}

function token(): Address {
  return process.env.E2E_USDT_CONTRACT as Address;
}

const ERC20 = parseAbi(['function balanceOf(address) view returns (uint256)']);

export function chainClients() {
  const transport = http(rpcUrl());
  return {
    publicClient: createPublicClient({ transport, cacheTime: 0 }),
    // Account 3 of the dev mnemonic sends the test deposits (the global setup uses account 0).
    wallet: createWalletClient({ transport, account: privateKeyToAccount(accountPrivateKey(3)) }),
  };
}

/** Sends test USDT (minted by the faucet token) to `to` and waits until it is mined. */
export async function depositUsdt(to: Address, amount: string): Promise<void> {
  const { publicClient, wallet } = chainClients();
  const hash = await wallet.writeContract({
    address: token(),
    abi: TEST_USDT_ABI,
    functionName: 'mint',
    args: [to, parseUnits(amount, 18)],
    chain: null,
  });
  await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 100 });
}

export async function mineBlocks(count: number): Promise<void> {
  const { publicClient } = chainClients();
  await publicClient.request({ method: 'hardhat_mine' as never, params: [`0x${count.toString(16)}`] as never });
}

export async function usdtBalanceOf(address: Address): Promise<bigint> {
  const { publicClient } = chainClients();
  return publicClient.readContract({ address: token(), abi: ERC20, functionName: 'balanceOf', args: [address] });
}
