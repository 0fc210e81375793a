import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, createTestClient, createWalletClient, formatEther, http, parseEther, type Address, type Hash } from 'viem';
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { hardhat } from 'viem/chains';
import { EvmConfigError, parseEvmNetworks } from '../../server/src/chain/evm/config.ts';
import { NATIVE_TRANSFER_GAS, SweepRefused, formatSweepReport, isAccountKeyOf, sweepDepositAddresses, type SweepDeps, type SweepStep } from '../../server/src/chain/evm/sweep.ts';
import { reconcileChains } from '../../server/src/chain/reconcile.ts';
import { parseAccountKey } from '../../server/src/wallets/keys.ts';
import { depositAddress } from '../support/server-chain.ts';
import { expectLedgerClean, insertUser } from '../support/server-money.ts';
import { createTestApp, dbTargets, TEST_WALLET_XPUBS, type TestApp } from '../support/server.ts';
import { ethereumEnvironment, startEvmNode, type EvmNode } from '../support/evm-node.ts';
import { runScript } from '../support/commands.ts';
import { deployUsdt, type UsdtToken } from '../support/evm-token.ts';

/**
 * `npm run wallet:sweep` (server/src/chain/evm/sweep.ts) against a real node: the deposit addresses of the BIPs' test
 * mnemonic (the app runs on its WALLET_XPUB_ETHEREUM) are emptied into a cold address with keys derived from the
 * mnemonic, a token sweep's gas paid by a gas-station top-up the watcher does not take for a deposit.
 */
const MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const CONFIRMATIONS = 3;

