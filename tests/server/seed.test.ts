import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginResponse, SessionResponse } from '../../contracts/security.ts';
import { totpCode } from '../../server/src/accounts/totp.ts';
import type { OfferList } from '../../contracts/market.ts';
import { walletHistory, type WalletHistory } from '../../contracts/wallet.ts';
import { DEMO_OFFERS, DEMO_PASSWORD, DEMO_TOTP_SECRET, seedDemo, seedReference } from '../../server/src/seed.ts';
import type { Db } from '../../server/src/infra/db/db.ts';
import { prepareDatabase } from '../../server/src/infra/db/db.plugin.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { login } from '../support/server-flows.ts';
import { expectLedgerClean } from '../support/server-money.ts';

/** `db`, with the name of each of its methods called (a helper, such as `one`, counts once). */
function counted(db: Db): { db: Db; calls: string[] } {
  const calls: string[] = [];
  const wrapped = new Proxy(db, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(key));
        return (value as (...args: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { db: wrapped, calls };
}

describe.each(dbTargets)('demo data (SEED_DEMO) on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  it('signs alice, bob and carol in with the demo password', async () => {
    for (const name of ['alice', 'bob', 'carol']) {
      const answer = await login(t, name, DEMO_PASSWORD);
      expect(answer.body.info, name).toMatchObject({ two_factor: false, user: { username: name, email: `${name}@peerex.test` } });
    }
    expect((await login(t, 'bob@peerex.test', DEMO_PASSWORD)).status).toBe(200);
  });

  it('signs mod in, the demo moderator: the dispute desk answers them; no offers, no balance', async () => {
    const answer = await login(t, 'mod', DEMO_PASSWORD);
    expect(answer.body.info).toMatchObject({ two_factor: false, user: { username: 'mod', email: 'mod@peerex.test', role: 'moderator' } });
    const token = (answer.body.info as LoginResponse).token;
    expect(await t.post('/api/market/moderation/', { type: 'list' }, { token })).toEqual({ status: 200, body: { success: true, info: [] } });
    expect(await t.app.db.one(`SELECT count(*)::int AS offers FROM offers o JOIN users u ON u.id = o.user_id WHERE u.username = 'mod'`)).toEqual({ offers: 0 });
    expect(
      await t.app.db.one(`SELECT count(*)::int AS accounts FROM ledger_accounts a JOIN users u ON u.id = a.user_id WHERE u.username = 'mod'`),
    ).toEqual({ accounts: 0 });
    // Every other demo user is a trader.
    const alice = (await login(t, 'alice', DEMO_PASSWORD)).body.info as LoginResponse;
    expect(alice).toMatchObject({ user: { role: 'trader' } });
  });

  it('signs dave in with two-factor on the fixed secret JBSWY3DPEHPK3PXP', async () => {
    const first = (await login(t, 'dave', DEMO_PASSWORD)).body.info as LoginResponse;
    expect(first).toMatchObject({ two_factor: true, user: { username: 'dave' } });
    const answer = await t.post<SessionResponse>('/api/security/two_factor_login/', {
      token: first.token,
      code: await totpCode(DEMO_TOTP_SECRET, t.clock.now()),
      device: 'seed test',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.info.user).toMatchObject({ username: 'dave', email: 'dave@peerex.test' });
  });

  it('holds the coins with their networks, exact prices and local images', async () => {
    const coins = await t.app.db.query<{ ticker: string; decimal_places: number; usd_price: string; image: string; networks: string[] }>(
      `SELECT c.ticker, c.decimal_places, c.usd_price, c.image, array_agg(n.key ORDER BY n.key) AS networks
       FROM coins c JOIN coin_networks n ON n.coin_id = c.id GROUP BY c.id ORDER BY c.id`,
    );
    expect(coins).toEqual([
      { ticker: 'BTC', decimal_places: 8, usd_price: '97000.00', image: '/coins/btc.svg', networks: ['bitcoin'] },
      { ticker: 'ETH', decimal_places: 8, usd_price: '3400.00', image: '/coins/eth.svg', networks: ['ethereum'] },
      { ticker: 'USDT', decimal_places: 6, usd_price: '1.00', image: '/coins/usdt.svg', networks: ['ethereum', 'tron'] },
      { ticker: 'LTC', decimal_places: 8, usd_price: '95.00', image: '/coins/ltc.svg', networks: ['litecoin'] },
    ]);
  });

  it('holds the reference fiat currencies and payment methods', async () => {
    const fiat = await t.app.db.query<{ code: string; usd_rate: string }>('SELECT code, usd_rate FROM fiat_currencies ORDER BY code');
    expect(fiat.map((row) => row.code)).toEqual(['BRL', 'EUR', 'GBP', 'INR', 'KES', 'NGN', 'USD']);
    expect(fiat.find((row) => row.code === 'USD')?.usd_rate).toBe('1');
    const methods = await t.app.db.query<{ name: string }>('SELECT name FROM payment_methods ORDER BY id');
    expect(methods.map((row) => row.name)).toEqual([
      'Bank Transfer',
      'SEPA',
      'Revolut',
      'Wise',
      'PayPal',
      'M-Pesa',
      'UPI',
      'Pix',
      'Cash in Person',
    ]);
  });

  it('gives alice, bob and carol a few live offers each, buying and selling, near the market rate', async () => {
    const token = ((await login(t, 'bob', DEMO_PASSWORD)).body.info as LoginResponse).token;
    const answer = await t.post<OfferList>('/api/market/offers/', { type: 'list', filters: {} }, { token });
    const offers = answer.body.info.offers;
    expect(offers).toHaveLength(DEMO_OFFERS.length);
    for (const name of ['alice', 'bob', 'carol']) {
      const own = offers.filter((offer) => offer.user__username === name);
      expect(own.length, name).toBeGreaterThanOrEqual(3);
      expect(new Set(own.map((offer) => offer.offer_type)), name).toEqual(new Set(['buy', 'sell']));
    }
    expect(offers.some((offer) => offer.user__username === 'dave')).toBe(false);
    const fx = new Map(
      (await t.app.db.query<{ code: string; usd_rate: string }>('SELECT code, usd_rate FROM fiat_currencies')).map((row) => [row.code, Number(row.usd_rate)]),
    );
    for (const offer of offers) {
      // Within 3% of the market rate, the right side of it: sellers ask more fiat per USD, buyers offer less.
      const market = fx.get(offer.currency__code) ?? NaN;
      const ratio = Number(offer.rate) / market;
      expect(offer.offer_type === 'sell' ? ratio > 1 && ratio < 1.03 : ratio < 1 && ratio > 0.97, JSON.stringify(offer)).toBe(true);
    }
    expect(offers.find((offer) => offer.user__username === 'alice' && offer.currency__code === 'EUR')).toMatchObject({
      offer_type: 'sell',
      coin__ticker: 'BTC',
      rate: '0.9384',
      min_amount: '100.00',
      max_amount: '5000.00',
      payment_methods: ['SEPA', 'Revolut', 'Wise'],
    });
  });

  it('shows each demo trader\'s offers on their dashboard', async () => {
    const token = ((await login(t, 'carol', DEMO_PASSWORD)).body.info as LoginResponse).token;
    const overview = await t.post<{ active_offers: number }>('/api/user/overview/', {}, { token });
    expect(overview.body.info.active_offers).toBe(DEMO_OFFERS.filter((offer) => offer.username === 'carol').length);
  });

  it('lists each demo trader\'s starting balances in their wallet history as completed deposits, credited by the ledger', async () => {
    const historyOf = async (name: string) => {
      const token = ((await login(t, name, DEMO_PASSWORD)).body.info as LoginResponse).token;
      const answer = await t.post<WalletHistory>('/api/user/wallet/', { type: 'history' }, { token });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(walletHistory.safeParse(answer.body.info).success).toBe(true);
      return answer.body.info.transactions;
    };
    // A chain-shaped txid that no chain made: the SHA-256 of the ledger reference, 0x-prefixed on ethereum.
    const txidOf = (reference: string, network: string) =>
      `${network === 'ethereum' ? '0x' : ''}${createHash('sha256').update(reference).digest('hex')}`;
    // Seeded in one moment, coin by coin: the newest (highest id) first.
    const expected = [
      { ticker: 'LTC', network: 'litecoin', amount_crypto: '300.00000000', amount_usd: '28500.00', fee_crypto: '0.00000000' },
      { ticker: 'USDT', network: 'ethereum', amount_crypto: '50000.000000', amount_usd: '50000.00', fee_crypto: '0.000000' },
      { ticker: 'ETH', network: 'ethereum', amount_crypto: '40.00000000', amount_usd: '136000.00', fee_crypto: '0.00000000' },
      { ticker: 'BTC', network: 'bitcoin', amount_crypto: '2.00000000', amount_usd: '194000.00', fee_crypto: '0.00000000' },
    ];
    for (const name of ['alice', 'bob', 'carol']) {
      const rows = await historyOf(name);
      expect(rows.map((row) => ({ ticker: row.coin__ticker, network: row.network, amount_crypto: row.amount_crypto, amount_usd: row.amount_usd, fee_crypto: row.fee_crypto })), name).toEqual(expected);
      for (const row of rows) {
        expect(row).toMatchObject({ trans_type: 'deposit', status: 'completed', scope: 'external', fee_usd: '0.00' });
        expect(row.txid).toBe(txidOf(`deposit:demo-${name}-${row.coin__ticker}`, row.network));
      }
    }
    // dave, the two-factor demo, holds nothing: no deposits either.
    expect(
      await t.app.db.one("SELECT count(*)::int AS rows FROM wallet_transactions w JOIN users u ON u.id = w.user_id WHERE u.username = 'dave'"),
    ).toEqual({ rows: 0 });
    // Each row names the entry that credited it, received at no address, output 0.
    const stored = await t.app.db.query<{ credit_reference: string; vout: number; address: string | null; credited: boolean }>(
      `SELECT w.credit_reference, w.vout, w.address, EXISTS (SELECT 1 FROM ledger_entries e WHERE e.reference = w.credit_reference) AS credited
       FROM wallet_transactions w ORDER BY w.id`,
    );
    expect(stored).toHaveLength(12);
    for (const row of stored) expect(row).toMatchObject({ credit_reference: expect.stringMatching(/^deposit:demo-(alice|bob|carol)-[A-Z]+$/), vout: 0, address: null, credited: true });
    await expectLedgerClean(t.app.db);
  });

  it('seeds only an empty database, so running it again changes nothing', async () => {
    const count = () => t.app.db.one<{ users: number; coins: number; offers: number; methods: number }>(
      `SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM coins) AS coins,
              (SELECT count(*)::int FROM offers) AS offers, (SELECT count(*)::int FROM payment_methods) AS methods`,
    );
    const before = await count();
    expect(await seedDemo(t.app.db, { passwords: t.app.passwords, keys: t.app.keys, now: t.clock.now })).toBe(false);
    expect(await seedReference(t.app.db)).toEqual([]);
    expect(await count()).toEqual(before);
  });

  it('a start on the migrated and seeded database reads it once, and writes nothing', async () => {
    const { db, calls } = counted(t.app.db);
    expect(await prepareDatabase(db, { demo: { passwords: t.app.passwords, keys: t.app.keys, now: t.clock.now } })).toEqual({ applied: [], filled: [], seeded: false });
    expect(calls).toEqual(['one']);
  });
});

