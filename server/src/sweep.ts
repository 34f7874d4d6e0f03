// `npm run sweep -- --to 0xCollection [--min 10] [--account 0] [--dry-run]`: moves USDT from members'
// BEP20 deposit addresses to the collection wallet (docs/decisions/009-chain-deposits.md). The
// deposit keys' mnemonic is asked for at run time (or read from SWEEP_MNEMONIC) and never stored;
// gas comes from SWEEP_GAS_KEY, a wallet of its own (never the payout hot wallet, whose nonces payouts use).
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { privateKeyToAddress } from 'viem/accounts';
import { money, isEvmAddress } from '@custos/contract';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { ChainRepository } from './modules/chain/chain.repository.js';
import { sweepBep20, SweepError } from './modules/chain/sweep.js';

async function askHidden(question: string): Promise<string> {
  if (!process.stdin.isTTY) {
    // Piped in (e.g. from a secrets manager): read the first line.
    const lines = createInterface({ input: process.stdin });
    for await (const line of lines) return line;
    return '';
  }
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (!muted) process.stderr.write(chunk);
      callback();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  const answer = new Promise<string>((resolve) => rl.question(question, resolve));
  muted = true;
  const value = await answer;
  rl.close();
  process.stderr.write('\n');
  return value;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      to: { type: 'string' },
      min: { type: 'string', default: '10' },
      account: { type: 'string', default: '0' },
      'dry-run': { type: 'boolean', default: false },
    },
  });
  const config = loadConfig(process.env);
  const bsc = config.chains.bsc;
  if (!bsc) throw new SweepError('BSC is not configured (BSC_RPC_URL, BSC_USDT_CONTRACT, BSC_DEPOSIT_XPUB)');
  if (!values.to || !isEvmAddress(values.to)) throw new SweepError('--to must be the collection wallet address (0x…)');
  const gasKey = process.env.SWEEP_GAS_KEY as `0x${string}` | undefined;
  if (!gasKey) throw new SweepError('set SWEEP_GAS_KEY to the key of the wallet that pays gas (not the payout hot wallet)');
  const mnemonic = process.env.SWEEP_MNEMONIC ?? (await askHidden('Deposit keys mnemonic (not shown): '));
  const database = await openDatabase(config.database);
  try {
    await database.migrate();
    const results = await sweepBep20(new ChainRepository(database.db), {
      rpcUrl: bsc.rpcUrl,
      tokenAddress: bsc.tokenAddress,
      mnemonic,
      account: Number(values.account),
      collectionAddress: values.to as `0x${string}`,
      minimum: money.parseMoney(values.min),
      gasKey,
      hotWalletAddress: bsc.hotWalletKey ? privateKeyToAddress(bsc.hotWalletKey) : null,
      dryRun: values['dry-run'],
      log: (line) => process.stdout.write(`${line}\n`),
    });
    const sent = results.filter((result) => result.status === 'sent');
    const failed = results.filter((result) => result.status === 'failed');
    const total = money.sum(sent.map((result) => money.parseMoney(result.amount)));
    process.stdout.write(
      values['dry-run']
        ? `sweep (dry run): ${results.length} address(es) would be swept\n`
        : `sweep: ${sent.length} sent (${money.formatMoney(total)} USDT), ${failed.length} failed\n`,
    );
    return failed.length > 0 ? 1 : 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`sweep: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