describe('wallet:sweep against a real node', () => {
  let node: EvmNode;
  let usdt: UsdtToken;
  let t: TestApp;
  /**
   * A fixed cold address with no zero byte: a token transfer's gas depends on its calldata, where a zero byte of the
   * recipient costs 4 gas and any other 16 (TOKEN_TRANSFER_GAS is measured with this one).
   */
  const cold = privateKeyToAccount(`0x${'11'.repeat(32)}`).address;
  const gasStation = privateKeyToAccount(generatePrivateKey());
  let alice: { id: string; address: Address };
  let bob: { id: string; address: Address };

  const tools = () => {
    const transport = http(node.url);
    return {
      wallet: createWalletClient({ chain: hardhat, transport }),
      tester: createTestClient({ chain: hardhat, mode: 'hardhat', transport }),
      reader: createPublicClient({ chain: hardhat, transport, pollingInterval: 100 }),
    };
  };
  const mineBlocks = async (blocks: number) => {
    for (let block = 0; block < blocks; block += 1) await tools().tester.request({ method: 'evm_mine', params: undefined });
  };
  const ethOf = (address: Address) => tools().reader.getBalance({ address });
  const nonceOf = (address: Address) => tools().reader.getTransactionCount({ address });
  const depositRows = async () => (await t.app.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM wallet_transactions WHERE trans_type = 'deposit'`)).n;
  const sweep = async (overrides: Partial<SweepDeps> = {}) => {
    const [config] = t.config.evmNetworks;
    if (!config) throw new Error('no EVM network configured');
    return sweepDepositAddresses({
      config,
      depositAddresses: await t.app.db.query('SELECT derivation_index, address FROM deposit_addresses WHERE network = $1 ORDER BY derivation_index', ['ethereum']),
      mnemonic: MNEMONIC,
      to: cold,
      gasStation,
      pollingIntervalMs: 50,
      ...overrides,
    });
  };
  const only = (steps: SweepStep[], kind: SweepStep['kind'], address: Address) => {
    const found = steps.filter((step) => step.kind === kind && step.address === address);
    expect(found).toHaveLength(1);
    return found[0] as SweepStep & { txid: Hash; gasUsed: bigint; gasCost: bigint };
  };

  beforeAll(async () => {
    node = await startEvmNode();
    usdt = await deployUsdt(node.url);
    await tools().tester.setBalance({ address: gasStation.address, value: parseEther('1') });
    t = await createTestApp('pglite', {
      env: {
        ...TEST_WALLET_XPUBS,
        EVM_NETWORKS: 'ethereum',
        EVM_ETHEREUM_CHAIN_ID: String(node.chainId),
        EVM_ETHEREUM_RPC_URL: node.url,
        EVM_ETHEREUM_CONFIRMATIONS: String(CONFIRMATIONS),
        EVM_ETHEREUM_START_BLOCK: '0',
        EVM_ETHEREUM_TOKENS: `USDT:${usdt.address}:6`,
        EVM_ETHEREUM_COLD_ADDRESSES: cold,
        EVM_ETHEREUM_GAS_STATION_ADDRESS: gasStation.address,
      },
    });
    const a = await insertUser(t.app.db);
    alice = { id: a.id, address: (await depositAddress(t, a.id, 'ethereum')) as Address };
    const b = await insertUser(t.app.db);
    bob = { id: b.id, address: (await depositAddress(t, b.id, 'ethereum')) as Address };

    // Alice deposits ETH, Bob USDT (and no ETH to pay its gas with): credited through the product's watcher.
    const [payer] = (await tools().wallet.getAddresses()) as [Address];
    await tools().wallet.sendTransaction({ account: payer, to: alice.address, value: parseEther('1.5') });
    await usdt.mint(usdt.owner, 1_000_000_000n);
    await usdt.transfer(usdt.owner, bob.address, 250_500_000n);
    await mineBlocks(CONFIRMATIONS);
    const credited = await t.app.chain.sync();
    if (credited.credited !== 2) throw new Error(`expected both deposits credited, got ${JSON.stringify(credited)}`);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await node?.stop();
  });

  it('derives the deposit addresses the server handed out from the mnemonic of WALLET_XPUB_ETHEREUM', () => {
    // viem's own derivation (m/44'/60'/0'/0/index), independent of the server's.
    expect(alice.address).toBe(mnemonicToAccount(MNEMONIC, { addressIndex: 0 }).address);
    expect(bob.address).toBe(mnemonicToAccount(MNEMONIC, { addressIndex: 1 }).address);
    expect(isAccountKeyOf(MNEMONIC, 'ethereum', parseAccountKey('ethereum', TEST_WALLET_XPUBS.WALLET_XPUB_ETHEREUM ?? ''))).toBe(true);
    expect(isAccountKeyOf('legal winner thank year wave sausage worth useful legal winner thank yellow', 'ethereum', parseAccountKey('ethereum', TEST_WALLET_XPUBS.WALLET_XPUB_ETHEREUM ?? ''))).toBe(
      false,
    );
  });

  it('reads the gas station from EVM_<NETWORK>_GAS_STATION_ADDRESS, refused by name when it is no address', () => {
    expect(t.config.evmNetworks[0]?.gasStation).toBe(gasStation.address);
    const base = { EVM_NETWORKS: 'ethereum', EVM_ETHEREUM_CHAIN_ID: '1', EVM_ETHEREUM_RPC_URL: 'http://127.0.0.1:8545' };
    expect(parseEvmNetworks(base)[0]?.gasStation).toBeUndefined();
    expect(() => parseEvmNetworks({ ...base, EVM_ETHEREUM_GAS_STATION_ADDRESS: '0x1234' })).toThrow(EvmConfigError);
    expect(() => parseEvmNetworks({ ...base, EVM_ETHEREUM_GAS_STATION_ADDRESS: '0x1234' })).toThrow(/EVM_ETHEREUM_GAS_STATION_ADDRESS: must be a 0x address/);
  });

  it('plans in a dry run and sends nothing', async () => {
    const report = await sweep({ dryRun: true });
    expect(report.steps.map((step) => [step.kind, step.address, step.ticker])).toEqual([
      ['native', alice.address, 'ETH'],
      ['gas_top_up', bob.address, 'ETH'],
      ['token', bob.address, 'USDT'],
    ]);
    const native = only(report.steps, 'native', alice.address);
    expect(native.gasLimit).toBe(NATIVE_TRANSFER_GAS);
    expect(parseEther(native.amount)).toBe(parseEther('1.5') - NATIVE_TRANSFER_GAS * native.maxFeePerGas);
    const topUp = only(report.steps, 'gas_top_up', bob.address);
    const token = only(report.steps, 'token', bob.address);
    expect(token.amount).toBe('250.5');
    expect(parseEther(topUp.amount)).toBe(token.gasLimit * token.maxFeePerGas);
    expect(report.steps.every((step) => step.txid === undefined)).toBe(true);
    expect(formatSweepReport(report)).toContain('(dry run: nothing sent)');

    expect(await ethOf(alice.address)).toBe(parseEther('1.5'));
    expect(await usdt.balanceOf(bob.address)).toBe(250_500_000n);
    expect(await nonceOf(gasStation.address)).toBe(0);
  });

  it('refuses another mnemonic, a target that is a deposit address or not listed, and a gas key the server does not know', async () => {
    const refusal = (overrides: Partial<SweepDeps>) => sweep(overrides).then(() => 'swept', (error: Error) => (error instanceof SweepRefused ? error.message : `threw ${error.message}`));
    expect(await refusal({ mnemonic: 'legal winner thank year wave sausage worth useful legal winner thank yellow' })).toMatch(
      new RegExp(`^the mnemonic derives 0x[0-9a-fA-F]{40} at index 0, but the database's deposit address there is ${alice.address}`),
    );
    expect(await refusal({ to: bob.address })).toBe(`${bob.address} is a trader's deposit address: sweep to the hot wallet or a cold address`);
    const elsewhere = privateKeyToAccount(generatePrivateKey()).address;
    expect(await refusal({ to: elsewhere })).toContain(`${elsewhere} is neither in EVM_ETHEREUM_COLD_ADDRESSES nor the hot wallet`);
    const stranger = privateKeyToAccount(generatePrivateKey());
    expect(await refusal({ gasStation: stranger })).toContain(`the gas key is ${stranger.address}, but EVM_ETHEREUM_GAS_STATION_ADDRESS is ${gasStation.address}`);
    expect(await ethOf(alice.address)).toBe(parseEther('1.5'));
    expect(await usdt.balanceOf(bob.address)).toBe(250_500_000n);
  });

  it('moves every unit to the cold address: ETH less its gas exactly, USDT whole after a gas top-up', async () => {
    const rowsBefore = await depositRows();
    const report = await sweep();
    expect(report.failures).toEqual([]);

    // ETH: the balance less 21,000 gas at the fee cap goes; what the block charged below the cap stays behind.
    const native = only(report.steps, 'native', alice.address);
    expect(native.gasUsed).toBe(NATIVE_TRANSFER_GAS);
    const sent = parseEther('1.5') - NATIVE_TRANSFER_GAS * native.maxFeePerGas;
    expect(parseEther(native.amount)).toBe(sent);
    expect(await ethOf(cold)).toBe(sent);
    expect(await ethOf(alice.address)).toBe(parseEther('1.5') - sent - native.gasCost);

    // USDT: the gas station sends exactly the transfer's gas at the cap, then every unit moves.
    const topUp = only(report.steps, 'gas_top_up', bob.address);
    const token = only(report.steps, 'token', bob.address);
    expect(topUp.gasUsed).toBe(NATIVE_TRANSFER_GAS);
    expect(parseEther(topUp.amount)).toBe(token.gasLimit * token.maxFeePerGas);
    expect((await tools().reader.getTransaction({ hash: topUp.txid })).from.toLowerCase()).toBe(gasStation.address.toLowerCase());
    expect(await usdt.balanceOf(cold)).toBe(250_500_000n);
    expect(await usdt.balanceOf(bob.address)).toBe(0n);
    expect(await ethOf(bob.address)).toBe(parseEther(topUp.amount) - token.gasCost);
    // Measured for docs/chains.md "Sweeping": OpenZeppelin 5's ERC20 `transfer` that empties the sender into an
    // account that held none (tests/support/usdt.sol, solc 0.8.26 optimised).
    expect(token.gasUsed).toBe(TOKEN_TRANSFER_GAS);
    // What Bob has left is less than the gas to move it: left, and said so.
    expect(report.skipped).toMatchObject([{ address: bob.address, ticker: 'ETH', reason: expect.stringContaining('worth less than the gas to move it') }]);

    // The top-up came from the gas station, which the watcher knows: no deposit is recorded for it.
    await mineBlocks(CONFIRMATIONS);
    expect(await t.app.chain.sync()).toMatchObject({ seen: 0, credited: 0 });
    expect(await depositRows()).toBe(rowsBefore);
    await expectLedgerClean(t.app.db);

    // chain:reconcile agrees to the wei: the cold address holds what was swept, and the ETH side is short by exactly
    // the gas the deposit addresses paid, less what the gas station put in.
    const reconciled = await reconcileChains({ db: t.app.db, networks: t.config.evmNetworks });
    const eth = reconciled.coins.find((coin) => coin.ticker === 'ETH');
    const usdtLine = reconciled.coins.find((coin) => coin.ticker === 'USDT');
    expect(eth?.difference).toBe(formatEther(parseEther(topUp.amount) - token.gasCost - native.gasCost));
    expect(usdtLine).toMatchObject({ held: '250.5', difference: '0', short: false });
    expect(usdtLine?.holdings[0]).toMatchObject({ depositAddresses: '0', cold: '250.5' });
  });

  it('finds nothing worth sweeping when run again', async () => {
    const nonce = await nonceOf(gasStation.address);
    const report = await sweep();
    expect(report.steps).toEqual([]);
    expect(report.failures).toEqual([]);
    expect(report.skipped.map((skip) => [skip.address, skip.ticker])).toEqual([
      [alice.address, 'ETH'],
      [bob.address, 'ETH'],
    ]);
    expect(await nonceOf(gasStation.address)).toBe(nonce);
    expect(formatSweepReport(report)).toContain('nothing to sweep');
  });
});

