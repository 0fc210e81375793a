import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WalletAddressEntry, WalletHistory, WalletItem } from '../../contracts/wallet.ts';
import { BroadcastRefused } from '../../server/src/chain/adapter.ts';
import { chainWatcher } from '../../server/src/chain/watcher.ts';
import { Money } from '../../server/src/ledger/money.ts';
import { KICK_DELAY_MS, type ChainSyncReport } from '../../server/src/chain/chain.plugin.ts';
import {
  depositAddress,
  depositOnChain,
  devChain,
  driverOf,
  entriesNamed,
  held,
  mine,
  pendingWithdrawal,
  walletRows,
  wrappedChain,
} from '../support/server-chain.ts';
import { coinByTicker, deposit, expectLedgerClean, insertUser } from '../support/server-money.ts';
import { createTestApp, dbTargets, TEST_WALLET_XPUBS, type TestApp } from '../support/server.ts';
import { trader } from '../support/server-trades.ts';
import { TEST_VAPID_KEYS } from '../support/push.ts';

/**
 * Valid addresses nobody at Peerex owns: BIP-173's P2WPKH vector, EIP-55's first test case, and the BIPs'
 * test mnemonic's first tron and litecoin accounts.
 */
const OUTSIDE = {
  bitcoin: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
  ethereum: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  litecoin: 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh',
  tron: 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH',
} as const;

const silent = { info() {}, warn() {}, error() {} };

const total = (reports: ChainSyncReport[]): ChainSyncReport =>
  reports.reduce((sum, report) => ({
    seen: sum.seen + report.seen,
    credited: sum.credited + report.credited,
    dropped: sum.dropped + report.dropped,
    broadcast: sum.broadcast + report.broadcast,
    completed: sum.completed + report.completed,
    refunded: sum.refunded + report.refunded,
  }));

const transfersNamed = async (t: TestApp, reference: string) =>
  (await t.app.db.one<{ count: number }>('SELECT count(*)::integer AS count FROM simulated_chain_transfers WHERE reference = $1', [reference])).count;

