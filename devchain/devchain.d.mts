// Types of devchain.mjs for TypeScript callers (tests in server/test and devchain/).
import type { Abi, Address, Hash, Hex, PublicClient } from 'viem';

/** Hardhat's default mnemonic: its node funds the first 20 accounts of it with 10,000 ETH each. */
export declare const HARDHAT_MNEMONIC: 'test test test test test test test test test test test junk';
export declare const DEV_CHAIN_ID: 31337;
/** TestUSDT has 18 decimals, like USDT on BSC. */
export declare const USDT_DECIMALS: 18;
/** The TestUSDT ABI (ERC-20 plus `mint(address,uint256)`), from the committed artifact. */
export declare const TEST_USDT_ABI: Abi;

/** The private key of account `index` of the Hardhat mnemonic (m/44'/60'/0'/0/index). */
export declare function accountPrivateKey(index: number): Hex;
/** The account-level xpub of the Hardhat mnemonic at m/44'/60'/0'; its children 0/i are the Hardhat accounts. */
export declare function accountExtendedPublicKey(account?: number): string;

export interface DevChainOptions {
  /** Port for the node; a free one on the host by default. */
  port?: number;
  /** Interface to bind; 127.0.0.1 by default. 0.0.0.0 and :: are refused. */
  host?: string;
  /** Mine a block every this many milliseconds with automine off; automine (a block per transaction) by default. */
  blockTimeMs?: number;
}

export interface DevChain {
  rpcUrl: string;
  chainId: number;
  /** TestUSDT, deployed by `deployer`. */
  tokenAddress: Address;
  /** Account 0 of the Hardhat mnemonic. */
  deployer: Address;
  /** A viem client on rpcUrl with cacheTime 0. */
  publicClient: PublicClient;
  /** The node's process id. */
  pid: number | undefined;
  /**
   * Transactions are sent one at a time. Each resolves once the transaction is mined when automine or
   * interval mining is on (and rejects if it reverted); with both off, as soon as it is in the pool.
   */
  mint(to: Address, amountUnits: bigint): Promise<Hash>;
  /** A TestUSDT transfer signed by `fromPrivateKey` (which needs native coin for gas: see sendNative). */
  transfer(fromPrivateKey: Hex, to: Address, amountUnits: bigint): Promise<Hash>;
  /** Sends native coin (BNB on the real chain), from account 0 unless `fromPrivateKey` is given. */
  sendNative(to: Address, amountWei: bigint, fromPrivateKey?: Hex): Promise<Hash>;
  /** TestUSDT balance in units (18 decimals). */
  balanceOf(address: Address): Promise<bigint>;
  /** Mines `blocks` blocks at once (hardhat_mine). */
  mine(blocks?: number): Promise<void>;
  blockNumber(): Promise<bigint>;
  /** evm_snapshot; each id can be reverted to once. */
  snapshot(): Promise<Hex>;
  /** evm_revert; throws if the node refuses. */
  revert(id: Hex): Promise<void>;
  /** evm_setAutomine. */
  setAutomine(on: boolean): Promise<void>;
  /** SIGSTOP: the node keeps its port but answers nothing until resume(). */
  pause(): void;
  /** SIGCONT after pause(). */
  resume(): void;
  /** Ends the node and waits for it to exit; safe to call twice, also when paused. */
  stop(): Promise<void>;
}

/** Starts a Hardhat node (chain id 31337) and deploys TestUSDT; the node is killed when this process exits. */
export declare function startDevChain(options?: DevChainOptions): Promise<DevChain>;