describe.each(dbTargets)('an empty database without SEED_DEMO on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { env: { SEED_DEMO: 'false' } });
  });
  afterAll(() => t.close());

  it('has no demo traders or offers', async () => {
    expect(await t.app.db.one('SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM offers) AS offers')).toEqual({
      users: 0,
      offers: 0,
    });
    expect((await login(t, 'alice', DEMO_PASSWORD)).status).toBe(400);
  });

  it('still has the reference data: coins with networks, fiat currencies, payment methods', async () => {
    expect(
      await t.app.db.one(
        `SELECT (SELECT count(*)::int FROM coins) AS coins, (SELECT count(*)::int FROM coin_networks) AS networks,
                (SELECT count(*)::int FROM fiat_currencies) AS fiat, (SELECT count(*)::int FROM payment_methods) AS methods`,
      ),
    ).toEqual({ coins: 4, networks: 5, fiat: 7, methods: 9 });
  });

  it('fills a reference table an operator emptied, and leaves the others as they are', async () => {
    await t.app.db.query("UPDATE fiat_currencies SET name = 'Euro (edited)' WHERE code = 'EUR'");
    await t.app.db.query('DELETE FROM payment_methods');
    expect(await seedReference(t.app.db)).toEqual(['payment_methods']);
    expect(await t.app.db.one("SELECT name FROM fiat_currencies WHERE code = 'EUR'")).toEqual({ name: 'Euro (edited)' });
    expect(await t.app.db.one('SELECT count(*)::int AS methods FROM payment_methods')).toEqual({ methods: 9 });
  });

  it("a start's one read misses neither an emptied reference table nor, with SEED_DEMO, a database without users", async () => {
    await t.app.db.query('DELETE FROM payment_methods');
    expect(await prepareDatabase(t.app.db)).toEqual({ applied: [], filled: ['payment_methods'], seeded: false });
    expect(await prepareDatabase(t.app.db)).toEqual({ applied: [], filled: [], seeded: false });
    expect(await prepareDatabase(t.app.db, { demo: { passwords: t.app.passwords, keys: t.app.keys, now: t.clock.now } })).toEqual({ applied: [], filled: [], seeded: true });
  });
});