describe.each(dbTargets)('the simulated chain and its watcher (%s)', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t?.close());

  describe('deposits', () => {
    afterEach(async () => {
      await expectLedgerClean(t.app.db);
    });

    it('records a deposit to a trader’s address at once, pending with its USD value, and credits it once after a block', async () => {
      const user = await insertUser(t.app.db);
      const address = await depositAddress(t, user.id, 'bitcoin');
      const txid = await depositOnChain(t, 'bitcoin', address, '0.01');
      expect(txid).toMatch(/^[0-9a-f]{64}$/);

      const [pending] = await walletRows(t, user.id);
      expect(pending).toMatchObject({
        ticker: 'BTC',
        network: 'bitcoin',
        trans_type: 'deposit',
        status: 'pending',
        scope: 'external',
        amount_crypto: '0.01',
        amount_usd: '970.00',
        address,
        txid,
        vout: 0,
        credit_reference: `deposit:bitcoin:${txid}:0`,
        completed_at: null,
      });
      expect(await held(t, 'BTC', 'available', user.id)).toBe('0');

      // The price moves before the block: the USD value stays the one at arrival.
      const { usd_price } = await coinByTicker(t.app.db, 'BTC');
      await t.app.db.query("UPDATE coins SET usd_price = 50000 WHERE ticker = 'BTC'");
      try {
        await mine(t);
      } finally {
        await t.app.db.query("UPDATE coins SET usd_price = $1 WHERE ticker = 'BTC'", [usd_price]);
      }
      const [credited] = await walletRows(t, user.id);
      expect(credited).toMatchObject({ status: 'completed', amount_usd: '970.00' });
      expect(credited?.completed_at).toBeInstanceOf(Date);
      expect(await held(t, 'BTC', 'available', user.id)).toBe('0.01');
      expect(await entriesNamed(t, `deposit:bitcoin:${txid}:0`)).toBe(1);

      // More rounds and more blocks credit nothing more.
      expect(await t.app.chain.sync()).toMatchObject({ seen: 0, credited: 0 });
      await mine(t, 3);
      expect(await held(t, 'BTC', 'available', user.id)).toBe('0.01');
      expect(await walletRows(t, user.id)).toHaveLength(1);
    });

    it('pays the address the trader was given (`addresses`): in their history at once, in their wallet after a block', async () => {
      const who = await trader(t);
      const wallet = (body: Record<string, unknown>) => t.post<unknown>('/api/user/wallet/', body, { token: who.token });
      const addresses = (await wallet({ type: 'addresses' })).body.info as WalletAddressEntry[];
      const litecoin = addresses.find((entry) => entry.coin.ticker === 'LTC')?.networks.find((network) => network.key === 'litecoin')?.address;
      expect(litecoin).toMatch(/^ltc1q/);
      const txid = await depositOnChain(t, 'litecoin', litecoin ?? '', '2.5');

      const history = async () => ((await wallet({ type: 'history' })).body.info as WalletHistory).transactions;
      expect(await history()).toMatchObject([
        { trans_type: 'deposit', coin__ticker: 'LTC', network: 'litecoin', amount_crypto: '2.50000000', amount_usd: '237.50', txid, scope: 'external', status: 'pending' },
      ]);
      await mine(t);
      expect(await history()).toMatchObject([{ txid, status: 'completed' }]);
      const list = (await wallet({ type: 'list' })).body.info as WalletItem[];
      expect(list.find((item) => item.coin__ticker === 'LTC')?.balance).toBe('2.50000000');
    });

    it('records a deposit worth less than 5 USD as cancelled and never credits it', async () => {
      const user = await insertUser(t.app.db);
      const address = await depositAddress(t, user.id, 'bitcoin');
      // 0.00001 BTC at 97,000 USD is 0.97 USD.
      const txid = await depositOnChain(t, 'bitcoin', address, '0.00001');
      expect(await walletRows(t, user.id)).toMatchObject([{ status: 'cancelled', amount_crypto: '0.00001', amount_usd: '0.97', txid }]);
      await mine(t, 2);
      expect(await walletRows(t, user.id)).toMatchObject([{ status: 'cancelled', completed_at: null }]);
      expect(await held(t, 'BTC', 'available', user.id)).toBe('0');
      expect(await entriesNamed(t, `deposit:bitcoin:${txid}:0`)).toBe(0);
    });

    it('takes USDT on ethereum (beside ETH, on the same address) and on tron', async () => {
      const user = await insertUser(t.app.db);
      const ethereum = await depositAddress(t, user.id, 'ethereum');
      const tron = await depositAddress(t, user.id, 'tron');
      const usdtOnEthereum = await depositOnChain(t, 'ethereum', ethereum, '250.5', 'USDT');
      // No ticker: the network's own coin on ethereum, its only coin on tron.
      const eth = await depositOnChain(t, 'ethereum', ethereum, '0.5');
      const usdtOnTron = await depositOnChain(t, 'tron', tron, '100');
      expect(usdtOnEthereum).toMatch(/^0x[0-9a-f]{64}$/);
      expect(usdtOnTron).toMatch(/^[0-9a-f]{64}$/);
      expect(await walletRows(t, user.id)).toMatchObject([
        { ticker: 'USDT', network: 'ethereum', status: 'pending', amount_crypto: '250.5', amount_usd: '250.50', txid: usdtOnEthereum },
        { ticker: 'ETH', network: 'ethereum', status: 'pending', amount_crypto: '0.5', amount_usd: '1700.00', txid: eth },
        { ticker: 'USDT', network: 'tron', status: 'pending', amount_crypto: '100', amount_usd: '100.00', txid: usdtOnTron },
      ]);
      await mine(t);
      expect((await walletRows(t, user.id)).map((row) => row.status)).toEqual(['completed', 'completed', 'completed']);
      expect(await held(t, 'USDT', 'available', user.id)).toBe('350.5');
      expect(await held(t, 'ETH', 'available', user.id)).toBe('0.5');
    });

    it('matches an ethereum address written in lower case to the checksummed one handed out', async () => {
      const user = await insertUser(t.app.db);
      const address = await depositAddress(t, user.id, 'ethereum');
      expect(address).not.toBe(address.toLowerCase());
      await depositOnChain(t, 'ethereum', address.toLowerCase(), '0.1');
      expect(await walletRows(t, user.id)).toMatchObject([{ ticker: 'ETH', status: 'pending', address }]);
      await mine(t);
      expect(await held(t, 'ETH', 'available', user.id)).toBe('0.1');
    });

    it('lets the chain carry transfers to addresses Peerex never handed out, and records none of them', async () => {
      const before = await t.app.db.one<{ count: number }>('SELECT count(*)::integer AS count FROM wallet_transactions');
      // A valid address of the app's own key that no user was given, and one outside Peerex altogether.
      const unallocated = t.app.walletKeys.addressAt('bitcoin', 100_000);
      await depositOnChain(t, 'bitcoin', unallocated, '1');
      await depositOnChain(t, 'tron', OUTSIDE.tron, '1000');
      await mine(t);
      expect(await t.app.db.one('SELECT count(*)::integer AS count FROM wallet_transactions')).toEqual(before);
      // The chain has them all the same.
      const onChain = await t.app.db.query('SELECT address FROM simulated_chain_transfers WHERE address = ANY($1::text[])', [[unallocated, OUTSIDE.tron]]);
      expect(onChain).toHaveLength(2);
    });

    it('ignores a transfer of an asset that is not a coin on that network (TRX to a tron deposit address)', async () => {
      const user = await insertUser(t.app.db);
      const address = await depositAddress(t, user.id, 'tron');
      // Straight onto the chain: the dev route itself refuses tickers the network does not carry here.
      await t.app.db.query(
        `INSERT INTO simulated_chain_transfers (network, txid, vout, asset, address, amount, created_at)
         VALUES ('tron', $1, 0, 'TRX', $2, 500, now())`,
        ['ab'.repeat(32), address],
      );
      await mine(t);
      expect(await walletRows(t, user.id)).toEqual([]);
    });
  });

  describe('withdrawals on the chain', () => {
    afterEach(async () => {
      await expectLedgerClean(t.app.db);
    });

    const funded = async (amount: string) => {
      const user = await insertUser(t.app.db);
      const { id: coinId } = await coinByTicker(t.app.db, 'BTC');
      await deposit(t.app.db, user.id, coinId, amount);
      return user;
    };

    it('broadcasts a pending withdrawal once (amount less fee to the recipient), then completes it when it is mined', async () => {
      const user = await funded('1');
      const platformBefore = await held(t, 'BTC', 'withdrawals');
      const id = await pendingWithdrawal(t, { userId: user.id, ticker: 'BTC', network: 'bitcoin', address: OUTSIDE.bitcoin, amount: '0.1', fee: '0.00005' });
      expect(await held(t, 'BTC', 'withdrawing', user.id)).toBe('0.1');

      expect(await t.app.chain.sync()).toMatchObject({ broadcast: 1, completed: 0 });
      const [sent] = await walletRows(t, user.id);
      expect(sent).toMatchObject({ status: 'pending', broadcast_attempts: 0 });
      expect(sent?.txid).toMatch(/^[0-9a-f]{64}$/);
      const onChain = await t.app.db.query<{ txid: string; asset: string; address: string; amount: string }>(
        "SELECT txid, asset, address, amount::text AS amount FROM simulated_chain_transfers WHERE reference = $1",
        [`withdrawal:${id}`],
      );
      expect(onChain).toEqual([{ txid: sent?.txid, asset: 'BTC', address: OUTSIDE.bitcoin, amount: '0.09995' }]);

      // Not mined yet: another round neither sends it again nor completes it.
      expect(await t.app.chain.sync()).toMatchObject({ broadcast: 0, completed: 0 });
      expect(await transfersNamed(t, `withdrawal:${id}`)).toBe(1);

      await mine(t);
      expect(await walletRows(t, user.id)).toMatchObject([{ status: 'completed', txid: sent?.txid }]);
      expect(await entriesNamed(t, `withdrawal:${id}:sent`)).toBe(1);
      expect(await held(t, 'BTC', 'withdrawing', user.id)).toBe('0');
      expect(await held(t, 'BTC', 'available', user.id)).toBe('0.9');
      expect(new Money(await held(t, 'BTC', 'withdrawals')).minus(platformBefore).toFixed()).toBe('0.1');
      await mine(t);
      expect(await entriesNamed(t, `withdrawal:${id}:refund`)).toBe(0);
    });

    it('mines a withdrawal confirmed a moment ago in one `mine` (the route broadcasts before it mines)', async () => {
      const user = await funded('0.5');
      const id = await pendingWithdrawal(t, { userId: user.id, ticker: 'BTC', network: 'bitcoin', address: OUTSIDE.bitcoin, amount: '0.2', fee: '0.00005' });
      await mine(t);
      expect(await walletRows(t, user.id)).toMatchObject([{ status: 'completed' }]);
      expect(await entriesNamed(t, `withdrawal:${id}:sent`)).toBe(1);
      expect(await held(t, 'BTC', 'available', user.id)).toBe('0.3');
    });

    it('cancels and refunds a withdrawal the chain refuses (a litecoin address on bitcoin)', async () => {
      const user = await funded('1');
      const id = await pendingWithdrawal(t, { userId: user.id, ticker: 'BTC', network: 'bitcoin', address: OUTSIDE.litecoin, amount: '0.25', fee: '0.00005' });
      expect(await t.app.chain.sync()).toMatchObject({ broadcast: 0, refunded: 1 });
      expect(await walletRows(t, user.id)).toMatchObject([
        { status: 'cancelled', txid: null, broadcast_error: 'The recipient is not a valid bitcoin address.' },
      ]);
      expect(await entriesNamed(t, `withdrawal:${id}:refund`)).toBe(1);
      expect(await held(t, 'BTC', 'available', user.id)).toBe('1');
      expect(await held(t, 'BTC', 'withdrawing', user.id)).toBe('0');
      expect(await transfersNamed(t, `withdrawal:${id}`)).toBe(0);
      await mine(t);
      expect(await entriesNamed(t, `withdrawal:${id}:sent`)).toBe(0);
      expect(await held(t, 'BTC', 'available', user.id)).toBe('1');
    });
  });

  describe('POST /api/dev/chain/', () => {
    const refused = (info: string) => ({ status: 400, body: { success: false, info } });

    it('refuses a bad body with one sentence and puts nothing on the chain', async () => {
      const user = await insertUser(t.app.db);
      const bitcoin = await depositAddress(t, user.id, 'bitcoin');
      const tron = await depositAddress(t, user.id, 'tron');
      const before = await t.app.db.one('SELECT count(*)::integer AS count FROM simulated_chain_transfers');
      const depositBody = (fields: Record<string, unknown>) => devChain(t, { type: 'deposit', network: 'bitcoin', address: bitcoin, amount: '0.1', ...fields });

      expect(await depositBody({ network: 'dogecoin' })).toEqual(refused('network must be one of: bitcoin, ethereum, tron, litecoin'));
      expect(await depositBody({ address: 'bc1qnotanaddress' })).toEqual(refused('address is not a valid bitcoin address.'));
      expect(await depositBody({ address: OUTSIDE.litecoin })).toEqual(refused('address is not a valid bitcoin address.'));
      // EIP-55's first test case with its last letter's case flipped: a broken checksum.
      expect(await depositBody({ network: 'ethereum', address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD' })).toEqual(
        refused('address is not a valid ethereum address.'),
      );
      expect(await depositBody({ network: 'ethereum', address: '0x1234' })).toEqual(refused('address is not a valid ethereum address.'));
      expect(await depositBody({ address: undefined })).toEqual(refused('address is required'));
      expect(await depositBody({ amount: 'lots' })).toEqual(refused('amount must be a number'));
      expect(await depositBody({ amount: '0' })).toEqual(refused('amount must be greater than 0'));
      expect(await depositBody({ amount: 0.1 })).toEqual(refused('amount must be a decimal number in a string, like "12.50"'));
      expect(await depositBody({ amount: '0.000000001' })).toEqual(refused('amount has more decimal places than BTC has (at most 8).'));
      expect(await depositBody({ network: 'tron', address: tron, amount: '1.0000001' })).toEqual(
        refused('amount has more decimal places than USDT has (at most 6).'),
      );
      expect(await depositBody({ ticker: 'DOGE' })).toEqual(refused('DOGE does not travel on bitcoin; it carries BTC.'));
      expect(await depositBody({ ticker: 'USDT' })).toEqual(refused('USDT does not travel on bitcoin; it carries BTC.'));
      expect(await devChain(t, { type: 'mine', blocks: 0 })).toEqual(refused('blocks must be 1 or more'));
      expect(await devChain(t, { type: 'mine', blocks: 101 })).toEqual(refused('blocks must be at most 100'));
      expect(await devChain(t, { type: 'burn' })).toEqual(refused('type must be one of: deposit, mine'));

      expect(await t.app.db.one('SELECT count(*)::integer AS count FROM simulated_chain_transfers')).toEqual(before);
      expect(await walletRows(t, user.id)).toEqual([]);
    });

    it('takes a ticker in any case and mines one block by default', async () => {
      const user = await insertUser(t.app.db);
      const ethereum = await depositAddress(t, user.id, 'ethereum');
      await depositOnChain(t, 'ethereum', ethereum, '20', 'usdt');
      expect(await devChain(t, { type: 'mine' })).toEqual({ status: 200, body: { success: true, info: { mined: 1 } } });
      expect(await held(t, 'USDT', 'available', user.id)).toBe('20');
      await expectLedgerClean(t.app.db);
    });

    it('answers 404 from another machine and through a proxy', async () => {
      const body = { type: 'mine', blocks: 1 };
      const noSuchCall = { status: 404, body: { success: false, info: 'There is no such API call.' } };
      expect(await devChain(t, body, { ip: '203.0.113.7' })).toEqual(noSuchCall);
      expect(await devChain(t, body, { headers: { 'x-forwarded-for': '127.0.0.1' } })).toEqual(noSuchCall);
    });
  });
});