/**
 * Gas used by the test token's `transfer` that empties the sender into an account holding none, to a recipient
 * without a zero byte (measured here).
 */
const TOKEN_TRANSFER_GAS = 46_768n;

/** The command itself, spawned as an operator runs it: on PostgreSQL (a PGlite folder is one process's at a time). */
const postgresOnly = dbTargets.includes('postgres') ? ['postgres' as const] : [];

describe.each(postgresOnly)('npm run wallet:sweep (%s)', (target) => {
  let node: EvmNode;
  let t: TestApp;
  let folder: string;
  const cold = privateKeyToAccount(generatePrivateKey()).address;
  const evmEnv = () => ethereumEnvironment(node, { CONFIRMATIONS: '1', COLD_ADDRESSES: cold });
  const run = (args: string[], mnemonicFile: string) =>
    runScript('wallet-sweep', args, { DATABASE_URL: t.config.databaseUrl ?? '', WALLET_MNEMONIC_FILE: mnemonicFile, ...TEST_WALLET_XPUBS, ...evmEnv() });

  beforeAll(async () => {
    node = await startEvmNode();
    t = await createTestApp(target, { env: { ...TEST_WALLET_XPUBS, ...evmEnv() } });
    folder = mkdtempSync(join(tmpdir(), 'peerex-sweep-'));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await node?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('plans from the database and the mnemonic file in a dry run, and refuses a mnemonic file others can read', async () => {
    const user = await insertUser(t.app.db);
    const address = (await depositAddress(t, user.id, 'ethereum')) as Address;
    const transport = http(node.url);
    const wallet = createWalletClient({ chain: hardhat, transport });
    const [payer] = (await wallet.getAddresses()) as [Address];
    await wallet.sendTransaction({ account: payer, to: address, value: parseEther('2') });
    const mnemonicFile = join(folder, 'mnemonic.txt');
    writeFileSync(mnemonicFile, `${MNEMONIC}\n`, { mode: 0o600 });

    const planned = await run(['--network', 'ethereum', '--to', cold, '--dry-run'], mnemonicFile);
    expect(planned.stderr).toBe('');
    expect(planned.stdout).toContain(`wallet:sweep ethereum to ${cold} (dry run: nothing sent)`);
    expect(planned.stdout).toMatch(new RegExp(`native +1\\.99\\d+ ETH  ${address} \\(index 0\\) → ${cold}  gas limit 21000`));
    expect(planned.code).toBe(0);
    expect(await createPublicClient({ chain: hardhat, transport }).getBalance({ address })).toBe(parseEther('2'));

    chmodSync(mnemonicFile, 0o644);
    const refused = await run(['--network', 'ethereum', '--to', cold, '--dry-run'], mnemonicFile);
    expect(refused.stderr).toBe(`wallet:sweep: the mnemonic file ${mnemonicFile} is open to group or others (mode 644): chmod 600 it\n`);
    expect(refused.code).toBe(1);
  });
});
