import { readFileSync } from 'node:fs';
import { HDKey } from '@scure/bip32';
import { createPublicClient, createWalletClient, getAddress, http, parseAbiItem, parseUnits } from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACT_PATH, compileTestUSDT } from './compile.mjs';
import {
  accountExtendedPublicKey,
  accountPrivateKey,
  HARDHAT_MNEMONIC,
  startDevChain,
  TEST_USDT_ABI,
  type DevChain,
} from './devchain.mjs';

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

describe('TestUSDT artifact', () => {
  it('is what the contract source compiles to', () => {
    const committed = JSON.parse(readFileSync(ARTIFACT_PATH, 'utf8')) as { bytecode: string; abi: unknown };
    const fresh = compileTestUSDT();
    expect(committed.bytecode, 'run `npm run devchain:compile` and commit the artifact').toBe(fresh.bytecode);
    expect(committed.abi).toEqual(fresh.abi);
  });
});

describe('accounts', () => {
  it('derives the well-known Hardhat accounts', () => {
    expect(HARDHAT_MNEMONIC).toBe('test test test test test test test test test test test junk');
    expect(privateKeyToAccount(accountPrivateKey(0)).address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(privateKeyToAccount(accountPrivateKey(1)).address).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    // The xpub is the account-level node: its child 0/i is account i.
    const xpub = accountExtendedPublicKey();
    expect(xpub).toMatch(/^xpub[1-9A-HJ-NP-Za-km-z]{107}$/);
    expect(HDKey.fromExtendedKey(xpub).derive('m/0/1').publicKey).toEqual(
      mnemonicToAccount(HARDHAT_MNEMONIC, { addressIndex: 1 }).getHdKey().publicKey,
    );
  });
});

describe('dev chain', () => {
  let chain: DevChain;
  const alice = privateKeyToAccount(accountPrivateKey(1));
  const bob = privateKeyToAccount(accountPrivateKey(2));
  const wallet = () => createWalletClient({ transport: http(chain.rpcUrl, { retryCount: 0 }), cacheTime: 0 });

  beforeAll(async () => {
    chain = await startDevChain();
  }, 90_000);

  afterAll(async () => {
    await chain?.stop();
  });

  it('serves chain 31337 on 127.0.0.1 with TestUSDT deployed', async () => {
    expect(chain.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(chain.chainId).toBe(31337);
    expect(chain.tokenAddress).toBe(getAddress(chain.tokenAddress));
    expect(await chain.publicClient.getChainId()).toBe(31337);
    const nodeAccounts = await wallet().getAddresses();
    expect(nodeAccounts.slice(0, 2)).toEqual([chain.deployer, alice.address]);
    const read = (functionName: 'name' | 'symbol' | 'decimals' | 'totalSupply') =>
      chain.publicClient.readContract({ address: chain.tokenAddress, abi: TEST_USDT_ABI, functionName });
    expect(await read('name')).toBe('Tether USD (dev)');
    expect(await read('symbol')).toBe('USDT');
    expect(await read('decimals')).toBe(18);
    expect(await read('totalSupply')).toBe(0n);
  });

  it('mints to an address, with a Transfer log from the zero address', async () => {
    const amount = parseUnits('125.5', 18);
    const hash = await chain.mint(alice.address, amount);
    expect(await chain.balanceOf(alice.address)).toBe(amount);

    const receipt = await chain.publicClient.getTransactionReceipt({ hash });
    const logs = await chain.publicClient.getLogs({
      address: chain.tokenAddress,
      event: transferEvent,
      args: { to: alice.address },
      fromBlock: receipt.blockNumber,
      toBlock: receipt.blockNumber,
    });
    expect(logs).toHaveLength(1);
    expect(logs[0]!.transactionHash).toBe(hash);
    expect(logs[0]!.args).toEqual({ from: '0x0000000000000000000000000000000000000000', to: alice.address, value: amount });
  });

  it('transfers, approves and transfers from like an ERC-20', async () => {
    const before = await chain.balanceOf(alice.address);
    await chain.transfer(accountPrivateKey(1), bob.address, 5n);
    expect(await chain.balanceOf(alice.address)).toBe(before - 5n);
    expect(await chain.balanceOf(bob.address)).toBe(5n);

    // Bob may take 3 from Alice, and no more.
    const send = async (account: typeof alice, functionName: 'approve' | 'transferFrom', args: readonly unknown[]) => {
      const hash = await wallet().writeContract({
        address: chain.tokenAddress,
        abi: TEST_USDT_ABI,
        functionName,
        args,
        account,
        chain: null,
      });
      return chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    };
    await send(alice, 'approve', [bob.address, 3n]);
    expect(
      await chain.publicClient.readContract({
        address: chain.tokenAddress,
        abi: TEST_USDT_ABI,
        functionName: 'allowance',
        args: [alice.address, bob.address],
      }),
    ).toBe(3n);
    await send(bob, 'transferFrom', [alice.address, bob.address, 3n]);
    expect(await chain.balanceOf(bob.address)).toBe(8n);
    await expect(send(bob, 'transferFrom', [alice.address, bob.address, 1n])).rejects.toThrow(/insufficient allowance/);
    await expect(chain.transfer(accountPrivateKey(2), alice.address, 9n)).rejects.toThrow(/exceeds balance/);
  });

  it('snapshots, mines and reverts', async () => {
    const start = await chain.blockNumber();
    const id = await chain.snapshot();
    await chain.mint(bob.address, 1n);
    await chain.mine(2);
    expect(await chain.blockNumber()).toBe(start + 3n);
    await chain.revert(id);
    expect(await chain.blockNumber()).toBe(start);
    expect(await chain.balanceOf(bob.address)).toBe(8n);
  });

  it('leaves transactions pending while automine is off', async () => {
    await chain.setAutomine(false);
    try {
      const start = await chain.blockNumber();
      const hash = await chain.mint(bob.address, 2n);
      expect(await chain.blockNumber()).toBe(start);
      expect(await chain.balanceOf(bob.address)).toBe(8n);
      await chain.mine();
      expect((await chain.publicClient.getTransactionReceipt({ hash })).blockNumber).toBe(start + 1n);
      expect(await chain.balanceOf(bob.address)).toBe(10n);
    } finally {
      await chain.setAutomine(true);
    }
  });

  it('stops answering while paused, and answers again once resumed', async () => {
    const impatient = createPublicClient({ transport: http(chain.rpcUrl, { timeout: 1_000, retryCount: 0 }), cacheTime: 0 });
    const height = await impatient.getBlockNumber();
    chain.pause();
    try {
      await expect(impatient.getBlockNumber()).rejects.toThrow(/took too long|timed out/i);
    } finally {
      chain.resume();
    }
    expect(await impatient.getBlockNumber()).toBe(height);
  });

  it('stops the node', async () => {
    const { rpcUrl } = chain;
    await chain.stop();
    await chain.stop();
    const gone = createPublicClient({ transport: http(rpcUrl, { timeout: 2_000, retryCount: 0 }) });
    // Refused at the HTTP layer (nothing listens), not a JSON-RPC or parsing error.
    await expect(gone.getBlockNumber()).rejects.toThrow(/^HTTP request failed/);
  });
});