describe('POST /api/dev/chain/ in production', () => {
  it('does not exist', async () => {
    const t = await createTestApp('pglite', { env: { NODE_ENV: 'production', ...TEST_WALLET_XPUBS, ...TEST_VAPID_KEYS } });
    try {
      expect(await devChain(t, { type: 'mine', blocks: 1 })).toEqual({ status: 404, body: { success: false, info: 'There is no such API call.' } });
      // The chain behind it is still watched: only the driver is gone.
      expect(t.app.chain.simulated).toBeDefined();
      expect(await t.app.chain.sync()).toEqual({ seen: 0, credited: 0, dropped: 0, broadcast: 0, completed: 0, refunded: 0 });
    } finally {
      await t.close();
    }
  });
});

describe.each(dbTargets)('a chain that refuses or fails broadcasts (%s)', (target) => {
  let t: TestApp;
  let behaviour: 'pass' | 'refuse' | 'fail' | 'send then time out' = 'pass';
  const chain = wrappedChain({
    broadcast: async (request, simulated) => {
      if (behaviour === 'refuse') throw new BroadcastRefused('This token contract is paused.');
      if (behaviour === 'fail') throw new Error('connect ECONNREFUSED 10.0.0.9:8332');
      if (behaviour === 'send then time out') {
        await simulated.broadcast(request);
        throw new Error('ETIMEDOUT waiting for the node');
      }
      return simulated.broadcast(request);
    },
  });
  beforeAll(async () => {
    t = await createTestApp(target, { chainAdapter: chain.adapter });
    chain.bind(t);
  });
  afterAll(() => t?.close());
  afterEach(async () => {
    await expectLedgerClean(t.app.db);
  });

  const withdrawal = async (amount: string) => {
    const user = await insertUser(t.app.db);
    const { id: coinId } = await coinByTicker(t.app.db, 'USDT');
    await deposit(t.app.db, user.id, coinId, '1000');
    const id = await pendingWithdrawal(t, { userId: user.id, ticker: 'USDT', network: 'tron', address: OUTSIDE.tron, amount, fee: '1' });
    return { user, id };
  };

  it('cancels and refunds a refused withdrawal, once', async () => {
    const { user, id } = await withdrawal('400');
    behaviour = 'refuse';
    const reports = [await t.app.chain.sync(), await t.app.chain.sync()];
    expect(total(reports)).toMatchObject({ broadcast: 0, refunded: 1 });
    expect(await walletRows(t, user.id)).toMatchObject([{ status: 'cancelled', txid: null, broadcast_error: 'This token contract is paused.' }]);
    expect(await entriesNamed(t, `withdrawal:${id}:refund`)).toBe(1);
    expect(await held(t, 'USDT', 'available', user.id)).toBe('1000');
    expect(await held(t, 'USDT', 'withdrawing', user.id)).toBe('0');
    // The chain working again changes nothing: the withdrawal is over.
    behaviour = 'pass';
    expect(await t.app.chain.sync()).toMatchObject({ broadcast: 0, refunded: 0 });
    expect(await transfersNamed(t, `withdrawal:${id}`)).toBe(0);
  });

  it('never refunds a withdrawal that was sent but whose txid was lost, even when the chain would now refuse it', async () => {
    const { user, id } = await withdrawal('400');
    behaviour = 'send then time out';
    await t.app.chain.sync();
    expect(await transfersNamed(t, `withdrawal:${id}`)).toBe(1);
    expect(await walletRows(t, user.id)).toMatchObject([{ status: 'pending', txid: null }]);
    // Since the send, the operator delisted USDT on tron: a fresh broadcast would be refused. The retry must
    // find the earlier send instead, and the withdrawal go on to completed, never to a refund.
    const { id: coinId } = await coinByTicker(t.app.db, 'USDT');
    const [tron] = await t.app.db.query<{ name: string; image: string; withdrawal_fee: string }>(
      `DELETE FROM coin_networks WHERE coin_id = $1 AND key = 'tron' RETURNING name, image, withdrawal_fee`,
      [coinId],
    );
    try {
      behaviour = 'pass';
      // The watcher visits only listed networks; the chain itself answers the retry from its record.
      const retried = await t.app.chain.adapter.broadcast({ reference: `withdrawal:${id}`, network: 'tron', asset: 'USDT', address: OUTSIDE.tron, amount: '399' });
      expect(retried.txid).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await t.app.db.query(`INSERT INTO coin_networks (coin_id, name, key, image, withdrawal_fee) VALUES ($1, $2, 'tron', $3, $4)`, [
        coinId,
        tron?.name,
        tron?.image,
        tron?.withdrawal_fee,
      ]);
    }
    expect(await t.app.chain.sync()).toMatchObject({ broadcast: 1, refunded: 0 });
    await mine(t);
    expect(await walletRows(t, user.id)).toMatchObject([{ status: 'completed' }]);
    expect(await transfersNamed(t, `withdrawal:${id}`)).toBe(1);
    expect(await entriesNamed(t, `withdrawal:${id}:refund`)).toBe(0);
    expect(await held(t, 'USDT', 'available', user.id)).toBe('600');
  });

  it('keeps a withdrawal pending while the node fails, counting the attempts, and sends it on a later round', async () => {
    const { user, id } = await withdrawal('150.5');
    behaviour = 'fail';
    await t.app.chain.sync();
    await t.app.chain.sync();
    expect(await walletRows(t, user.id)).toMatchObject([
      { status: 'pending', txid: null, broadcast_attempts: 2, broadcast_error: 'connect ECONNREFUSED 10.0.0.9:8332' },
    ]);
    expect(await held(t, 'USDT', 'withdrawing', user.id)).toBe('150.5');

    behaviour = 'pass';
    expect(await t.app.chain.sync()).toMatchObject({ broadcast: 1 });
    const [sent] = await walletRows(t, user.id);
    expect(sent).toMatchObject({ status: 'pending', broadcast_attempts: 2 });
    expect(sent?.txid).toMatch(/^[0-9a-f]{64}$/);
    await mine(t);
    expect(await walletRows(t, user.id)).toMatchObject([{ status: 'completed' }]);
    expect(await entriesNamed(t, `withdrawal:${id}:sent`)).toBe(1);
    expect(await held(t, 'USDT', 'available', user.id)).toBe('849.5');
  });
});

