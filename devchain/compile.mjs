// Compiles contracts/TestUSDT.sol with solc-js (no download) and writes artifacts/TestUSDT.json as
// { contractName, abi, bytecode }. The artifact is committed, so tests and the dev chain never compile.
// `npm run devchain:compile` after changing the contract.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

const here = path.dirname(fileURLToPath(import.meta.url));
export const CONTRACT_NAME = 'TestUSDT';
export const ARTIFACT_PATH = path.join(here, 'artifacts', `${CONTRACT_NAME}.json`);

/**
 * Compiles TestUSDT from source.
 * @returns {{ contractName: string, abi: unknown[], bytecode: `0x${string}` }}
 */
export function compileTestUSDT() {
  const sourceName = `${CONTRACT_NAME}.sol`;
  const input = {
    language: 'Solidity',
    sources: { [sourceName]: { content: readFileSync(path.join(here, 'contracts', sourceName), 'utf8') } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      // Hardhat 2's default hardfork runs "paris" bytecode (no PUSH0 needed).
      evmVersion: 'paris',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const warnings = (output.errors ?? []).filter((e) => e.severity !== 'error');
  if (warnings.length > 0) throw new Error(`solc warnings (fix them):\n${warnings.map((e) => e.formattedMessage).join('\n')}`);
  const contract = output.contracts[sourceName][CONTRACT_NAME];
  return { contractName: CONTRACT_NAME, abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const startedAt = Date.now();
  const artifact = compileTestUSDT();
  mkdirSync(path.dirname(ARTIFACT_PATH), { recursive: true });
  writeFileSync(ARTIFACT_PATH, `${JSON.stringify(artifact, null, 2)}\n`);
  console.log(
    `solc ${solc.version()}: wrote ${path.relative(process.cwd(), ARTIFACT_PATH)} ` +
      `(${(artifact.bytecode.length - 2) / 2} bytes) in ${Date.now() - startedAt} ms`,
  );
}
