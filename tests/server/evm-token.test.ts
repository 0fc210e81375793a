import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, createTestClient, createWalletClient, erc20Abi, formatUnits, getAddress, http, parseAbiItem, parseEventLogs, zeroAddress, type Address } from 'viem';
import { hardhat } from 'viem/chains';
import { startEvmNode, type EvmNode } from '../support/evm-node.ts';
import { deployUsdt, type UsdtToken } from '../support/evm-token.ts';

/**
 * The USDT-like token the EVM tests deposit and withdraw (tests/support/evm-token.ts), read through viem's standard
 * ERC-20 ABI as a product would read any token: USDT's metadata and 6 decimals, exact unit amounts, and Transfer
 * logs that say who paid whom how much.
 */
describe('a USDT-like ERC-20 on a local Hardhat node', () => {
  let node: EvmNode;
  let token: UsdtToken;
  let accounts: Address[];
  const clients = () => {
    const transport = http(node.url);
    return {
      reader: createPublicClient({ chain: hardhat, transport, pollingInterval: 100 }),
      wallet: createWalletClient({ chain: hardhat, transport }),
      tester: createTestClient({ chain: hardhat, mode: 'hardhat', transport }),
    };
  };

  beforeAll(async () => {
    node = await startEvmNode();
    token = await deployUsdt(node.url);
    accounts = await clients().wallet.getAddresses();
  }, 120_000);
  afterAll(() => node?.stop());

  it("has Tether USD's name, symbol and 6 decimals, deployed by the node's first account", async () => {
    const { reader } = clients();
    const read = <F extends 'name' | 'symbol' | 'decimals' | 'totalSupply'>(functionName: F) =>
      reader.readContract({ address: token.address, abi: erc20Abi, functionName });
    expect(await read('name')).toBe('Tether USD');
    expect(await read('symbol')).toBe('USDT');
    expect(await read('decimals')).toBe(6);
    expect(await read('totalSupply')).toBe(0n);
    expect(token.owner).toBe(accounts[0]);
  });

  it('mints and transfers exact units, each with a Transfer log naming from, to and value', async () => {
    const { reader } = clients();
    const [, holder] = accounts as [Address, Address];
    // Checksummed, as viem decodes addresses in logs.
    const recipient = getAddress('0x00000000000000000000000000000000000d3e05');

    const minted = await token.mint(holder, 5_000_000n);
    expect(parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: minted.logs }).map((log) => log.args)).toEqual([
      { from: zeroAddress, to: holder, value: 5_000_000n },
    ]);

    const sent = await token.transfer(holder, recipient, 1_234_567n);
    const logs = await reader.getLogs({
      address: token.address,
      event: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'),
      blockHash: sent.blockHash,
    });
    expect(logs.map((log) => [log.transactionHash, log.args])).toEqual([
      [sent.transactionHash, { from: holder, to: recipient, value: 1_234_567n }],
    ]);

    expect(await token.balanceOf(recipient)).toBe(1_234_567n);
    expect(formatUnits(await token.balanceOf(recipient), 6)).toBe('1.234567');
    expect(await token.balanceOf(holder)).toBe(3_765_433n);
  });

  it('refuses a mint from any account but the owner', async () => {
    const { wallet } = clients();
    const [, stranger] = accounts as [Address, Address];
    const before = await token.balanceOf(stranger);
    await expect(
      wallet.writeContract({ address: token.address, abi: token.abi, functionName: 'mint', args: [stranger, 1n], account: stranger }),
    ).rejects.toThrow(/OwnableUnauthorizedAccount/);
    expect(await token.balanceOf(stranger)).toBe(before);
  });

  it('with automining off, a submitted transfer moves nothing until a block is mined', async () => {
    const { reader, tester } = clients();
    const [, holder] = accounts as [Address, Address];
    const recipient = getAddress('0x00000000000000000000000000000000000d3e06');
    await tester.setAutomine(false);
    try {
      const hash = await token.submitTransfer(holder, recipient, 1n);
      expect(await token.balanceOf(recipient)).toBe(0n);
      await expect(reader.getTransactionReceipt({ hash })).rejects.toThrow();
      await tester.mine({ blocks: 1 });
      expect((await reader.waitForTransactionReceipt({ hash })).status).toBe('success');
      expect(await token.balanceOf(recipient)).toBe(1n);
    } finally {
      await tester.setAutomine(true);
    }
  });
});