describe.each(dbTargets)('the watcher in several rounds at once (%s)', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t?.close());
  afterEach(async () => {
    await expectLedgerClean(t.app.db);
  });

  /** Deposits straight onto the chain (not recorded yet) and withdrawals waiting for their broadcast. */
  async function traffic(count: number) {
    const chain = driverOf(t);
    const users = [];
    for (let index = 1; index <= count; index += 1) {
      const user = await insertUser(t.app.db);
      await chain.deposit({ network: 'bitcoin', address: await depositAddress(t, user.id, 'bitcoin'), amount: `0.0${index}` });
      await chain.deposit({ network: 'ethereum', address: await depositAddress(t, user.id, 'ethereum'), amount: `${index}0`, ticker: 'USDT' });
      const { id: coinId } = await coinByTicker(t.app.db, 'LTC');
      await deposit(t.app.db, user.id, coinId, '10');
      const withdrawal = await pendingWithdrawal(t, { userId: user.id, ticker: 'LTC', network: 'litecoin', address: OUTSIDE.litecoin, amount: '2', fee: '0.001' });
      users.push({ ...user, index, withdrawal });
    }
    return users;
  }

  async function expectSettledOnce(users: Awaited<ReturnType<typeof traffic>>) {
    for (const user of users) {
      expect(await held(t, 'BTC', 'available', user.id)).toBe(`0.0${user.index}`);
      expect(await held(t, 'USDT', 'available', user.id)).toBe(`${user.index}0`);
      expect(await held(t, 'LTC', 'available', user.id)).toBe('8');
      expect(await held(t, 'LTC', 'withdrawing', user.id)).toBe('0');
      expect(await transfersNamed(t, `withdrawal:${user.withdrawal}`)).toBe(1);
      expect(await entriesNamed(t, `withdrawal:${user.withdrawal}:sent`)).toBe(1);
      expect((await walletRows(t, user.id)).map((row) => row.status)).toEqual(['completed', 'completed', 'completed']);
    }
  }

  it('credits each deposit and sends each withdrawal once when sync() is called twice together', async () => {
    const users = await traffic(3);
    await driverOf(t).mine(1);
    const first = await Promise.all([t.app.chain.sync(), t.app.chain.sync()]);
    expect(total(first)).toEqual({ seen: 6, credited: 6, dropped: 0, broadcast: 3, completed: 0, refunded: 0 });
    await driverOf(t).mine(1);
    const second = await Promise.all([t.app.chain.sync(), t.app.chain.sync()]);
    expect(total(second)).toEqual({ seen: 0, credited: 0, dropped: 0, broadcast: 0, completed: 3, refunded: 0 });
    await expectSettledOnce(users);
  });

  it('credits each deposit and sends each withdrawal once when two watchers run their rounds interleaved', async () => {
    const users = await traffic(3);
    const watchers = [1, 2].map(() => chainWatcher({ db: t.app.db, adapter: t.app.chain.adapter, now: t.app.now, log: silent }));
    await driverOf(t).mine(1);
    const first = await Promise.all(watchers.map((watcher) => watcher.round()));
    expect(total(first)).toEqual({ seen: 6, credited: 6, dropped: 0, broadcast: 3, completed: 0, refunded: 0 });
    await driverOf(t).mine(1);
    const second = await Promise.all(watchers.map((watcher) => watcher.round()));
    expect(total(second)).toEqual({ seen: 0, credited: 0, dropped: 0, broadcast: 0, completed: 3, refunded: 0 });
    await expectSettledOnce(users);
  });
});

