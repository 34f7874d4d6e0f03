import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The part of devchain/devchain.mjs the demo uses (loaded at run time, never bundled into the server). */
interface DevChainModule {
  startDevChain(options?: { port?: number; host?: string; blockTimeMs?: number }): Promise<{
    rpcUrl: string;
    tokenAddress: string;
    mint(to: `0x${string}`, amountUnits: bigint): Promise<string>;
    stop(): Promise<void>;
  }>;
  accountPrivateKey(index: number): `0x${string}`;
  accountExtendedPublicKey(account?: number): string;
}

export interface DemoChain {
  rpcUrl: string;
  tokenAddress: string;
  /** The BSC_* variables that point the server at this chain. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** The port `npm run devchain` and the faucet default to as well. */
export const DEMO_CHAIN_PORT = 8545;
/** Account 0 of Hardhat's mnemonic deploys TestUSDT and is the demo's hot wallet (account 2 pays the faucet's gas). */
const HOT_WALLET_ACCOUNT = 0;
const HOT_WALLET_USDT_UNITS = 1_000_000n * 10n ** 18n;
/** A block every second, as on a real chain: confirmations come without anyone sending transactions. */
const BLOCK_TIME_MS = 1000;

/**
 * The local Hardhat chain with TestUSDT (devchain/), started by `--demo` when no BSC_RPC_URL is set
 * (decision 019). A new chain at each start: nothing on it outlives the server, which stops it.
 * Deposit addresses come from account 1 of the mnemonic, so they never coincide with funded accounts.
 */
export async function startDemoChain(repoRoot: string, env: NodeJS.ProcessEnv): Promise<DemoChain> {
  const modulePath = pathToFileURL(path.join(repoRoot, 'devchain', 'devchain.mjs')).href;
  const devchain = (await import(modulePath)) as DevChainModule;
  const requested = env.DEVCHAIN_PORT === undefined ? undefined : Number(env.DEVCHAIN_PORT);
  if (requested !== undefined && !(Number.isInteger(requested) && requested > 0 && requested < 65_536)) {
    throw new Error(`DEVCHAIN_PORT must be a port number, not ${env.DEVCHAIN_PORT}`);
  }
  let chain;
  try {
    chain = await devchain.startDevChain({ port: requested ?? DEMO_CHAIN_PORT, blockTimeMs: BLOCK_TIME_MS });
  } catch (error) {
    // The usual port is taken (another demo, `npm run devchain`): any free one will do, the banner says which.
    if (requested !== undefined || !String(error).includes('already in use')) throw error;
    chain = await devchain.startDevChain({ blockTimeMs: BLOCK_TIME_MS });
  }
  try {
    const hotWalletKey = devchain.accountPrivateKey(HOT_WALLET_ACCOUNT);
    const { privateKeyToAddress } = await import('viem/accounts');
    await chain.mint(privateKeyToAddress(hotWalletKey), HOT_WALLET_USDT_UNITS);
    return {
      rpcUrl: chain.rpcUrl,
      tokenAddress: chain.tokenAddress,
      env: {
        BSC_RPC_URL: chain.rpcUrl,
        BSC_USDT_CONTRACT: chain.tokenAddress,
        BSC_DEPOSIT_XPUB: devchain.accountExtendedPublicKey(1),
        BSC_HOT_WALLET_KEY: hotWalletKey,
        BSC_START_BLOCK: '0',
        BSC_POLL_MS: env.BSC_POLL_MS ?? '1000',
      },
      stop: () => chain.stop(),
    };
  } catch (error) {
    await chain.stop();
    throw error;
  }
}
