import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, createTestClient, createWalletClient, http, parseEther, type Address } from 'viem';
import { hardhat } from 'viem/chains';
import { startEvmNode, type EvmNode } from '../support/evm-node.ts';

/**
 * The local EVM node the chain tests run against (tests/support/evm-node.ts), through viem as the product's EVM
 * adapter will use it: exact wei amounts, confirmations as blocks are mined, and a re-organisation that takes a
 * mined transfer away again.
 */
describe('a local Hardhat node through viem', () => {
  let node: EvmNode;
  const clients = () => {
    const transport = http(node.url);
    return {
      reader: createPublicClient({ chain: hardhat, transport }),
      wallet: createWalletClient({ chain: hardhat, transport }),
      tester: createTestClient({ chain: hardhat, mode: 'hardhat', transport }),
    };
  };

  beforeAll(async () => {
    node = await startEvmNode();
  }, 120_000);
  afterAll(() => node?.stop());

  it('answers its chain id and has funded, unlocked accounts', async () => {
    const { reader, wallet } = clients();
    expect(await reader.getChainId()).toBe(node.chainId);
    const accounts = await wallet.getAddresses();
    expect(accounts.length).toBeGreaterThanOrEqual(2);
    expect(await reader.getBalance({ address: accounts[0] as Address })).toBeGreaterThan(parseEther('1000'));
  });

  it('moves an exact amount, counts confirmations as blocks come, and a revert to a snapshot takes it away', async () => {
    const { reader, wallet, tester } = clients();
    const [from] = (await wallet.getAddresses()) as [Address];
    const to = '0x00000000000000000000000000000000000d3e05' as Address;
    const before = await tester.snapshot();

    const hash = await wallet.sendTransaction({ account: from, to, value: parseEther('1.234567890123456789') });
    const receipt = await reader.waitForTransactionReceipt({ hash });
    expect(await reader.getBalance({ address: to })).toBe(1_234_567_890_123_456_789n);

    await tester.mine({ blocks: 11 });
    const confirmations = (await reader.getBlockNumber()) - receipt.blockNumber + 1n;
    expect(confirmations).toBe(12n);

    await tester.revert({ id: before });
    expect(await reader.getBalance({ address: to })).toBe(0n);
    await expect(reader.getTransactionReceipt({ hash })).rejects.toThrow();
    // The block that held it is gone, or another block now stands at its height: its hash no longer matches.
    const atHeight = await reader.getBlock({ blockNumber: receipt.blockNumber }).catch(() => undefined);
    expect(atHeight?.hash).not.toBe(receipt.blockHash);
  });
});
