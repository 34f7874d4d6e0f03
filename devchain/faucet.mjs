// `npm run devchain:faucet -- <address> <amount USDT> [--bnb <amount>] [--rpc URL] [--token ADDR]`
// (also `npm run demo:faucet`). Mints TestUSDT on the dev chain to an address (and with --bnb, sends
// native coin for gas from account 0). Defaults for --rpc and --token come from devchain/.env.devchain,
// written by `npm run devchain`; without it, the chain `npm start -- --demo` runs on 127.0.0.1:8545,
// whose TestUSDT address is always the same (account 0's first deployment).
// The mint is sent from a fresh key each time (its gas from account 2): the demo chain starts anew
// with every server start, and an identical transaction would have the hash of an earlier run's
// deposit, which the platform has already credited.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createPublicClient, createWalletClient, getContractAddress, http, isAddress, parseUnits } from 'viem';
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { HARDHAT_MNEMONIC, TEST_USDT_ABI, USDT_DECIMALS } from './devchain.mjs';

const usage =
  'usage: npm run devchain:faucet -- <address> <amount USDT> [--bnb <amount>] [--rpc URL] [--token ADDR]\n' +
  '       npm run devchain:faucet -- <address> --bnb <amount>';

/** @param {string} message */
function fail(message) {
  console.error(`${message}\n${usage}`);
  process.exit(2);
}

/** @returns {Record<string, string>} */
function readEnvFile() {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '.env.devchain');
  if (!existsSync(file)) return {};
  /** @type {Record<string, string>} */
  const env = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (match?.[1] && match[2] !== undefined) env[match[1]] = match[2];
  }
  return env;
}

/**
 * @param {string} text
 * @param {number} decimals
 * @param {string} what
 */
function amount(text, decimals, what) {
  if (!/^\d+(\.\d+)?$/.test(text)) fail(`${what} must be a positive decimal number, not "${text}"`);
  const [, fraction = ''] = text.split('.');
  if (fraction.length > decimals) fail(`${what} has more than ${decimals} decimals`);
  const units = parseUnits(text, decimals);
  if (units <= 0n) fail(`${what} must be more than zero`);
  return units;
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: { rpc: { type: 'string' }, token: { type: 'string' }, bnb: { type: 'string' } },
  });
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const { values, positionals } = /** @type {NonNullable<typeof parsed>} */ (parsed);
const [to, usdt, ...extra] = positionals;
if (!to || extra.length > 0 || (!usdt && !values.bnb)) fail('expected an address and an amount');
if (!isAddress(to)) fail(`not an address: ${to}`);

const fileEnv = readEnvFile();
const deployer = mnemonicToAccount(HARDHAT_MNEMONIC, { addressIndex: 0 });
const rpcUrl = values.rpc ?? fileEnv.BSC_RPC_URL ?? `http://127.0.0.1:${process.env.DEVCHAIN_PORT ?? 8545}`;
const token = values.token ?? fileEnv.BSC_USDT_CONTRACT ?? getContractAddress({ from: deployer.address, nonce: 0n });
if (token && !isAddress(token)) fail(`not a token address: ${token}`);

const usdtUnits = usdt ? amount(usdt, USDT_DECIMALS, 'the USDT amount') : 0n;
const bnbWei = values.bnb ? amount(values.bnb, 18, 'the --bnb amount') : 0n;

const transport = http(rpcUrl, { retryCount: 0 });
const publicClient = createPublicClient({ transport, cacheTime: 0 });
const walletClient = createWalletClient({ transport, cacheTime: 0 });
const account = deployer;
const chainId = await publicClient.getChainId().catch((error) => {
  fail(`no dev chain answers at ${rpcUrl} (${error instanceof Error ? error.message.split('\n')[0] : error})`);
});
/** @type {import('viem').Chain} */
const chain = {
  id: chainId,
  name: 'dev chain',
  nativeCurrency: { name: 'BNB (dev)', symbol: 'BNB', decimals: 18 },
  rpcUrls: { default: { http: [rpcUrl] } },
};

/** @param {import('viem').Hash} hash */
async function mined(hash) {
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 100, timeout: 60_000 });
  if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
  return receipt;
}

if (usdtUnits > 0n && token) {
  const minter = privateKeyToAccount(generatePrivateKey());
  const gasPayer = mnemonicToAccount(HARDHAT_MNEMONIC, { addressIndex: 2 });
  await mined(await walletClient.sendTransaction({ to: minter.address, value: 10n ** 16n, account: gasPayer, chain }));
  const hash = await walletClient.writeContract({
    address: /** @type {import('viem').Address} */ (token),
    abi: TEST_USDT_ABI,
    functionName: 'mint',
    args: [to, usdtUnits],
    account: minter,
    chain,
  });
  const receipt = await mined(hash);
  console.log(`minted ${usdt} USDT to ${to} in block ${receipt.blockNumber}: ${hash}`);
}
if (bnbWei > 0n) {
  const hash = await walletClient.sendTransaction({ to, value: bnbWei, account, chain });
  const receipt = await mined(hash);
  console.log(`sent ${values.bnb} BNB to ${to} in block ${receipt.blockNumber}: ${hash}`);
}
