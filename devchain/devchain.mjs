// A local EVM chain for USDT (BEP20) deposit and withdrawal work: a Hardhat 2 node on 127.0.0.1 with
// the TestUSDT faucet token deployed, driven through viem. Used by tests (startDevChain) and by the
// `npm run devchain` CLI. Types for TypeScript callers: devchain.d.mts.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  getAddress,
  http,
  numberToHex,
  toHex,
} from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** Hardhat's default mnemonic: its node funds the first 20 accounts of it with 10,000 ETH each. */
export const HARDHAT_MNEMONIC = 'test test test test test test test test test test test junk';
export const DEV_CHAIN_ID = 31337;
/** TestUSDT has 18 decimals, like USDT on BSC. */
export const USDT_DECIMALS = 18;

const artifact = /** @type {{ contractName: string, abi: import('viem').Abi, bytecode: import('viem').Hex }} */ (
  JSON.parse(readFileSync(path.join(here, 'artifacts', 'TestUSDT.json'), 'utf8'))
);
/** The TestUSDT ABI (ERC-20 plus `mint(address,uint256)`). */
export const TEST_USDT_ABI = artifact.abi;

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 5_000;
const LOG_TAIL_CHARS = 16_000;
const LISTENING_BANNER = 'Started HTTP and WebSocket JSON-RPC server at';

/**
 * The private key of account `index` of the Hardhat mnemonic (m/44'/60'/0'/0/index).
 * @param {number} index
 * @returns {import('viem').Hex}
 */
export function accountPrivateKey(index) {
  const key = mnemonicToAccount(HARDHAT_MNEMONIC, { addressIndex: index }).getHdKey().privateKey;
  if (!key) throw new Error(`no private key for account ${index}`);
  return toHex(key);
}

/**
 * An account-level extended public key (xpub) of the Hardhat mnemonic at m/44'/60'/account'. Account 0's
 * children 0/i are the Hardhat accounts; deposit addresses for a running dev server come from
 * account 1, so they never coincide with the funded accounts (hot wallet, faucet).
 * @param {number} [account]
 * @returns {string}
 */
export function accountExtendedPublicKey(account = 0) {
  return HDKey.fromMasterSeed(mnemonicToSeedSync(HARDHAT_MNEMONIC)).derive(`m/44'/60'/${account}'`).publicExtendedKey;
}

/** @type {Set<import('node:child_process').ChildProcess>} */
const liveNodes = new Set();
let exitHookInstalled = false;
function killOnExit(/** @type {import('node:child_process').ChildProcess} */ child) {
  liveNodes.add(child);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const node of liveNodes) node.kill('SIGKILL');
  });
}

/**
 * @param {string} host
 * @param {number} port 0 for any
 * @returns {Promise<number | null>} the port listened on, or null when it is taken
 */
function tryListen(host, port) {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', (/** @type {NodeJS.ErrnoException} */ error) =>
      error.code === 'EADDRINUSE' ? resolve(null) : reject(error),
    );
    server.listen(port, host, () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * @param {string} host
 * @returns {Promise<number>} a port that was free on `host` a moment ago
 */
async function freePort(host) {
  const port = await tryListen(host, 0);
  if (!port) throw new Error(`dev chain: no free port on ${host}`);
  return port;
}

/**
 * @param {string} host
 * @param {number} port
 */
async function isFree(host, port) {
  return (await tryListen(host, port)) !== null;
}

/**
 * @param {string} url
 * @param {number} timeoutMs
 */
async function answersBlockNumber(url, timeoutMs) {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = /** @type {{ result?: unknown }} */ (await response.json());
    return typeof body.result === 'string';
  } catch {
    return false;
  }
}

/**
 * @typedef {object} DevChainOptions
 * @property {number} [port] port for the node; a free one by default
 * @property {string} [host] interface to bind; 127.0.0.1 by default (all interfaces are refused)
 * @property {number} [blockTimeMs] mine a block every this many ms, automine off (default: automine)
 */