/** Two processes need one database: only on PostgreSQL. */
const twoProcesses = dbTargets.includes('postgres') ? ['postgres'] : [];

describe.each(twoProcesses)('two server processes watching one chain (%s)', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await createTestApp('postgres');
    second = await createTestApp('pglite', { env: { DATABASE_URL: first.config.databaseUrl ?? '' } });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('credits each deposit and sends each withdrawal exactly once', async () => {
    const chain = driverOf(first);
    const users = [];
    for (let index = 1; index <= 6; index += 1) {
      const user = await insertUser(first.app.db);
      const { id: coinId } = await coinByTicker(first.app.db, 'ETH');
      await deposit(first.app.db, user.id, coinId, '3');
      await chain.deposit({ network: 'ethereum', address: await depositAddress(first, user.id, 'ethereum'), amount: `1.${index}` });
      const withdrawal = await pendingWithdrawal(first, { userId: user.id, ticker: 'ETH', network: 'ethereum', address: OUTSIDE.ethereum, amount: '1', fee: '0.0008' });
      users.push({ ...user, index, withdrawal });
    }
    await chain.mine(1);
    const round1 = await Promise.all([first.app.chain.sync(), second.app.chain.sync()]);
    expect(total(round1)).toEqual({ seen: 6, credited: 6, dropped: 0, broadcast: 6, completed: 0, refunded: 0 });
    await chain.mine(1);
    const round2 = await Promise.all([first.app.chain.sync(), second.app.chain.sync()]);
    expect(total(round2)).toEqual({ seen: 0, credited: 0, dropped: 0, broadcast: 0, completed: 6, refunded: 0 });

    for (const user of users) {
      expect(await held(first, 'ETH', 'available', user.id)).toBe(new Money(3).plus(`1.${user.index}`).minus(1).toFixed());
      expect(await held(first, 'ETH', 'withdrawing', user.id)).toBe('0');
      expect(await transfersNamed(first, `withdrawal:${user.withdrawal}`)).toBe(1);
    }
    // Both processes read the chain to its end and agree where that is.
    expect(await first.app.db.one('SELECT cursor FROM chain_cursors WHERE network = $1', ['ethereum'])).toEqual(
      await first.app.db.one('SELECT max(seq)::text AS cursor FROM simulated_chain_transfers WHERE network = $1', ['ethereum']),
    );
    await expectLedgerClean(first.app.db);
  });
});

