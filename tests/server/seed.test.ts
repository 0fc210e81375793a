import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginResponse, SessionResponse } from '../../contracts/security.ts';
import { totpCode } from '../../server/src/lib/totp.ts';
import { DEMO_PASSWORD, DEMO_TOTP_SECRET, seedDemo } from '../../server/src/seed.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { login } from '../support/server-flows.ts';

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
      { ticker: 'ETH', decimal_places: 8, usd_price: '3400.00', image: '/coins/eth.svg', networks: ['erc20'] },
      { ticker: 'USDT', decimal_places: 6, usd_price: '1.00', image: '/coins/usdt.svg', networks: ['erc20', 'trc20'] },
      { ticker: 'LTC', decimal_places: 8, usd_price: '95.00', image: '/coins/ltc.svg', networks: ['litecoin'] },
    ]);
  });

  it('holds the fiat currencies and payment methods of the contract', async () => {
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

  it('seeds only an empty database, so running it again changes nothing', async () => {
    const count = () => t.app.db.one<{ users: number; coins: number }>(
      'SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM coins) AS coins',
    );
    const before = await count();
    expect(await seedDemo(t.app.db, { passwords: t.app.passwords, keys: t.app.keys, now: t.clock.now })).toBe(false);
    expect(await count()).toEqual(before);
  });
});

describe('an empty database without SEED_DEMO', () => {
  it('has no demo data', async () => {
    const t = await createTestApp('pglite', { env: { SEED_DEMO: 'false' } });
    try {
      expect(await t.app.db.one('SELECT count(*)::int AS users FROM users')).toEqual({ users: 0 });
      expect((await login(t, 'alice', DEMO_PASSWORD)).status).toBe(400);
    } finally {
      await t.close();
    }
  });
});
