// `npm run devchain`: a local Hardhat node on 127.0.0.1:8545 (DEVCHAIN_PORT) with TestUSDT deployed.
// Prints the environment a server needs for BSC USDT, writes it to devchain/.env.devchain (read by
// `npm run devchain:faucet`), and runs until Ctrl-C. Everything here is public test material: the
// keys are Hardhat's well-known ones, never to be used on a real network.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { accountExtendedPublicKey, accountPrivateKey, startDevChain } from './devchain.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const envFile = path.join(here, '.env.devchain');

const port = Number(process.env.DEVCHAIN_PORT ?? 8545);
if (!Number.isInteger(port) || port <= 0 || port > 65535) {
  console.error(`DEVCHAIN_PORT must be a port number, not ${process.env.DEVCHAIN_PORT}`);
  process.exit(2);
}

const startedAt = Date.now();
const chain = await startDevChain({ port });
const env = [
  `BSC_RPC_URL=${chain.rpcUrl}`,
  `BSC_USDT_CONTRACT=${chain.tokenAddress}`,
  `BSC_CHAIN_ID=${chain.chainId}`,
  `BSC_HOT_WALLET_KEY=${accountPrivateKey(0)}`,
  `BSC_DEPOSIT_XPUB=${accountExtendedPublicKey(1)}`,
];
writeFileSync(envFile, `${env.join('\n')}\n`);

console.log(`Dev chain (Hardhat, chain id ${chain.chainId}) ready in ${Date.now() - startedAt} ms at ${chain.rpcUrl}`);
console.log(`TestUSDT (18 decimals) at ${chain.tokenAddress}, deployed by ${chain.deployer}`);
console.log(`\n${env.join('\n')}\n`);
console.log(`Written to ${path.relative(process.cwd(), envFile)}. Test USDT: npm run devchain:faucet -- <address> <amount>`);
console.log('Ctrl-C to stop.');

let stopping = false;
const shutdown = () => {
  if (stopping) return;
  stopping = true;
  chain.stop().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
// Keep running; the node's pipes keep the event loop alive, this makes it explicit.
setInterval(() => {}, 1 << 30);