describe('the watcher’s timer', () => {
  it('runs rounds on its own every CHAIN_POLL_SECONDS, and a failing round does not stop the next', async () => {
    let failures = 2;
    const chain = wrappedChain({
      incoming: async (network, cursor, limit, simulated) => {
        if (failures > 0 && network === 'bitcoin') {
          failures -= 1;
          throw new Error('indexer unavailable');
        }
        return simulated.incoming(network, cursor, limit);
      },
    });
    const t = await createTestApp('pglite', { env: { CHAIN_POLL_SECONDS: '0.05' }, chainAdapter: chain.adapter });
    chain.bind(t);
    try {
      const user = await insertUser(t.app.db);
      const address = await depositAddress(t, user.id, 'bitcoin');
      await driverOf(t).deposit({ network: 'bitcoin', address, amount: '0.5' });
      await driverOf(t).mine(1);
      await expect.poll(async () => (await walletRows(t, user.id))[0]?.status, { timeout: 10_000 }).toBe('completed');
      expect(failures).toBe(0);
      expect(await held(t, 'BTC', 'available', user.id)).toBe('0.5');
      await expectLedgerClean(t.app.db);
    } finally {
      await t.close();
    }
  });

  it('skips a transfer it cannot store (an output index beyond integer, an oversized txid) and records the rest', async () => {
    const chain = wrappedChain({
      incoming: async (network, cursor, limit, simulated) => {
        const read = await simulated.incoming(network, cursor, limit);
        const [first] = read.transfers;
        if (network !== 'bitcoin' || !first) return read;
        const broken = [
          { ...first, vout: 2 ** 31 },
          { ...first, txid: 'f'.repeat(300) },
        ];
        return { ...read, transfers: [...broken, ...read.transfers] };
      },
    });
    const t = await createTestApp('pglite', { chainAdapter: chain.adapter });
    chain.bind(t);
    try {
      const user = await insertUser(t.app.db);
      await driverOf(t).deposit({ network: 'bitcoin', address: await depositAddress(t, user.id, 'bitcoin'), amount: '0.1' });
      expect(await t.app.chain.sync()).toMatchObject({ seen: 1 });
      await driverOf(t).mine(1);
      await t.app.chain.sync();
      expect(await walletRows(t, user.id)).toMatchObject([{ ticker: 'BTC', status: 'completed', vout: 0 }]);
      await expectLedgerClean(t.app.db);
    } finally {
      await t.close();
    }
  });

  it('rejects sync() naming the networks that failed, after working through the others', async () => {
    const chain = wrappedChain({
      incoming: async (network, cursor, limit, simulated) => {
        if (network === 'tron') throw new Error('tron node down');
        return simulated.incoming(network, cursor, limit);
      },
    });
    const t = await createTestApp('pglite', { chainAdapter: chain.adapter });
    chain.bind(t);
    try {
      const user = await insertUser(t.app.db);
      await driverOf(t).deposit({ network: 'litecoin', address: await depositAddress(t, user.id, 'litecoin'), amount: '1' });
      await expect(t.app.chain.sync()).rejects.toThrow('chain watcher round failed on tron');
      expect(await walletRows(t, user.id)).toMatchObject([{ ticker: 'LTC', status: 'pending' }]);
    } finally {
      await t.close();
    }
  });

  it('runs a round soon after kick() when the timer is on, and never when CHAIN_POLL_SECONDS is 0', async () => {
    const apps = await Promise.all([createTestApp('pglite', { env: { CHAIN_POLL_SECONDS: '3600' } }), createTestApp('pglite')]);
    try {
      /** A withdrawal waiting for its broadcast, then two kicks; answers its row's reader. */
      const kicked = async (t: TestApp) => {
        const user = await insertUser(t.app.db);
        const { id: coinId } = await coinByTicker(t.app.db, 'BTC');
        await deposit(t.app.db, user.id, coinId, '1');
        await pendingWithdrawal(t, { userId: user.id, ticker: 'BTC', network: 'bitcoin', address: OUTSIDE.bitcoin, amount: '0.1', fee: '0.00005' });
        t.app.chain.kick();
        t.app.chain.kick();
        return async () => (await walletRows(t, user.id))[0]?.txid;
      };
      const [timed, manual] = await Promise.all(apps.map(kicked));
      await expect.poll(() => timed?.(), { timeout: 5_000 }).toMatch(/^[0-9a-f]{64}$/);
      await new Promise((resolve) => setTimeout(resolve, 3 * KICK_DELAY_MS));
      expect(await manual?.()).toBeNull();
    } finally {
      await Promise.all(apps.map((t) => t.close()));
    }
  });
});
