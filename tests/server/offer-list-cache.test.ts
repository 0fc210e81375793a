import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OfferList } from '../../contracts/market.ts';
import { createOfferListCache, offerListKey } from '../../server/src/offers/offer-list-cache.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { listOffers } from '../support/server-flows.ts';
import { act, openTrade, sellOffer, trader, type Trader } from '../support/server-trades.ts';

/** A promise that settles when told to, so a test can hold a computation in flight. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('the offer-list cache', () => {
  const setup = (ttlMs = 5000, maxEntries = 100) => {
    const clock = { at: 0 };
    const cache = createOfferListCache<string>({ ttlMs, maxEntries, now: () => clock.at });
    let computed = 0;
    const compute = (value: string) => () => {
      computed += 1;
      return Promise.resolve(value);
    };
    return { clock, cache, compute, computed: () => computed };
  };

  it('computes a page once and serves it until it expires', async () => {
    const { clock, cache, compute, computed } = setup(5000);
    expect(await cache.get('a', compute('first'))).toBe('first');
    clock.at = 4999;
    expect(await cache.get('a', compute('second'))).toBe('first');
    expect(computed()).toBe(1);
    clock.at = 5000;
    expect(await cache.get('a', compute('third'))).toBe('third');
    expect(cache.stats).toEqual({ hits: 1, misses: 2 });
  });

  it('drops every page on invalidate, including one still being computed', async () => {
    const { cache, compute } = setup();
    await cache.get('a', compute('old a'));
    await cache.get('b', compute('old b'));
    const slow = deferred<string>();
    const inFlight = cache.get('c', () => slow.promise);
    cache.invalidate();
    slow.resolve('read before the write');
    expect(await inFlight).toBe('read before the write');
    expect(await cache.get('a', compute('new a'))).toBe('new a');
    expect(await cache.get('b', compute('new b'))).toBe('new b');
    expect(await cache.get('c', compute('new c'))).toBe('new c');
  });

  it('lets callers asking for the same page at once share one computation', async () => {
    const { cache } = setup();
    const slow = deferred<string>();
    let calls = 0;
    const compute = () => {
      calls += 1;
      return slow.promise;
    };
    const both = Promise.all([cache.get('a', compute), cache.get('a', compute)]);
    slow.resolve('page');
    expect(await both).toEqual(['page', 'page']);
    expect(calls).toBe(1);
  });

  it('keeps no failed computation: the next caller tries again', async () => {
    const { cache, compute } = setup();
    await expect(cache.get('a', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await cache.get('a', compute('page'))).toBe('page');
  });

  it('keeps at most maxEntries pages, dropping the least recently used', async () => {
    const { cache, compute, computed } = setup(5000, 2);
    await cache.get('a', compute('a'));
    await cache.get('b', compute('b'));
    await cache.get('a', compute('a again')); // a is now the most recent
    await cache.get('c', compute('c')); // evicts b
    expect(computed()).toBe(3);
    expect(await cache.get('a', compute('a3'))).toBe('a');
    expect(await cache.get('b', compute('b2'))).toBe('b2');
  });

  it('computes every call while disabled (or with a TTL of 0), and starts empty when enabled again', async () => {
    const off = setup(0);
    await off.cache.get('a', off.compute('1'));
    expect(await off.cache.get('a', off.compute('2'))).toBe('2');
    off.cache.setEnabled(true);
    expect(await off.cache.get('a', off.compute('3'))).toBe('3');

    const { cache, compute } = setup();
    await cache.get('a', compute('before'));
    cache.setEnabled(false);
    expect(await cache.get('a', compute('while off'))).toBe('while off');
    cache.setEnabled(true);
    expect(await cache.get('a', compute('after'))).toBe('after');
  });

  it('gives every way of asking for the same offers one key, and different offers different keys', () => {
    const key = offerListKey;
    expect(key(1, {})).toBe(key(1, { offer_type: '', coin__id: '', currency__code: '', user__username__icontains: '  ', payment_methods__overlap: [] }));
    expect(key(1, { currency__code: 'eur' })).toBe(key(1, { currency__code: 'EUR' }));
    expect(key(1, { payment_methods__overlap: ['SEPA', ' revolut'] })).toBe(key(1, { payment_methods__overlap: ['Revolut', 'sepa', 'SEPA'] }));
    expect(key(1, { coin__id: 2 })).toBe(key(1, { coin__id: '2' }));
    expect(key(1, { user__username__icontains: ' ann ' })).toBe(key(1, { user__username__icontains: 'ann' }));
    expect(key(2, {}, null)).toBe(key(2, {}));
    const different = [
      key(1, {}),
      key(2, {}),
      key(1, { offer_type: 'buy' }),
      key(1, { coin__id: 2 }),
      key(1, { currency__code: 'USD' }),
      key(1, { payment_methods__overlap: ['SEPA'] }),
      key(1, { user__username__icontains: 'ann' }),
      // Case is left to PostgreSQL's ILIKE: two spellings are two keys, never one wrong page.
      key(1, { user__username__icontains: 'Ann' }),
      // A page that starts where a paginator said (next_cursor) is not the page of the same number counted from the top.
      key(2, {}, '2026-11-29T18:45:12.123456Z_42'),
      key(2, {}, '2026-11-29T18:45:12.123457Z_42'),
    ];
    expect(new Set(different).size).toBe(different.length);
  });
});

/** An offer written straight into the table: no route, so nobody tells the cache. Answers its id. */
async function insertOfferBehindTheCache(t: TestApp, userId: string, currency: string): Promise<number> {
  const row = await t.app.db.one<{ id: number }>(
    `INSERT INTO offers (user_id, offer_type, coin_id, currency_code, rate, min_amount, max_amount, payment_method_ids, created_at, updated_at)
     VALUES ($1, 'sell', 1, $2, 1, 1, 100, ARRAY[1], $3, $3) RETURNING id::int`,
    [userId, currency, t.clock.now()],
  );
  return row.id;
}

