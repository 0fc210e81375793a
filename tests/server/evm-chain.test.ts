import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, createTestClient, createWalletClient, http, parseEther, parseUnits, type Address, type Hash } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { hardhat } from 'viem/chains';
import type { WalletAddressEntry } from '../../contracts/wallet.ts';
import { depositAddress, held, walletRows } from '../support/server-chain.ts';
import { expectLedgerClean, insertUser } from '../support/server-money.ts';
import { createTestApp, dbTargets, TEST_WALLET_XPUBS, type TestApp } from '../support/server.ts';
import { TEST_VAPID_KEYS } from '../support/push.ts';
import { trader } from '../support/server-trades.ts';
import { ethereumEnvironment, HARDHAT_CHAIN_ID, hotWalletKeyFile, startEvmNode, type EvmNode } from '../support/evm-node.ts';
import { deployUsdt, type UsdtToken } from '../support/evm-token.ts';
import { CURSOR_HASHES } from '../../server/src/chain/evm/incoming.ts';
import { CHAIN_PROGRESS_FRESH_MS } from '../../server/src/chain/chain.plugin.ts';

/**
 * Ethereum through a real node (tests/support/evm-node.ts, Hardhat Network on 127.0.0.1): deposits read from
 * its blocks by the product's own watcher, credited at the configured confirmations, dropped when a
 * re-organisation takes their block away first, and reported to the operator when it takes a credited one.
 */
const CONFIRMATIONS = 12;

