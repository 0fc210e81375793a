import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coinsResponse, type Coin } from '../../contracts/market.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { signUp } from '../support/server-flows.ts';

describe.each(dbTargets)('POST /api/base/coins/ on %s', (target) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(target);
    token = (await signUp(t)).token;
  });
  afterAll(() => t.close());

  it('answers every coin with its places, current USD price (a decimal string) and networks', async () => {
    const answer = await t.post<Coin[]>('/api/base/coins/', {}, { token });
    expect(answer.status).toBe(200);
    expect(coinsResponse.safeParse(answer.body.info).success).toBe(true);
    expect(answer.body.info).toEqual([
      {
        id: 1,
        label: 'Bitcoin',
        ticker: 'BTC',
        image: '/coins/btc.svg',
        decimal_places: 8,
        price: '97000.00',
        networks: [{ id: 1, name: 'Bitcoin', key: 'bitcoin', image: '/coins/btc.svg' }],
      },
      {
        id: 2,
        label: 'Ethereum',
        ticker: 'ETH',
        image: '/coins/eth.svg',
        decimal_places: 8,
        price: '3400.00',
        networks: [{ id: 2, name: 'Ethereum (ERC20)', key: 'ethereum', image: '/coins/eth.svg' }],
      },
      {
        id: 3,
        label: 'Tether',
        ticker: 'USDT',
        image: '/coins/usdt.svg',
        decimal_places: 6,
        price: '1.00',
        networks: [
          { id: 3, name: 'Ethereum (ERC20)', key: 'ethereum', image: '/coins/eth.svg' },
          { id: 4, name: 'Tron (TRC20)', key: 'tron', image: '/coins/trx.svg' },
        ],
      },
      {
        id: 4,
        label: 'Litecoin',
        ticker: 'LTC',
        image: '/coins/ltc.svg',
        decimal_places: 8,
        price: '95.00',
        networks: [{ id: 5, name: 'Litecoin', key: 'litecoin', image: '/coins/ltc.svg' }],
      },
    ]);
  });

  it('answers the price the feed stored last', async () => {
    await t.app.prices.tick();
    const stored = await t.app.db.query<{ ticker: string; usd_price: string }>('SELECT ticker, usd_price FROM coins ORDER BY id');
    const answer = await t.post<Coin[]>('/api/base/coins/', {}, { token });
    expect(answer.body.info.map((coin) => [coin.ticker, coin.price])).toEqual(stored.map((row) => [row.ticker, row.usd_price]));
    expect(Object.fromEntries(t.app.prices.current())).toEqual(Object.fromEntries(stored.map((row) => [row.ticker, row.usd_price])));
  });

  it('lists a coin without networks with an empty list', async () => {
    await t.app.db.query(`INSERT INTO coins (label, ticker, decimal_places, usd_price, image) VALUES ('Dogecoin', 'DOGE', 8, '0.38', '/coins/doge.svg')`);
    const answer = await t.post<Coin[]>('/api/base/coins/', {}, { token });
    expect(answer.body.info.at(-1)).toMatchObject({ ticker: 'DOGE', price: '0.38', networks: [] });
  });

  it('accepts no body at all, as the spec sends it', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/base/coins/', headers: { authorization: `Bearer ${token}` } });
    expect(response.statusCode).toBe(200);
  });

  it('needs a session', async () => {
    expect(await t.post('/api/base/coins/', {})).toEqual({ status: 401, body: { success: false, info: 'Session expired' } });
  });
});
