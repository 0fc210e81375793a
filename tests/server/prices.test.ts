import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoinPrice, PriceFeedAdapter } from '../../server/src/prices/adapters.ts';
import { nextPrice, PEGGED_WALK, quotePlaces, simulatedPriceFeed, VOLATILE_WALK } from '../../server/src/prices/simulated.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';

/** mulberry32: a small seeded generator, so a failing walk can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const TICKS = 10_000;

describe('the simulated price walk', () => {
  it('moves by exactly the drawn step, in exact decimals', () => {
    // random 0.75 → step +0.0015 (half of the 0.3% maximum); 0.25 → −0.0015.
    expect(nextPrice('100.00', '100', VOLATILE_WALK, 0.75)).toBe('100.15');
    expect(nextPrice('100.00', '100', VOLATILE_WALK, 0.25)).toBe('99.85');
    expect(nextPrice('97000.00', '97000.00', VOLATILE_WALK, 0.5)).toBe('97000.00');
    expect(nextPrice('1.0000', '1.00', PEGGED_WALK, 1)).toBe('1.0002');
  });

  it('rounds quotes to places that suit the coin: cents from 10 USD, 4 places around 1, 8 below', () => {
    expect([quotePlaces('97000'), quotePlaces('10'), quotePlaces('9.99'), quotePlaces('1'), quotePlaces('0.38')]).toEqual([2, 2, 4, 4, 8]);
  });

  for (const [ticker, start, walk, places] of [
    ['BTC', '97000.00', VOLATILE_WALK, 2],
    ['ETH', '3400.00', VOLATILE_WALK, 2],
    ['LTC', '95.00', VOLATILE_WALK, 2],
    ['USDT', '1.00', PEGGED_WALK, 4],
    ['DOGE', '0.38', VOLATILE_WALK, 8],
  ] as const) {
    it(`keeps ${ticker} within its band for ${TICKS.toLocaleString('en-US')} ticks, each a small step, always an exact decimal`, () => {
      const random = seededRandom(ticker.length * 7919);
      const anchor = new Decimal(start);
      const low = anchor.times(new Decimal(1).minus(walk.band));
      const high = anchor.times(new Decimal(1).plus(walk.band));
      // A step is at most maxStep of the price, plus half a unit of the last place from rounding.
      const slack = new Decimal(10).pow(-places).div(2);
      const decimals = new RegExp(`^\\d+\\.\\d{${places}}$`);
      let price: string = start;
      const wrong: string[] = [];
      for (let tick = 0; tick < TICKS && wrong.length === 0; tick += 1) {
        const next = nextPrice(price, start, walk, random());
        const value = new Decimal(next);
        if (!decimals.test(next)) wrong.push(`${next} is not a ${places}-place decimal`);
        if (value.lt(low) || value.gt(high)) wrong.push(`${next} is outside ${low.toFixed()}–${high.toFixed()}`);
        if (value.minus(price).abs().gt(new Decimal(price).times(walk.maxStep).plus(slack))) wrong.push(`${price} → ${next} is too far`);
        price = next;
      }
      expect(wrong).toEqual([]);
    });
  }

  it('turns back at the edge of the band instead of leaving it', () => {
    // random 0.999 draws +0.2994%; at the top (97,000 + 25%) that would leave the band, so it is taken
    // downwards: 121,250 × 0.997006 = 120,886.9775 → 120,886.98. And the mirror image at the bottom.
    expect(nextPrice('121250.00', '97000', VOLATILE_WALK, 0.999)).toBe('120886.98');
    expect(nextPrice('72750.00', '97000', VOLATILE_WALK, 0.001)).toBe('72967.81');
  });

  it('brings a stored price from outside the band back into it', () => {
    expect(nextPrice('250000.00', '97000', VOLATILE_WALK, 0.5)).toBe('121250.00');
    expect(nextPrice('0.90', '1', PEGGED_WALK, 0.5)).toBe('0.9950');
  });

  it('anchors a coin it does not know where it first saw it', async () => {
    const feed = simulatedPriceFeed({ random: () => 0.999_999 });
    let coins: CoinPrice[] = [{ ticker: 'DOGE', usdPrice: '0.38' }];
    for (let tick = 0; tick < 500; tick += 1) {
      const quote = await feed.quote(coins);
      coins = [{ ticker: 'DOGE', usdPrice: quote.get('DOGE') ?? '' }];
    }
    // Always stepping up, it reaches the top of the band around 0.38 and stays near it.
    expect(new Decimal(coins[0]?.usdPrice ?? '0').lte('0.475')).toBe(true);
    expect(new Decimal(coins[0]?.usdPrice ?? '0').gte('0.47')).toBe(true);
  });
});

describe.each(dbTargets)('the price source on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { priceFeed: simulatedPriceFeed({ random: seededRandom(42) }) });
  });
  afterAll(() => t.close());

  const stored = async () =>
    Object.fromEntries(
      (await t.app.db.query<{ ticker: string; usd_price: string }>('SELECT ticker, usd_price FROM coins ORDER BY id')).map((row) => [
        row.ticker,
        row.usd_price,
      ]),
    );

  it('starts from the stored prices', async () => {
    expect(Object.fromEntries(t.app.prices.current())).toEqual(await stored());
  });

  it('moves every price a little on each tick, stores it and tells its listeners what changed', async () => {
    const seen: Array<Record<string, string>> = [];
    const unsubscribe = t.app.prices.subscribe((changed) => seen.push(Object.fromEntries(changed)));
    const before = await stored();
    const changed = await t.app.prices.tick();
    const after = await stored();
    expect(Object.fromEntries(changed)).toEqual(Object.fromEntries(Object.entries(after).filter(([ticker, price]) => before[ticker] !== price)));
    expect(seen).toEqual([Object.fromEntries(changed)]);
    expect(Object.fromEntries(t.app.prices.current())).toEqual(after);
    for (const [ticker, price] of Object.entries(after)) {
      const move = new Decimal(price).minus(before[ticker] ?? '0').abs().div(before[ticker] ?? '1');
      expect(move.lte('0.0031'), `${ticker} ${before[ticker]} → ${price}`).toBe(true);
    }
    unsubscribe();
    await t.app.prices.tick();
    expect(seen).toHaveLength(1);
  });

  it('walks from what the database holds, so restarts and other processes continue the same prices', async () => {
    await t.app.db.query("UPDATE coins SET usd_price = '100000.00' WHERE ticker = 'BTC'");
    await t.app.prices.tick();
    const btc = new Decimal((await stored()).BTC ?? '0');
    expect(btc.minus(100_000).abs().lte(300)).toBe(true);
  });

  it('keeps ticking for the other listeners when one throws', async () => {
    const seen: number[] = [];
    const dropBroken = t.app.prices.subscribe(() => {
      throw new Error('broken subscriber');
    });
    const dropGood = t.app.prices.subscribe((changed) => seen.push(changed.size));
    await t.app.prices.tick();
    expect(seen).toHaveLength(1);
    dropBroken();
    dropGood();
  });
});

describe.each(dbTargets)('a price adapter that misbehaves, on %s', (target) => {
  let t: TestApp;
  let answer: () => Promise<Map<string, string>>;
  const adapter: PriceFeedAdapter = { name: 'simulated', quote: () => answer(), close: async () => {} };
  beforeAll(async () => {
    t = await createTestApp(target, { priceFeed: adapter });
  });
  afterAll(() => t.close());

  it('keeps the stored price for a quote that is not a positive decimal, and ignores unknown coins', async () => {
    const before = Object.fromEntries(t.app.prices.current());
    answer = async () =>
      new Map([
        ['BTC', 'abc'],
        ['ETH', '0'],
        ['USDT', '-1'],
        ['LTC', '1e5'],
        ['XRP', '5'],
      ]);
    expect((await t.app.prices.tick()).size).toBe(0);
    expect(Object.fromEntries(t.app.prices.current())).toEqual(before);
  });

  it('survives an adapter that throws: that tick fails, the next one works', async () => {
    answer = () => Promise.reject(new Error('exchange down'));
    await expect(t.app.prices.tick()).rejects.toThrow('exchange down');
    answer = async () => new Map([['ETH', '3500.5']]);
    expect(Object.fromEntries(await t.app.prices.tick())).toEqual({ ETH: '3500.5' });
  });
});

describe('the price timer', () => {
  it('ticks on its own every PRICE_TICK_SECONDS and stops when the app closes', async () => {
    const t = await createTestApp('pglite', { env: { PRICE_TICK_SECONDS: '0.05' } });
    let ticks = 0;
    try {
      const ticked = new Promise<number>((resolve) =>
        t.app.prices.subscribe((changed) => {
          ticks += 1;
          resolve(changed.size);
        }),
      );
      expect(await ticked).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
    const afterClose = ticks;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ticks).toBe(afterClose);
  });
});
