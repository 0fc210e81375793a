import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, createTestClient, createWalletClient, formatEther, getAddress, http, parseEther, type Address, type Hash } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { hardhat } from 'viem/chains';
import { chainRepository } from '../../server/src/chain/chain.repository.ts';
import { formatReconcileReport, reconcileChains, type ChainHolding, type CoinReconciliation, type RecordedHolding } from '../../server/src/chain/reconcile.ts';
import { depositAddress, depositOnChain, mine, pendingWithdrawal, walletRows } from '../support/server-chain.ts';
import { coinByTicker, deposit, expectLedgerClean, insertUser } from '../support/server-money.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { ethereumEnvironment, startEvmNode, type EvmNode } from '../support/evm-node.ts';
import { runScript } from '../support/commands.ts';
import { deployUsdt, type UsdtToken } from '../support/evm-token.ts';

/**
 * `npm run chain:reconcile` (server/src/chain/reconcile.ts) against a real node (tests/support/evm-node.ts): what the
 * ledger owes traders per coin against what the chain holds, exact to the wei, with USDT on the simulated tron
 * network counted from what the product recorded there.
 */
const CONFIRMATIONS = 3;
/** A valid address nobody at Peerex owns (EIP-55's first test case): where withdrawals go. */
const OUTSIDE = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' as Address;

function nodeTools(url: string) {
  const transport = http(url);
  const wallet = createWalletClient({ chain: hardhat, transport });
  const tester = createTestClient({ chain: hardhat, mode: 'hardhat', transport });
  const reader = createPublicClient({ chain: hardhat, transport, pollingInterval: 100 });
  return {
    wallet,
    tester,
    reader,
    accounts: async () => (await wallet.getAddresses()) as [Address, Address, ...Address[]],
    // One evm_mine per block (tests/server/evm-chain.test.ts says why not hardhat_mine).
    mineBlocks: async (blocks: number) => {
      for (let block = 0; block < blocks; block += 1) await tester.request({ method: 'evm_mine', params: undefined });
    },
    setBalance: (address: string, wei: bigint) => tester.setBalance({ address: address as Address, value: wei }),
    /** The exact wei a mined transaction cost its sender in gas. */
    gasCost: async (hash: Hash) => {
      const receipt = await reader.waitForTransactionReceipt({ hash });
      return receipt.gasUsed * receipt.effectiveGasPrice;
    },
  };
}

const coin = (coins: CoinReconciliation[], ticker: string) => {
  const found = coins.find((candidate) => candidate.ticker === ticker);
  if (!found) throw new Error(`no ${ticker} in the report`);
  return found;
};
const onChain = (entry: CoinReconciliation, network: string) =>
  entry.holdings.find((holding): holding is ChainHolding => holding.source === 'chain' && holding.network === network);
const recorded = (entry: CoinReconciliation, network: string) =>
  entry.holdings.find((holding): holding is RecordedHolding => holding.source === 'recorded' && holding.network === network);