/**
 * @typedef {object} DevChain
 * @property {string} rpcUrl
 * @property {number} chainId
 * @property {import('viem').Address} tokenAddress TestUSDT
 * @property {import('viem').Address} deployer account 0 of the Hardhat mnemonic
 * @property {import('viem').PublicClient} publicClient viem client on rpcUrl (cacheTime 0)
 * @property {(to: import('viem').Address, amountUnits: bigint) => Promise<import('viem').Hash>} mint
 * @property {(fromPrivateKey: import('viem').Hex, to: import('viem').Address, amountUnits: bigint) => Promise<import('viem').Hash>} transfer
 * @property {(to: import('viem').Address, amountWei: bigint, fromPrivateKey?: import('viem').Hex) => Promise<import('viem').Hash>} sendNative
 * @property {(address: import('viem').Address) => Promise<bigint>} balanceOf
 * @property {(blocks?: number) => Promise<void>} mine
 * @property {() => Promise<bigint>} blockNumber
 * @property {() => Promise<import('viem').Hex>} snapshot
 * @property {(id: import('viem').Hex) => Promise<void>} revert
 * @property {(on: boolean) => Promise<void>} setAutomine
 * @property {() => void} pause
 * @property {() => void} resume
 * @property {() => Promise<void>} stop
 * @property {number | undefined} pid
 */

/**
 * Starts a Hardhat node (chain id 31337) on 127.0.0.1 and deploys TestUSDT from the committed artifact.
 * @param {DevChainOptions} [options]
 * @returns {Promise<DevChain>}
 */