describe.each(dbTargets)('Browse Offers from the cache on %s', (target) => {
  let t: TestApp;
  let seller: Trader;
  let buyer: Trader;
  beforeAll(async () => {
    t = await createTestApp(target);
    seller = await trader(t, { BTC: '1' });
    buyer = await trader(t);
  });
  afterAll(() => t.close());

  const idsIn = async (filters: Record<string, unknown>) => (await listOffers(t, buyer.token, filters)).body.info.offers.map((offer) => offer.id);
  const insertBehindTheCache = (currency: string) => insertOfferBehindTheCache(t, seller.id, currency);

  it('serves a page from memory, and shows a publish, an edit and a pause at once', async () => {
    const first = await sellOffer(t, seller, { currency: 'GBP' });
    expect(await idsIn({ currency__code: 'GBP' })).toEqual([first]);
    const hidden = await insertBehindTheCache('GBP');
    const hits = t.app.offerListCache.stats.hits;
    expect(await idsIn({ currency__code: 'GBP' })).toEqual([first]);
    expect(t.app.offerListCache.stats.hits).toBe(hits + 1);

    const published = await sellOffer(t, seller, { currency: 'GBP' });
    expect(await idsIn({ currency__code: 'GBP' })).toEqual([published, hidden, first]);

    const edit = await t.post('/api/market/offers/', { type: 'create', update: true, id: first, offer_type: 'sell', coin: '1', currency: 'GBP', rate: '1.25', min_amount: '1', max_amount: '100', payment_methods: ['SEPA'], terms: null }, { token: seller.token });
    expect(edit.status).toBe(200);
    expect((await listOffers(t, buyer.token, { currency__code: 'GBP' })).body.info.offers.find((offer) => offer.id === first)?.rate).toBe('1.25');

    expect((await t.post('/api/market/offers/', { type: 'toggle', id: published }, { token: seller.token })).status).toBe(200);
    expect(await idsIn({ currency__code: 'GBP' })).toEqual([hidden, first]);
  });

  it('shows a trader\'s new trades count as soon as a trade completes', async () => {
    const offer = await sellOffer(t, seller, { currency: 'KES' });
    const countOf = async () => (await listOffers(t, buyer.token, { currency__code: 'KES' })).body.info.offers.find((item) => item.id === offer)?.user__trades_count;
    const before = await countOf();
    const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
    expect((await act(t, buyer, 'mark_paid', channel)).status).toBe(200);
    expect(await countOf()).toBe(before);
    expect((await act(t, seller, 'release_coin', channel)).status).toBe(200);
    expect(await countOf()).toBe((before ?? 0) + 1);
  });
});

