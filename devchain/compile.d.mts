// Types of compile.mjs for TypeScript callers (the artifact test).
import type { Abi, Hex } from 'viem';

export declare const CONTRACT_NAME: 'TestUSDT';
export declare const ARTIFACT_PATH: string;
/** Compiles contracts/TestUSDT.sol with solc-js; throws on any error or warning. */
export declare function compileTestUSDT(): { contractName: string; abi: Abi; bytecode: Hex };