export async function startDevChain({ port, host = '127.0.0.1', blockTimeMs } = {}) {
  if (host === '0.0.0.0' || host === '::' || host === '') throw new Error('the dev chain binds a single interface, never all');
  const listenPort = port ?? (await freePort(host));
  if (port !== undefined && !(await isFree(host, port))) throw new Error(`dev chain: ${host}:${port} is already in use`);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const rpcUrl = `http://${urlHost}:${listenPort}`;

  const cli = require.resolve('hardhat/internal/cli/cli.js');
  const child = spawn(
    process.execPath,
    [
      ...['--require', path.join(here, 'orphan-guard.cjs'), cli],
      ...['--config', path.join(here, 'hardhat.config.cjs'), 'node', '--hostname', host, '--port', String(listenPort)],
    ],
    {
      cwd: here,
      env: {
        ...process.env,
        HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true',
        DEVCHAIN_BLOCK_TIME_MS: blockTimeMs ? String(blockTimeMs) : '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  killOnExit(child);

  // Hardhat logs every RPC call on stdout: drain both streams (a full pipe would block the node) and
  // keep their tails for error messages.
  let logTail = '';
  // Readiness is this node's own banner, not just an answer on the port (which could come from
  // another process holding it).
  let listening = false;
  /** @param {Buffer} chunk */
  const keepTail = (chunk) => {
    logTail = (logTail + chunk.toString('utf8')).slice(-LOG_TAIL_CHARS);
    if (!listening && logTail.includes(LISTENING_BANNER)) listening = true;
  };
  child.stdout?.on('data', keepTail);
  child.stderr?.on('data', keepTail);

  /** @type {{ code: number | null, signal: NodeJS.Signals | null } | null} */
  let exited = null;
  const exitPromise = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      liveNodes.delete(child);
      resolve(undefined);
    });
  });
  /** @type {Error | null} */
  let spawnError = null;
  child.once('error', (error) => {
    spawnError = error;
  });

  let paused = false;
  const stop = async () => {
    if (exited) return;
    if (paused) child.kill('SIGCONT');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exitPromise;
    clearTimeout(timer);
  };

  const startedAt = Date.now();
  for (;;) {
    if (spawnError || exited) {
      const why = spawnError ? String(spawnError) : `exited (${JSON.stringify(exited)})`;
      throw new Error(`dev chain: the Hardhat node ${why} before answering on ${rpcUrl}:\n${logTail}`);
    }
    if (listening && (await answersBlockNumber(rpcUrl, 1_000))) break;
    if (Date.now() - startedAt > START_TIMEOUT_MS) {
      await stop();
      throw new Error(`dev chain: no answer to eth_blockNumber on ${rpcUrl} within ${START_TIMEOUT_MS} ms:\n${logTail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  try {
    const chain = defineChain({
      id: DEV_CHAIN_ID,
      name: 'Custos dev chain',
      nativeCurrency: { name: 'BNB (dev)', symbol: 'BNB', decimals: 18 },
      rpcUrls: { default: { http: [rpcUrl] } },
    });
    // cacheTime 0: viem otherwise reuses a block number for ~4 s, which hides blocks mined in tests.
    const clientOptions = { chain, transport: http(rpcUrl, { retryCount: 0 }), cacheTime: 0, pollingInterval: 50 };
    const publicClient = createPublicClient(clientOptions);
    const walletClient = createWalletClient(clientOptions);
    const testClient = createTestClient({ ...clientOptions, mode: 'hardhat' });
    const deployerAccount = mnemonicToAccount(HARDHAT_MNEMONIC, { addressIndex: 0 });

    // One transaction at a time: each send reads the pending nonce, so concurrent sends from one
    // account would collide.
    /** @type {Promise<unknown>} */
    let queue = Promise.resolve();
    /**
     * @param {() => Promise<import('viem').Hash>} send
     * @returns {Promise<import('viem').Hash>}
     */
    const enqueue = (send) => {
      const result = queue.then(async () => {
        const hash = await send();
        // With automine (or interval mining) the receipt comes; with both off it waits for mine().
        if (blockTimeMs || (await testClient.getAutomine())) {
          const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
          if (receipt.status !== 'success') throw new Error(`dev chain: transaction ${hash} reverted`);
        }
        return hash;
      });
      queue = result.catch(() => undefined);
      return result;
    };

    const deployHash = await enqueue(() =>
      walletClient.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, account: deployerAccount }),
    );
    const deployReceipt = await publicClient.waitForTransactionReceipt({ hash: deployHash, pollingInterval: 50 });
    if (!deployReceipt.contractAddress) throw new Error('dev chain: TestUSDT deployment has no contract address');
    const tokenAddress = getAddress(deployReceipt.contractAddress);

    /** @type {DevChain} */
    const devChain = {
      rpcUrl,
      chainId: DEV_CHAIN_ID,
      tokenAddress,
      deployer: deployerAccount.address,
      publicClient,
      pid: child.pid,
      mint: (to, amountUnits) =>
        enqueue(() =>
          walletClient.writeContract({
            address: tokenAddress,
            abi: artifact.abi,
            functionName: 'mint',
            args: [to, amountUnits],
            account: deployerAccount,
          }),
        ),
      transfer: (fromPrivateKey, to, amountUnits) =>
        enqueue(() =>
          walletClient.writeContract({
            address: tokenAddress,
            abi: artifact.abi,
            functionName: 'transfer',
            args: [to, amountUnits],
            account: privateKeyToAccount(fromPrivateKey),
          }),
        ),
      sendNative: (to, amountWei, fromPrivateKey) =>
        enqueue(() =>
          walletClient.sendTransaction({
            to,
            value: amountWei,
            account: fromPrivateKey ? privateKeyToAccount(fromPrivateKey) : deployerAccount,
          }),
        ),
      balanceOf: async (address) =>
        /** @type {bigint} */ (
          await publicClient.readContract({
            address: tokenAddress,
            abi: artifact.abi,
            functionName: 'balanceOf',
            args: [address],
          })
        ),
      mine: async (blocks = 1) => {
        await testClient.request({ method: 'hardhat_mine', params: [numberToHex(blocks)] });
      },
      blockNumber: () => publicClient.getBlockNumber({ cacheTime: 0 }),
      snapshot: () => testClient.snapshot(),
      revert: async (id) => {
        const reverted = await testClient.request({ method: 'evm_revert', params: [id] });
        if (reverted !== true) throw new Error(`dev chain: evm_revert(${id}) failed (each snapshot id reverts once)`);
      },
      setAutomine: (on) => testClient.setAutomine(on),
      pause: () => {
        if (exited || paused) return;
        child.kill('SIGSTOP');
        paused = true;
      },
      resume: () => {
        if (exited || !paused) return;
        child.kill('SIGCONT');
        paused = false;
      },
      stop,
    };
    return devChain;
  } catch (error) {
    await stop();
    throw error;
  }
}