describe('chain:reconcile against a real node', () => {
  let node: EvmNode;
  let usdt: UsdtToken;
  let t: TestApp;
  let tools: ReturnType<typeof nodeTools>;
  /** Hardhat's second unlocked account plays the hot wallet, so the test can send from it. */
  let hot: Address;
  const cold = privateKeyToAccount(generatePrivateKey()).address;
  /** The trader with ETH and USDT on ethereum, and the one with USDT on tron (the simulated chain). */
  let alice: { id: string; address: Address };
  let bob: { id: string; tron: string };

  const reconcile = (networks = t.config.evmNetworks) => reconcileChains({ db: t.app.db, networks, hotWalletAddresses: { ethereum: hot } });

  beforeAll(async () => {
    node = await startEvmNode();
    tools = nodeTools(node.url);
    usdt = await deployUsdt(node.url);
    hot = (await tools.accounts())[1];
    // The hot wallet starts empty: its 10,000 test ether would hide every difference below.
    await tools.setBalance(hot, 0n);
    t = await createTestApp('pglite', {
      env: {
        EVM_NETWORKS: 'ethereum',
        EVM_ETHEREUM_CHAIN_ID: String(node.chainId),
        EVM_ETHEREUM_RPC_URL: node.url,
        EVM_ETHEREUM_CONFIRMATIONS: String(CONFIRMATIONS),
        EVM_ETHEREUM_START_BLOCK: '0',
        EVM_ETHEREUM_TOKENS: `USDT:${usdt.address}:6`,
        EVM_ETHEREUM_COLD_ADDRESSES: cold,
      },
    });
    const a = await insertUser(t.app.db);
    alice = { id: a.id, address: (await depositAddress(t, a.id, 'ethereum')) as Address };
    const b = await insertUser(t.app.db);
    bob = { id: b.id, tron: await depositAddress(t, b.id, 'tron') };
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await node?.stop();
  });

  it('balances exactly after ETH and USDT deposits the watcher credited, to the wei the ledger does not keep', async () => {
    const [payer] = await tools.accounts();
    // One wei more than the 8 places ETH is kept with: credited 1.5, held 1.500000000000000001.
    await tools.wallet.sendTransaction({ account: payer, to: alice.address, value: parseEther('1.5') + 1n });
    await usdt.mint(usdt.owner, 1_000_000_000n);
    await usdt.transfer(usdt.owner, alice.address, 250_500_000n);
    await tools.mineBlocks(CONFIRMATIONS);
    expect(await t.app.chain.sync()).toMatchObject({ seen: 2, credited: 2 });
    // USDT on tron travels on the simulated chain: no node holds it, the product's records do.
    await depositOnChain(t, 'tron', bob.tron, '100');
    await mine(t);
    expect((await walletRows(t, bob.id))[0]).toMatchObject({ network: 'tron', status: 'completed', amount_crypto: '100' });

    const report = await reconcile();
    expect(report.networks).toEqual([
      {
        network: 'ethereum',
        chainId: node.chainId,
        block: await tools.reader.getBlockNumber(),
        problem: undefined,
        // Alice's and Bob's: asking for a trader's addresses allocates one on every network.
        depositAddresses: 2,
        hotWalletAddress: getAddress(hot),
        coldAddresses: [cold],
      },
    ]);
    const eth = coin(report.coins, 'ETH');
    expect(eth).toMatchObject({
      places: 8,
      owed: { available: '1.5', escrow: '0', withdrawing: '0', total: '1.5' },
      settling: '0',
      due: '1.5',
      held: '1.500000000000000001',
      difference: '0.000000000000000001',
      short: false,
    });
    expect(eth.holdings).toEqual([
      { source: 'chain', network: 'ethereum', depositAddresses: '1.500000000000000001', hot: '0', cold: '0', total: '1.500000000000000001', settling: '0', settlingCount: 0 },
    ]);
    const usdtLine = coin(report.coins, 'USDT');
    expect(usdtLine).toMatchObject({ owed: { total: '350.5' }, due: '350.5', held: '350.5', difference: '0', short: false });
    expect(onChain(usdtLine, 'ethereum')).toMatchObject({ depositAddresses: '250.5', total: '250.5' });
    expect(recorded(usdtLine, 'tron')).toEqual({ source: 'recorded', network: 'tron', why: 'simulated', arrived: '100', sent: '0', total: '100' });
    // Coins no configured network carries are not this command's.
    expect(report.coins.map((entry) => entry.ticker)).toEqual(['ETH', 'USDT']);
    expect(report.ok).toBe(true);

    const text = formatReconcileReport(report);
    expect(text).toContain('held on chain 1.500000000000000001 = deposit addresses 1.500000000000000001 + hot 0 + cold 0');
    expect(text).toContain('difference               +0.000000000000000001  ok');
    expect(text).toContain('tron       recorded      100 = deposits credited 100 − withdrawals completed 0  (simulated chain');
    expect(text.split('\n').at(-1)).toBe('ok');
  });

  it('counts the hot wallet and the cold addresses, and a withdrawal completed on the simulated network as gone', async () => {
    // The operator moved coins off the deposit address (as a sweep would): to the hot wallet and a cold address.
    await tools.tester.impersonateAccount({ address: alice.address });
    const moveUsdt = async (to: Address, units: bigint) =>
      tools.reader.waitForTransactionReceipt({
        hash: await tools.wallet.writeContract({ address: usdt.address, abi: usdt.abi, functionName: 'transfer', args: [to, units], account: alice.address }),
      });
    await moveUsdt(hot, 100_000_000n);
    await moveUsdt(cold, 50_000_000n);
    await tools.tester.stopImpersonatingAccount({ address: alice.address });
    await tools.setBalance(alice.address, parseEther('0.5') + 1n);
    await tools.setBalance(hot, parseEther('0.75'));
    await tools.setBalance(cold, parseEther('0.25'));
    // Bob withdraws 40 USDT on tron (the recipient gets 39, the network fee is 1): it leaves the tron records.
    await pendingWithdrawal(t, { userId: bob.id, ticker: 'USDT', network: 'tron', address: 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH', amount: '40', fee: '1' });
    await mine(t);
    expect((await walletRows(t, bob.id)).at(-1)).toMatchObject({ trans_type: 'withdrawal', status: 'completed' });

    const report = await reconcile();
    const eth = coin(report.coins, 'ETH');
    expect(onChain(eth, 'ethereum')).toMatchObject({ depositAddresses: '0.500000000000000001', hot: '0.75', cold: '0.25', total: '1.500000000000000001' });
    expect(eth).toMatchObject({ due: '1.5', difference: '0.000000000000000001', short: false });
    const usdtLine = coin(report.coins, 'USDT');
    expect(onChain(usdtLine, 'ethereum')).toMatchObject({ depositAddresses: '100.5', hot: '100', cold: '50', total: '250.5' });
    expect(recorded(usdtLine, 'tron')).toMatchObject({ arrived: '100', sent: '40', total: '60' });
    expect(usdtLine).toMatchObject({ owed: { total: '310.5' }, held: '310.5', difference: '0', short: false });
    expect(report.ok).toBe(true);
    expect(formatReconcileReport(report)).toContain('held in all              310.5\n  difference               0  ok');
  });

  it('takes a withdrawal mined but not settled yet off what is due, and agrees once the watcher settles it', async () => {
    const id = await pendingWithdrawal(t, { userId: alice.id, ticker: 'ETH', network: 'ethereum', address: OUTSIDE, amount: '0.5', fee: '0.0008' });
    // The hot wallet pays amount − fee and the gas; the row learns its txid as the broadcast stores it.
    const txid = await tools.wallet.sendTransaction({ account: hot, to: OUTSIDE, value: parseEther('0.4992') });
    const gas = await tools.gasCost(txid);
    await t.app.db.query('UPDATE wallet_transactions SET txid = $2 WHERE id = $1', [id, txid]);
    const heldWei = parseEther('1.5') + 1n - parseEther('0.4992') - gas;
    // What the chain is left with beyond what is due: the wei the ledger does not keep, the fee, less the gas.
    const surplus = 1n + parseEther('0.0008') - gas;

    const before = coin((await reconcile()).coins, 'ETH');
    expect(before).toMatchObject({
      owed: { available: '1', withdrawing: '0.5', total: '1.5' },
      settling: '0.5',
      due: '1',
      held: formatEther(heldWei),
      difference: formatEther(surplus),
      short: false,
    });
    expect(onChain(before, 'ethereum')).toMatchObject({ settling: '0.5', settlingCount: 1 });

    expect(await t.app.chain.sync()).toMatchObject({ completed: 1 });
    const after = coin((await reconcile()).coins, 'ETH');
    expect(after).toMatchObject({ owed: { withdrawing: '0', total: '1' }, settling: '0', due: '1', held: formatEther(heldWei), difference: formatEther(surplus) });
    await expectLedgerClean(t.app.db);
  });

  it('reports a shortfall of one wei, and of a ledger balance the chain never received, and exits not ok', async () => {
    const eth = coin((await reconcile()).coins, 'ETH');
    const surplus = parseEther(eth.difference ?? '');
    // The hot wallet loses one wei more than the surplus.
    const hotWei = await tools.reader.getBalance({ address: hot });
    await tools.setBalance(hot, hotWei - surplus - 1n);
    const { id: usdtId } = await coinByTicker(t.app.db, 'USDT');
    const carol = await insertUser(t.app.db);
    await deposit(t.app.db, carol.id, usdtId, '5');

    const report = await reconcile();
    expect(coin(report.coins, 'ETH')).toMatchObject({ difference: '-0.000000000000000001', short: true });
    expect(coin(report.coins, 'USDT')).toMatchObject({ owed: { total: '315.5' }, held: '310.5', difference: '-5', short: true });
    expect(report.ok).toBe(false);
    const text = formatReconcileReport(report);
    expect(text).toContain('difference               -0.000000000000000001  SHORT');
    expect(text.split('\n').at(-1)).toBe('PROBLEMS: ETH short by 0.000000000000000001; USDT short by 5');
  });

  it('lists the open chain incidents, not the resolved ones', async () => {
    const incidents = chainRepository(t.app.db);
    const at = new Date('2026-03-01T10:00:00Z');
    await incidents.reportIncident({ network: 'ethereum', kind: 'credited_deposit_reorganised', subject: 'deposit:ethereum:0xabc:0', detail: 'gone', at });
    await incidents.reportIncident({ network: 'ethereum', kind: 'hot_wallet_short', subject: 'withdrawal:9', detail: 'done with', at });
    await t.app.db.query(`UPDATE chain_incidents SET resolved_at = now() WHERE subject = 'withdrawal:9'`);
    const report = await reconcile();
    expect(report.incidents).toMatchObject([{ network: 'ethereum', kind: 'credited_deposit_reorganised', subject: 'deposit:ethereum:0xabc:0', detail: 'gone' }]);
    expect(formatReconcileReport(report)).toContain('ethereum credited_deposit_reorganised deposit:ethereum:0xabc:0 (2026-03-01T10:00:00.000Z): gone');
  });

  it('refuses to reconcile against a node of another chain', async () => {
    const [ethereum] = t.config.evmNetworks;
    if (!ethereum) throw new Error('no ethereum configuration');
    const report = await reconcile([{ ...ethereum, chainId: 1 }]);
    expect(report.networks[0]?.problem).toMatchObject({ kind: 'wrong_chain' });
    expect(report.networks[0]?.problem?.message).toContain(`is chain ${node.chainId}, not EVM_ETHEREUM_CHAIN_ID 1`);
    expect(coin(report.coins, 'ETH')).toMatchObject({ unread: ['ethereum'], held: undefined, difference: undefined, short: true });
    expect(report.ok).toBe(false);
    expect(formatReconcileReport(report)).toContain('ethereum: WRONG CHAIN');
  });
});

/** The command itself, spawned as an operator runs it: on PostgreSQL (a PGlite folder is one process's at a time). */
const postgresOnly = dbTargets.includes('postgres') ? ['postgres' as const] : [];

describe.each(postgresOnly)('npm run chain:reconcile (%s)', (target) => {
  let node: EvmNode;
  let t: TestApp;
  const evmEnv = () => ethereumEnvironment(node, { CONFIRMATIONS: '1' });
  const run = (args: string[]) => runScript('chain-reconcile', args, { NODE_ENV: 'test', DATABASE_URL: t.config.databaseUrl ?? '', ...evmEnv() });

  beforeAll(async () => {
    node = await startEvmNode();
    t = await createTestApp(target, { env: evmEnv() });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await node?.stop();
  });

  it('exits 0 when every coin is covered and 1 when one is short, printing the difference', async () => {
    const tools = nodeTools(node.url);
    const user = await insertUser(t.app.db);
    const address = await depositAddress(t, user.id, 'ethereum');
    const [payer, hot] = await tools.accounts();
    await tools.setBalance(hot, parseEther('2'));
    await tools.wallet.sendTransaction({ account: payer, to: address as Address, value: parseEther('1') });
    await tools.mineBlocks(1);
    expect(await t.app.chain.sync()).toMatchObject({ credited: 1 });

    const balanced = await run(['--hot', hot]);
    expect(balanced.stderr).toBe('');
    expect(balanced.stdout).toContain('held on chain 3 = deposit addresses 1 + hot 2 + cold 0');
    expect(balanced.stdout).toContain('difference               +2  ok');
    expect(balanced.code).toBe(0);

    const { id: ethId } = await coinByTicker(t.app.db, 'ETH');
    await deposit(t.app.db, user.id, ethId, '2.5');
    const short = await run(['--hot', `ethereum=${hot}`]);
    expect(short.stdout).toContain('difference               -0.5  SHORT');
    expect(short.stdout.trim().split('\n').at(-1)).toBe('PROBLEMS: ETH short by 0.5');
    expect(short.code).toBe(1);

    const refused = await run(['--hot', 'polygon=0x0000000000000000000000000000000000000001']);
    expect(refused.stderr).toContain('polygon is not in EVM_NETWORKS');
    expect(refused.code).toBe(1);
  });
});