describe('deposits on an EVM network through a real node', () => {
  let node: EvmNode;
  let t: TestApp;
  let usdt: UsdtToken;
  let hotKey: ReturnType<typeof hotWalletKeyFile>;
  /** The hot wallet the server pays withdrawals from: a key file of the test's, funded from the node's first account. */
  let hot: Address;
  const reader = () => createPublicClient({ chain: hardhat, transport: http(node.url), cacheTime: 0 });
  const clients = () => {
    const transport = http(node.url);
    return { wallet: createWalletClient({ chain: hardhat, transport }), tester: createTestClient({ chain: hardhat, mode: 'hardhat', transport }) };
  };
  /** Hardhat's first funded, unlocked account: someone outside paying a trader. */
  const payer = async () => ((await clients().wallet.getAddresses()) as [Address])[0];
  const send = async (to: string, ether: string): Promise<Hash> => clients().wallet.sendTransaction({ account: await payer(), to: to as Address, value: parseEther(ether) });
  // One evm_mine per block: hardhat_mine (viem's `mine`) only reserves a run of blocks and makes each when it is
  // first read, and blocks read at once (the watcher's batch) then do not join up by their parent hashes.
  const mineBlocks = async (blocks: number) => {
    for (let block = 0; block < blocks; block += 1) await clients().tester.request({ method: 'evm_mine', params: undefined });
  };

  /** A trader and their Ethereum deposit address, as the wallet page asks for it. */
  async function traderWithAddress() {
    const who = await trader(t);
    const answer = await t.post<WalletAddressEntry[]>('/api/user/wallet/', { type: 'addresses' }, { token: who.token });
    const address = answer.body.info.find((entry) => entry.coin.ticker === 'ETH')?.networks.find((network) => network.key === 'ethereum')?.address;
    if (!address) throw new Error('no ethereum deposit address');
    // The wallet page says how many confirmations each network waits for: the node's network its own count.
    const networks = answer.body.info.flatMap((entry) => entry.networks);
    expect(new Set(networks.filter((network) => network.key === 'ethereum').map((network) => network.confirmations))).toEqual(new Set([CONFIRMATIONS]));
    expect(networks.find((network) => network.key === 'bitcoin')?.confirmations).toBe(1);
    return { ...who, address };
  }

  beforeAll(async () => {
    node = await startEvmNode();
    usdt = await deployUsdt(node.url);
    hotKey = hotWalletKeyFile();
    hot = hotKey.address;
    t = await createTestApp('pglite', {
      env: ethereumEnvironment(node, { CONFIRMATIONS: String(CONFIRMATIONS), TOKENS: `USDT:${usdt.address}:6`, HOT_WALLET_KEY_FILE: hotKey.path }),
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await node?.stop();
    hotKey?.remove();
  });

  /** A withdrawal as the trader's wallet page asks for it: preview, then confirm. */
  async function withdraw(token: string, ticker: string, amount: string, recipient: string) {
    const wallet = (body: Record<string, unknown>) => t.post('/api/user/wallet/', body, { token });
    const preview = await wallet({ type: 'preview_withdrawal', amount, mode: 'crypto', recipient, ticker, network: 'ethereum' });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const confirmed = await wallet({ type: 'confirm_withdrawal' });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  }
  const withdrawalOf = async (userId: string) => (await walletRows(t, userId)).find((row) => row.trans_type === 'withdrawal');

  it('records an ETH deposit at once and credits it exactly at the configured confirmations', async () => {
    const who = await traderWithAddress();
    const txid = await send(who.address, '1.5');
    expect(await t.app.chain.sync()).toMatchObject({ seen: 1, credited: 0 });
    const [pending] = await walletRows(t, who.id);
    expect(pending).toMatchObject({ ticker: 'ETH', network: 'ethereum', status: 'pending', amount_crypto: '1.5', txid, vout: 0, address: who.address });

    // Its own block is the first confirmation: after 10 more it has 11, one short.
    await mineBlocks(CONFIRMATIONS - 2);
    expect(await t.app.chain.sync()).toMatchObject({ credited: 0 });
    expect(await held(t, 'ETH', 'available', who.id)).toBe('0');

    await mineBlocks(1);
    expect(await t.app.chain.sync()).toMatchObject({ credited: 1 });
    expect(await held(t, 'ETH', 'available', who.id)).toBe('1.5');
    expect((await walletRows(t, who.id))[0]).toMatchObject({ status: 'completed', txid });

    // More blocks and rounds credit nothing more.
    await mineBlocks(3);
    expect(await t.app.chain.sync()).toMatchObject({ seen: 0, credited: 0 });
    expect(await held(t, 'ETH', 'available', who.id)).toBe('1.5');
    await expectLedgerClean(t.app.db);
  });

  it('reads a USDT (ERC-20) transfer from its Transfer log and credits the exact units at the confirmations', async () => {
    const who = await traderWithAddress();
    await usdt.mint(usdt.owner, 1_000_000_000n);
    const receipt = await usdt.transfer(usdt.owner, who.address as Address, 250_500_000n);
    expect(await t.app.chain.sync()).toMatchObject({ seen: 1 });
    const [log] = receipt.logs;
    expect((await walletRows(t, who.id))[0]).toMatchObject({
      ticker: 'USDT',
      network: 'ethereum',
      status: 'pending',
      amount_crypto: '250.5',
      txid: receipt.transactionHash,
      vout: (log?.logIndex ?? -1) + 1,
    });
    await mineBlocks(CONFIRMATIONS - 1);
    expect(await t.app.chain.sync()).toMatchObject({ credited: 1 });
    expect(await held(t, 'USDT', 'available', who.id)).toBe('250.5');
    await expectLedgerClean(t.app.db);
  });

  it('pays an ETH withdrawal from the hot wallet: the exact amount less the fee arrives, the wallet pays it and the gas, and it completes', async () => {
    const recipient = '0x00000000000000000000000000000000000a11ce' as Address;
    const who = await trader(t, { ETH: '3' });
    // A hot wallet short of funds keeps the withdrawal waiting, tells the operator, and refunds nothing.
    await withdraw(who.token, 'ETH', '1.25', recipient);
    expect(await t.app.chain.sync()).toMatchObject({ broadcast: 0, refunded: 0 });
    const waiting = await withdrawalOf(who.id);
    expect(waiting).toMatchObject({ status: 'pending', txid: null });
    expect(await t.app.db.query('SELECT kind FROM chain_incidents WHERE subject = $1', [`withdrawal:${waiting?.id}`])).toEqual([{ kind: 'hot_wallet_short' }]);
    expect(await held(t, 'ETH', 'withdrawing', who.id)).toBe('1.25');

    await clients().wallet.sendTransaction({ account: await payer(), to: hot, value: parseEther('5') });
    const before = await reader().getBalance({ address: hot });
    // The node mines each transaction at once: one round sends it and sees it in its block.
    expect(await t.app.chain.sync()).toMatchObject({ broadcast: 1, completed: 1 });
    const sent = await withdrawalOf(who.id);
    const receipt = await reader().getTransactionReceipt({ hash: sent?.txid as Hash });
    // 1.25 ETH less the 0.0008 ETH withdrawal fee reaches the recipient; the hot wallet pays that and the gas, exactly.
    expect(await reader().getBalance({ address: recipient })).toBe(parseEther('1.2492'));
    expect(before - (await reader().getBalance({ address: hot }))).toBe(parseEther('1.2492') + receipt.gasUsed * receipt.effectiveGasPrice);
    expect(await t.app.chain.sync()).toMatchObject({ broadcast: 0, completed: 0 });
    expect(await withdrawalOf(who.id)).toMatchObject({ status: 'completed', txid: receipt.transactionHash });
    expect(await held(t, 'ETH', 'available', who.id)).toBe('1.75');
    expect(await held(t, 'ETH', 'withdrawing', who.id)).toBe('0');
    await expectLedgerClean(t.app.db);
  });

  it('pays a USDT withdrawal with `transfer` on the token contract', async () => {
    const recipient = '0x00000000000000000000000000000000000b0b00' as Address;
    const who = await trader(t, { USDT: '500' });
    await usdt.mint(hot, parseUnits('1000', 6));
    await withdraw(who.token, 'USDT', '120', recipient);
    expect(await t.app.chain.sync()).toMatchObject({ broadcast: 1, completed: 1 });
    // 120 less the 3 USDT withdrawal fee on Ethereum.
    expect(await usdt.balanceOf(recipient)).toBe(parseUnits('117', 6));
    expect(await withdrawalOf(who.id)).toMatchObject({ status: 'completed' });
    expect(await held(t, 'USDT', 'available', who.id)).toBe('380');
    await expectLedgerClean(t.app.db);
  });

  it('replaces a withdrawal stuck under a low fee at the same nonce, follows the replacement and pays once', async () => {
    const recipient = '0x00000000000000000000000000000000000ca110' as Address;
    const who = await trader(t, { ETH: '1' });
    const { tester } = clients();
    await tester.setAutomine(false);
    try {
      await withdraw(who.token, 'ETH', '0.5', recipient);
      expect(await t.app.chain.sync()).toMatchObject({ broadcast: 1 });
      const first = (await withdrawalOf(who.id))?.txid ?? null;
      // Past EVM_ETHEREUM_REPLACE_AFTER_SECONDS (180) on the server's clock, still unmined.
      t.clock.advance(181_000);
      await t.app.chain.sync();
      const second = (await withdrawalOf(who.id))?.txid ?? null;
      expect(second).not.toBe(first);
      // Both attempts were stored before they were sent, at one nonce, the second with fees raised by at least 1/8.
      const attempts = await t.app.db.query<{ hash: string; max_fee_per_gas: string; nonce: string }>(
        `SELECT a.hash, a.max_fee_per_gas::text AS max_fee_per_gas, p.nonce::text AS nonce FROM evm_hot_wallet_attempts a
         JOIN evm_hot_wallet_payments p ON p.reference = a.reference WHERE a.hash = ANY($1::text[]) ORDER BY a.attempt`,
        [[first, second]],
      );
      expect(attempts.map((attempt) => attempt.hash)).toEqual([first, second]);
      expect(BigInt(attempts[1]!.max_fee_per_gas) * 8n).toBeGreaterThanOrEqual(BigInt(attempts[0]!.max_fee_per_gas) * 9n);
      const replacement = await reader().getTransaction({ hash: second as Hash });
      expect(String(replacement.nonce)).toBe(attempts[0]!.nonce);
      await tester.mine({ blocks: 1 });
    } finally {
      await tester.setAutomine(true);
    }
    expect(await t.app.chain.sync()).toMatchObject({ completed: 1 });
    expect(await reader().getBalance({ address: recipient })).toBe(parseEther('0.4992'));
    const done = await withdrawalOf(who.id);
    expect(done?.status).toBe('completed');
    expect(await reader().getTransactionReceipt({ hash: done?.txid as Hash })).toMatchObject({ status: 'success' });
    await expectLedgerClean(t.app.db);
  });

  it('refuses the simulated chain driver a deposit on the network a real node serves', async () => {
    const who = await traderWithAddress();
    const answer = await t.post('/api/dev/chain/', { type: 'deposit', network: 'ethereum', address: who.address, amount: '1' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'dev_chain.on_real_chain' });
    expect(await walletRows(t, who.id)).toEqual([]);
  });

  it('drops a pending deposit whose block a re-organisation removed, and never credits it', async () => {
    const who = await traderWithAddress();
    const { tester } = clients();
    const before = await tester.snapshot();
    const txid = await send(who.address, '2');
    await mineBlocks(3);
    expect(await t.app.chain.sync()).toMatchObject({ seen: 1 });
    expect((await walletRows(t, who.id))[0]).toMatchObject({ status: 'pending', txid });

    // The chain goes back to before the transfer and grows past where the watcher had read, without it.
    await tester.revert({ id: before });
    await mineBlocks(CONFIRMATIONS + 5);
    expect(await t.app.chain.sync()).toMatchObject({ dropped: 1, credited: 0 });
    const [dropped] = await walletRows(t, who.id);
    expect(dropped).toMatchObject({ status: 'cancelled', txid });
    expect((await t.app.db.one<{ cancel_reason: string }>('SELECT cancel_reason FROM wallet_transactions WHERE txid = $1', [txid])).cancel_reason).toBe(
      'reorganised',
    );
    expect(await held(t, 'ETH', 'available', who.id)).toBe('0');
    await expectLedgerClean(t.app.db);
  });

  it('stops the network and tells the operator when a re-organisation is deeper than the blocks it remembers', async () => {
    const { tester } = clients();
    await t.app.chain.sync();
    const before = await tester.snapshot();
    await mineBlocks(CURSOR_HASHES + 2);
    await t.app.chain.sync();
    const cursor = await t.app.db.one<{ cursor: string }>("SELECT cursor FROM chain_cursors WHERE network = 'ethereum'");
    await tester.revert({ id: before });
    // Empty blocks on the same parent at the same second would be the very same blocks: the new chain's differ in time.
    await tester.increaseTime({ seconds: 3600 });
    await mineBlocks(CURSOR_HASHES + 10);
    await expect(t.app.chain.sync()).rejects.toThrow(/ethereum/);
    // Nothing moved: the cursor waits where it was for an operator, who has the incident.
    expect((await t.app.db.one<{ cursor: string }>("SELECT cursor FROM chain_cursors WHERE network = 'ethereum'")).cursor).toBe(cursor.cursor);
    expect(await t.app.db.query("SELECT kind FROM chain_incidents WHERE kind = 'reorganisation_too_deep'")).toEqual([{ kind: 'reorganisation_too_deep' }]);
    // The operator resets the cursor to the new chain (docs/chains.md "Re-organisations"); the network runs again.
    await t.app.db.query("DELETE FROM chain_cursors WHERE network = 'ethereum'");
    await expect(t.app.chain.sync()).resolves.toMatchObject({ dropped: 0 });
  });

  it('reports a credited deposit that a re-organisation removed to the operator, and credits nothing twice', async () => {
    const who = await traderWithAddress();
    const operator = await insertUser(t.app.db, 'op');
    await t.app.db.query("UPDATE users SET role = 'operator' WHERE id = $1", [operator.id]);
    const { tester } = clients();
    const before = await tester.snapshot();
    const txid = await send(who.address, '0.75');
    await mineBlocks(CONFIRMATIONS);
    expect(await t.app.chain.sync()).toMatchObject({ seen: 1, credited: 1 });
    expect(await held(t, 'ETH', 'available', who.id)).toBe('0.75');

    await tester.revert({ id: before });
    await mineBlocks(CONFIRMATIONS + 20);
    await t.app.chain.sync();
    const incidents = await t.app.db.query<{ kind: string; subject: string; network: string }>('SELECT kind, subject, network FROM chain_incidents');
    expect(incidents).toContainEqual({ kind: 'credited_deposit_reorganised', subject: `deposit:ethereum:${txid}:0`, network: 'ethereum' });
    // Every operator is told once, on the bell and by web push, whatever the later rounds see again.
    await t.app.chain.sync();
    const told = await t.app.db.query<{ kind: string; title: string; body: string; link: string }>(
      'SELECT kind, title, body, link FROM notifications WHERE user_id = $1',
      [operator.id],
    );
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ kind: 'chain_incident', title: 'Chain incident on ethereum', link: '/operator' });
    expect(told[0]?.body).toContain('credited deposit reorganised');
    const pushes = await t.app.db.query<{ users: string[] }>("SELECT users FROM push_publishes WHERE publish_id LIKE 'notification-%'");
    expect(pushes.map((row) => row.users)).toContainEqual([operator.username]);
    // The ledger still owes it (only an operator may take it back); nothing is credited a second time.
    expect(await held(t, 'ETH', 'available', who.id)).toBe('0.75');
    expect((await t.app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM wallet_transactions WHERE txid = $1', [txid])).n).toBe(1);
    await expectLedgerClean(t.app.db);
  });

  it("gives the operator's overview the watcher's last block against the node's head, and the holdings read from the node", async () => {
    await t.app.chain.sync();
    const ethereum = async () => {
      await t.app.operatorOverview.refreshProgress();
      return (await t.app.operatorOverview.overview()).networks.find((network) => network.network === 'ethereum');
    };
    const read = await ethereum();
    expect(read?.head).toBe(Number(await reader().getBlockNumber()));
    expect(read?.last_block).toBeTypeOf('number');
    await mineBlocks(2);
    // The reading is kept a few seconds (GET /metrics shares it), while the watcher's cursor stays put.
    expect(await ethereum()).toMatchObject({ head: read?.head });
    t.clock.advance(CHAIN_PROGRESS_FRESH_MS);
    const later = await ethereum();
    // The node moved on, the watcher has not had a round since: two blocks more behind.
    expect(later).toMatchObject({ last_block: read?.last_block, head: (read?.head ?? 0) + 2, lag_blocks: (read?.lag_blocks ?? 0) + 2 });
    expect(later?.holdings).toEqual([]);

    await t.app.operatorOverview.refreshHoldings();
    const holdings = (await ethereum())?.holdings ?? [];
    expect(holdings.map((holding) => [holding.ticker, holding.source])).toEqual([
      ['ETH', 'chain'],
      ['USDT', 'chain'],
    ]);
    for (const holding of holdings) expect(holding.held).not.toBeNull();
  });
});

/** Two processes need one database: only on PostgreSQL. */
const twoProcesses = dbTargets.includes('postgres') ? ['postgres'] : [];

describe.each(twoProcesses)('two server processes watching one EVM node (%s)', () => {
  let node: EvmNode;
  let first: TestApp;
  let second: TestApp;
  const evmEnv = () => ethereumEnvironment(node, { CONFIRMATIONS: String(CONFIRMATIONS) });
  beforeAll(async () => {
    node = await startEvmNode();
    first = await createTestApp('postgres', { env: evmEnv() });
    second = await createTestApp('pglite', { env: { ...evmEnv(), DATABASE_URL: first.config.databaseUrl ?? '' } });
  }, 120_000);
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await node?.stop();
  });

  it('credits each deposit exactly once when both run their rounds at the same time', async () => {
    const transport = http(node.url);
    const wallet = createWalletClient({ chain: hardhat, transport });
    const tester = createTestClient({ chain: hardhat, mode: 'hardhat', transport });
    const [from] = (await wallet.getAddresses()) as [Address];
    const traders = [];
    for (let index = 1; index <= 6; index += 1) {
      const user = await insertUser(first.app.db);
      const address = await depositAddress(first, user.id, 'ethereum');
      await wallet.sendTransaction({ account: from, to: address as Address, value: parseEther(`0.${index}`) });
      traders.push({ ...user, index });
    }
    const seen = await Promise.all([first.app.chain.sync(), second.app.chain.sync()]);
    expect(seen.reduce((sum, report) => sum + report.seen, 0)).toBe(6);
    for (let block = 0; block < CONFIRMATIONS; block += 1) await tester.request({ method: 'evm_mine', params: undefined });
    const credited = [];
    for (let round = 0; round < 3; round += 1) credited.push(...(await Promise.all([first.app.chain.sync(), second.app.chain.sync()])));
    expect(credited.reduce((sum, report) => sum + report.credited, 0)).toBe(6);
    for (const who of traders) {
      expect(await held(first, 'ETH', 'available', who.id)).toBe(`0.${who.index}`);
      expect(await walletRows(first, who.id)).toHaveLength(1);
    }
    await expectLedgerClean(first.app.db);
  });
});