describe.each(dbTargets)('Browse Offers with OFFER_LIST_CACHE_SECONDS=0 on %s', (target) => {
  it('reads every page from the database', async () => {
    const t = await createTestApp(target, { env: { OFFER_LIST_CACHE_SECONDS: '0' } });
    try {
      const seller = await trader(t);
      await sellOffer(t, seller, { currency: 'NGN' });
      const list = () => listOffers(t, seller.token, { currency__code: 'NGN' });
      expect((await list()).body.info.offers).toHaveLength(1);
      await insertOfferBehindTheCache(t, seller.id, 'NGN');
      expect((await list()).body.info.offers).toHaveLength(2);
      expect(t.app.offerListCache.stats.hits).toBe(0);
    } finally {
      await t.close();
    }
  });
});

/** Two processes on one PostgreSQL database, told of each other's writes through Redis; run when both are given. */
const shared = process.env.REDIS_URL && process.env.DATABASE_URL ? [process.env.REDIS_URL] : [];

describe.each(shared)('Browse Offers across two processes through Redis at %s', (redisUrl) => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await createTestApp('postgres', { env: { REDIS_URL: redisUrl } });
    // The second process on the first one's database (its close() leaves the database to the first).
    second = await createTestApp('pglite', { env: { REDIS_URL: redisUrl, DATABASE_URL: first.config.databaseUrl ?? '' } });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('shows an offer published on one process in the other\'s next list', async () => {
    const ann = await trader(first);
    const bob = await trader(second);
    const list = async (t: TestApp, who: Trader) => (await t.post<OfferList>('/api/market/offers/', { type: 'list', filters: { currency__code: 'BRL' } }, { token: who.token })).body.info.offers.map((offer) => offer.id);
    expect(await list(second, bob)).toEqual([]);
    expect(await list(second, bob)).toEqual([]); // now served from the second process's memory
    const offer = await sellOffer(first, ann, { currency: 'BRL' });
    // The invalidation travels through Redis: give it the round trip it needs.
    await expect.poll(() => list(second, bob), { timeout: 2000, interval: 20 }).toEqual([offer]);
    expect(await list(first, bob)).toEqual([offer]); // and in the first process's memory
    expect((await second.post('/api/market/offers/', { type: 'toggle', id: offer }, { token: ann.token })).status).toBe(200);
    await expect.poll(() => list(first, bob), { timeout: 2000, interval: 20 }).toEqual([]);
  });

  it('listens again after Redis drops its connection, serving from the database meanwhile', async () => {
    const ann = await trader(first);
    const bob = await trader(second);
    const list = async () => (await second.post<OfferList>('/api/market/offers/', { type: 'list', filters: { currency__code: 'INR' } }, { token: bob.token })).body.info.offers.map((offer) => offer.id);
    const admin = new Redis(redisUrl);
    try {
      await admin.client('KILL', 'TYPE', 'pubsub');
    } finally {
      await admin.quit();
    }
    // Subscribed again once a list is served from memory once more.
    await expect
      .poll(async () => {
        const hits = second.app.offerListCache.stats.hits;
        await list();
        await list();
        return second.app.offerListCache.stats.hits > hits;
      }, { timeout: 5000, interval: 50 })
      .toBe(true);
    const offer = await sellOffer(first, ann, { currency: 'INR' });
    await expect.poll(list, { timeout: 2000, interval: 20 }).toEqual([offer]);
  });
  it('answers a write at once while Redis is gone, and the writer\'s own list still shows it', async () => {
    const ann = await trader(first);
    const admin = new Redis(redisUrl);
    try {
      // The offer-list publishers only (named by the plugin), so other suites' Redis clients are left alone.
      const clients = String(await admin.client('LIST'));
      const publishers = [...clients.matchAll(/id=(\d+) [^\n]*name=peerex-offers-publisher/g)].map((match) => match[1] ?? '');
      expect(publishers.length).toBeGreaterThan(0);
      for (const id of publishers) await admin.client('KILL', 'ID', id);
    } finally {
      await admin.quit();
    }
    // A publish that cannot be sent is logged and dropped: the write succeeds (other processes' pages then
    // live out OFFER_LIST_CACHE_SECONDS).
    const offer = await sellOffer(first, ann, { currency: 'USD' });
    const ids = (await first.post<OfferList>('/api/market/offers/', { type: 'list', filters: { currency__code: 'USD' } }, { token: ann.token })).body.info.offers.map((item) => item.id);
    expect(ids).toContain(offer);
  });
});