describe('an EVM network with a websocket endpoint', () => {
  let node: EvmNode;
  let t: TestApp;
  beforeAll(async () => {
    node = await startEvmNode();
    t = await createTestApp('pglite', {
      env: {
        EVM_NETWORKS: 'ethereum',
        EVM_ETHEREUM_CHAIN_ID: String(node.chainId),
        EVM_ETHEREUM_RPC_URL: node.url,
        EVM_ETHEREUM_WS_URL: node.url.replace('http://', 'ws://'),
        EVM_ETHEREUM_START_BLOCK: '0',
        // An hour between timed rounds: only the node's new-block announcement can start one during the test.
        CHAIN_POLL_SECONDS: '3600',

      },
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await node?.stop();
  });

  it('reads a new block as soon as the node announces it, without waiting for the timer', async () => {
    const user = await insertUser(t.app.db);
    const address = await depositAddress(t, user.id, 'ethereum');
    const wallet = createWalletClient({ chain: hardhat, transport: http(node.url) });
    const [from] = (await wallet.getAddresses()) as [Address];
    // The app subscribes to new heads while it starts; empty blocks until a round has run show it is listening.
    const tester = createTestClient({ chain: hardhat, mode: 'hardhat', transport: http(node.url) });
    const cursor = async () => (await t.app.db.maybe<{ cursor: string }>("SELECT cursor FROM chain_cursors WHERE network = 'ethereum'"))?.cursor;
    await expect
      .poll(
        async () => {
          await tester.request({ method: 'evm_mine', params: undefined });
          return cursor();
        },
        { timeout: 10_000, interval: 500 },
      )
      .toBeDefined();
    const txid = await wallet.sendTransaction({ account: from, to: address as Address, value: parseEther('0.3') });
    await expect.poll(async () => (await walletRows(t, user.id)).map((row) => row.txid), { timeout: 10_000 }).toEqual([txid]);
  });
});

describe('production checks of an EVM network', () => {
  let node: EvmNode;
  let keyFolder: string;
  beforeAll(async () => {
    node = await startEvmNode();
    keyFolder = mkdtempSync(join(tmpdir(), 'peerex-hot-'));
  }, 120_000);
  afterAll(async () => {
    await node?.stop();
    if (keyFolder) rmSync(keyFolder, { recursive: true, force: true });
  });
  const production = (env: Record<string, string>) =>
    createTestApp('pglite', {
      env: {
        NODE_ENV: 'production',
        ...TEST_WALLET_XPUBS,
        ...TEST_VAPID_KEYS,
        EVM_NETWORKS: 'ethereum',
        EVM_ETHEREUM_RPC_URL: node.url,
        EVM_ETHEREUM_CHAIN_ID: String(node.chainId),
        ...env,
      },
    });

  it('refuses to start when the node answers another chain id than configured', async () => {
    await expect(production({ EVM_ETHEREUM_CHAIN_ID: '1' })).rejects.toThrow(`the node at EVM_ETHEREUM_RPC_URL is chain ${HARDHAT_CHAIN_ID}, not EVM_ETHEREUM_CHAIN_ID 1`);
  });

  it('refuses to start with a hot-wallet key file other users can read, and starts once only its owner can', async () => {
    const keyFile = join(keyFolder, 'hot.key');
    writeFileSync(keyFile, `${generatePrivateKey()}\n`);
    chmodSync(keyFile, 0o644);
    await expect(production({ EVM_ETHEREUM_HOT_WALLET_KEY_FILE: keyFile })).rejects.toThrow(/hot.key/);
    chmodSync(keyFile, 0o600);
    const t = await production({ EVM_ETHEREUM_HOT_WALLET_KEY_FILE: keyFile });
    await t.close();
  });
});
