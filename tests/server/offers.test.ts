import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from 'decimal.js';
import { z } from 'zod/mini';
import { editableOffer, offerComponents, offerList, type OfferComponents, type OfferList, type OfferListItem } from '../../contracts/market.ts';
import { cursorOf, formatRate, likeContains, OFFERS_PAGE_SIZE } from '../../server/src/offers/offers.ts';
import { FEW_TRADERS, offersRepository, WALK_ENTRIES, type OfferPage, type OfferQuery, type PageStart } from '../../server/src/offers/offers.repository.ts';
import { createTestApp, dbTargets, MINUTE, type TestApp } from '../support/server.ts';
import { listOffers, offerBody, publishOffer, signUp } from '../support/server-flows.ts';

const OFFERS = '/api/market/offers/';
type Trader = Awaited<ReturnType<typeof signUp>>;

const trader = (username: string) => ({ username, email: `${username.toLowerCase()}@example.test`, password: 'correct-horse-9' });

/** Coin ids by ticker, as the offer form learns them from `components`. */
async function coinIds(t: TestApp, token: string): Promise<Record<string, number>> {
  const answer = await t.post<OfferComponents>(OFFERS, { type: 'components' }, { token });
  return Object.fromEntries(answer.body.info.coins.map((coin) => [coin.ticker, coin.id]));
}

const idsOf = (list: { body: { info: OfferList } }) => list.body.info.offers.map((offer) => offer.id);
/** The ids of a page as the repository answers it (its offers are JSON text). */
const idsOfPage = (page: OfferPage) => (JSON.parse(page.offers) as OfferListItem[]).map((offer) => offer.id);
/** Browse Offers' answer, as the web app parses it. */
const offerListAnswer = z.object({ success: z.literal(true), info: offerList });

describe.each(dbTargets)('POST /api/market/offers/ {type:"components"} on %s', (target) => {
  let t: TestApp;
  let someone: Trader;
  beforeAll(async () => {
    t = await createTestApp(target);
    someone = await signUp(t);
  });
  afterAll(() => t.close());

  it('answers the payment methods, coins and fiat currencies (with their market rate) the form offers', async () => {
    const answer = await t.post<OfferComponents>(OFFERS, { type: 'components' }, { token: someone.token });
    expect(answer.status).toBe(200);
    expect(offerComponents.safeParse(answer.body.info).success).toBe(true);
    expect(answer.body.info.payment_methods.map((method) => method.name)).toEqual([
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
    expect(answer.body.info.coins).toEqual([
      { id: 1, label: 'Bitcoin', ticker: 'BTC', image: '/coins/btc.svg' },
      { id: 2, label: 'Ethereum', ticker: 'ETH', image: '/coins/eth.svg' },
      { id: 3, label: 'Tether', ticker: 'USDT', image: '/coins/usdt.svg' },
      { id: 4, label: 'Litecoin', ticker: 'LTC', image: '/coins/ltc.svg' },
    ]);
    expect(answer.body.info.currencies).toEqual([
      { code: 'BRL', name: 'Brazilian Real', fx_rate: '5.80' },
      { code: 'EUR', name: 'Euro', fx_rate: '0.92' },
      { code: 'GBP', name: 'British Pound', fx_rate: '0.79' },
      { code: 'INR', name: 'Indian Rupee', fx_rate: '84.50' },
      { code: 'KES', name: 'Kenyan Shilling', fx_rate: '129.20' },
      { code: 'NGN', name: 'Nigerian Naira', fx_rate: '1650.00' },
      { code: 'USD', name: 'US Dollar', fx_rate: '1.00' },
    ]);
  });

  it('accepts the offer form\'s drop: 10 and answers the same', async () => {
    const plain = await t.post(OFFERS, { type: 'components' }, { token: someone.token });
    const withDrop = await t.post(OFFERS, { type: 'components', drop: 10 }, { token: someone.token });
    expect(withDrop).toEqual(plain);
  });

  it('needs a session, for every type', async () => {
    for (const type of ['components', 'list', 'get', 'create', 'toggle']) {
      expect(await t.post(OFFERS, { type, id: 1 }), type).toEqual({ status: 401, body: { success: false, info: 'Session expired' } });
    }
  });
});

describe.each(dbTargets)('POST /api/market/offers/ {type:"list"}: filters on %s', (target) => {
  let t: TestApp;
  let ann: Trader;
  let bob: Trader;
  let zed: Trader;
  let coin: Record<string, number>;
  /** The fixture's offers by name, published one minute apart in this order. */
  const f: Record<string, number> = {};
  let f3Created: string;

  beforeAll(async () => {
    t = await createTestApp(target);
    ann = await signUp(t, trader('Ann_Seller'));
    bob = await signUp(t, trader('bob_Buyer'));
    zed = await signUp(t, trader('zed42'));
    coin = await coinIds(t, ann.token);
    const publish = async (name: string, owner: Trader, fields: Record<string, unknown>) => {
      t.clock.advance(MINUTE);
      f[name] = await publishOffer(t, owner.token, fields);
    };
    await publish('F1', ann, { offer_type: 'sell', coin: coin.BTC, currency: 'EUR', payment_methods: ['SEPA', 'Revolut'] });
    await publish('F2', bob, { offer_type: 'buy', coin: coin.ETH, currency: 'USD', rate: '1', payment_methods: ['PayPal'] });
    await publish('F3', zed, { offer_type: 'sell', coin: coin.USDT, currency: 'NGN', rate: '1680.5', payment_methods: ['Bank Transfer'] });
    f3Created = t.clock.now().toISOString();
    await publish('F4', ann, { offer_type: 'buy', coin: coin.BTC, currency: 'USD', rate: '0.99', payment_methods: ['Wise', 'PayPal'] });
    await publish('F5', bob, { offer_type: 'sell', coin: coin.LTC, currency: 'EUR', payment_methods: ['SEPA'] });
    await publish('F6', zed, { offer_type: 'buy', coin: coin.BTC, currency: 'EUR', payment_methods: ['Revolut', 'Cash in Person'] });
    await publish('F7', zed, { offer_type: 'sell', coin: coin.ETH, currency: 'GBP', rate: '0.8', payment_methods: ['Wise'] });
    // F6 is paused: it must never show in any list below.
    const paused = await t.post(OFFERS, { type: 'toggle', id: f.F6 }, { token: zed.token });
    expect(paused.body.info).toEqual({ is_active: false, message: 'Offer paused.' });
  });
  afterAll(() => t.close());

  const list = (filters: Record<string, unknown>, page?: number) => listOffers(t, ann.token, filters, page);
  const expectIds = async (filters: Record<string, unknown>, names: string[]) => {
    const answer = await list(filters);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(idsOf(answer), JSON.stringify(filters)).toEqual(names.map((name) => f[name]));
  };

  it('lists every active offer, newest first, paused ones left out', async () => {
    await expectIds({}, ['F7', 'F5', 'F4', 'F3', 'F2', 'F1']);
  });

  it('answers each list item with the spec\'s fields: decimal strings, 2-place amounts, the trader\'s figures', async () => {
    const answer = await list({});
    expect(offerList.safeParse(answer.body.info).success).toBe(true);
    expect(answer.body.info.offers.find((offer) => offer.id === f.F3)).toEqual({
      id: f.F3,
      offer_type: 'sell',
      coin__image: '/coins/usdt.svg',
      coin__label: 'Tether',
      coin__ticker: 'USDT',
      currency__code: 'NGN',
      rate: '1680.50',
      min_amount: '100.00',
      max_amount: '1000.00',
      payment_methods: ['Bank Transfer'],
      user__username: 'zed42',
      // Nobody has traded with or rated zed42 (tests/server/reputation.test.ts has the figures of traders who have).
      user__rating: '0.00',
      user__trades_count: 0,
      user__ratings_count: 0,
      user__completion_rate: null,
      user__rated_by: 0,
      created: f3Created,
      // No conditions set: anyone may take it, 3 pending trades at once (tests/server/offer-conditions.test.ts has the rest).
      min_completed_trades: 0,
      min_account_days: 0,
      require_two_factor: false,
      max_open_trades: 3,
    });
  });

  it('answers the page as the JSON the contract writes: the database\'s text is, byte for byte, what the contract makes of it', async () => {
    for (const filters of [{}, { offer_type: 'sell' }, { user__username__icontains: 'zed' }, { payment_methods__overlap: ['Wise'] }, { currency__code: 'JPY' }]) {
      const response = await t.app.inject({
        method: 'POST',
        url: OFFERS,
        headers: { authorization: `Bearer ${ann.token}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ type: 'list', filters }),
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      // Parsing fails on anything the contract does not accept; serialising what it accepted writes its keys in its order.
      expect(JSON.stringify(z.parse(offerListAnswer, JSON.parse(response.body))), JSON.stringify(filters)).toBe(response.body);
    }
  });

  it('writes each rate as formatRate does and each amount with 2 places, whatever places were stored', async () => {
    const rates = ['1', '0.5', '1680.5', '0.00000001', '12.3456789', '100.10', '100.123', '123456789012345678.12345678', '7.00000000'];
    const published: Record<number, string> = {};
    for (const rate of rates) published[await publishOffer(t, zed.token, { rate, min_amount: '0.5', max_amount: '123456789012345678.9' })] = rate;
    try {
      const listed = (await list({ user__username__icontains: 'zed42' })).body.info.offers.filter((offer) => offer.id in published);
      expect(listed.map((offer) => [published[offer.id], offer.rate, offer.min_amount, offer.max_amount])).toEqual(
        Object.values(published)
          .reverse()
          // The column's text has 8 places (numeric(26,8)): what formatRate is given everywhere else.
          .map((rate) => [rate, formatRate(new Decimal(rate).toFixed(8)), '0.50', '123456789012345678.90']),
      );
      expect(listed.map((offer) => offer.rate)).toEqual(
        ['7.00', '123456789012345678.12345678', '100.123', '100.10', '12.3456789', '0.00000001', '1680.50', '0.50', '1.00'],
      );
    } finally {
      for (const id of Object.keys(published)) await t.post(OFFERS, { type: 'toggle', id: Number(id) }, { token: zed.token });
    }
  });

  it('keeps the payment methods in the order the owner chose them', async () => {
    const answer = await list({});
    expect(answer.body.info.offers.find((offer) => offer.id === f.F4)?.payment_methods).toEqual(['Wise', 'PayPal']);
  });

  it('filters by offer_type', async () => {
    await expectIds({ offer_type: 'sell' }, ['F7', 'F5', 'F3', 'F1']);
    await expectIds({ offer_type: 'buy' }, ['F4', 'F2']);
  });

  it('filters by coin__id, sent as a number or as the form\'s text', async () => {
    await expectIds({ coin__id: coin.BTC }, ['F4', 'F1']);
    await expectIds({ coin__id: String(coin.BTC) }, ['F4', 'F1']);
    await expectIds({ coin__id: 999 }, []);
    await expectIds({ coin__id: 2 ** 40 }, []);
    await expectIds({ coin__id: -3 }, []);
  });

  it('filters by currency__code, ignoring case', async () => {
    await expectIds({ currency__code: 'EUR' }, ['F5', 'F1']);
    await expectIds({ currency__code: 'eur' }, ['F5', 'F1']);
    await expectIds({ currency__code: 'JPY' }, []);
  });

  it('filters by payment_methods__overlap: offers that accept ANY of the methods', async () => {
    await expectIds({ payment_methods__overlap: ['PayPal', 'Wise'] }, ['F7', 'F4', 'F2']);
    await expectIds({ payment_methods__overlap: ['Wise'] }, ['F7', 'F4']);
    await expectIds({ payment_methods__overlap: ['sepa'] }, ['F5', 'F1']);
    await expectIds({ payment_methods__overlap: ['Venmo', 'SEPA'] }, ['F5', 'F1']);
    await expectIds({ payment_methods__overlap: ['Venmo'] }, []);
    await expectIds({ payment_methods__overlap: ['Pix'] }, []);
  });

  it('filters by user__username__icontains: a case-insensitive substring of the owner\'s name', async () => {
    await expectIds({ user__username__icontains: 'ANN' }, ['F4', 'F1']);
    await expectIds({ user__username__icontains: 'zed' }, ['F7', 'F3']);
    await expectIds({ user__username__icontains: 'buyer' }, ['F5', 'F2']);
    await expectIds({ user__username__icontains: 'nobody' }, []);
  });

  it('takes % and _ in the trader search literally, not as wildcards', async () => {
    // As wildcards, "_" would match every name and "n_s" would also match "nXs"; "b%b" would match "bob_Buyer".
    await expectIds({ user__username__icontains: '_' }, ['F5', 'F4', 'F2', 'F1']);
    await expectIds({ user__username__icontains: 'n_s' }, ['F4', 'F1']);
    await expectIds({ user__username__icontains: 'z_d' }, []);
    await expectIds({ user__username__icontains: '%' }, []);
    await expectIds({ user__username__icontains: 'b%b' }, []);
    await expectIds({ user__username__icontains: '\\' }, []);
  });

  it('takes the search as the escaped pattern likeContains makes of it, in the repository as on the route', async () => {
    const repository = offersRepository(t.app.db);
    const byPattern = async (search: string) => idsOfPage(await repository.listPage({ usernamePattern: likeContains(search) }, { offset: 0 }, OFFERS_PAGE_SIZE));
    expect(await byPattern('n_s')).toEqual([f.F4, f.F1]);
    expect(await byPattern('_')).toEqual([f.F5, f.F4, f.F2, f.F1]);
    expect(await byPattern('%')).toEqual([]);
  });

  it('combines filters: every one given must hold', async () => {
    await expectIds({ offer_type: 'sell', currency__code: 'EUR' }, ['F5', 'F1']);
    await expectIds({ coin__id: coin.BTC, offer_type: 'buy' }, ['F4']);
    await expectIds({ payment_methods__overlap: ['Wise', 'SEPA'], offer_type: 'sell' }, ['F7', 'F5', 'F1']);
    await expectIds(
      {
        user__username__icontains: 'ann',
        payment_methods__overlap: ['SEPA', 'Wise'],
        offer_type: 'sell',
        coin__id: coin.BTC,
        currency__code: 'eur',
      },
      ['F1'],
    );
    await expectIds(
      { user__username__icontains: 'ann', payment_methods__overlap: ['SEPA'], offer_type: 'sell', coin__id: coin.LTC, currency__code: 'EUR' },
      [],
    );
  });

  it('treats empty filter entries as no filter (only non-empty entries count)', async () => {
    await expectIds(
      { user__username__icontains: '', payment_methods__overlap: [], offer_type: '', coin__id: '', currency__code: '' },
      ['F7', 'F5', 'F4', 'F3', 'F2', 'F1'],
    );
    await expectIds({ user__username__icontains: '   ', payment_methods__overlap: [''] }, ['F7', 'F5', 'F4', 'F3', 'F2', 'F1']);
  });

  it('shows a paused offer again once its owner resumes it', async () => {
    const resumed = await t.post(OFFERS, { type: 'toggle', id: f.F6 }, { token: zed.token });
    expect(resumed.body.info).toEqual({ is_active: true, message: 'Offer resumed.' });
    await expectIds({ offer_type: 'buy' }, ['F6', 'F4', 'F2']);
    await t.post(OFFERS, { type: 'toggle', id: f.F6 }, { token: zed.token });
    await expectIds({ offer_type: 'buy' }, ['F4', 'F2']);
  });
});

describe.each(dbTargets)('POST /api/market/offers/ {type:"list"}: pages on %s', (target) => {
  let t: TestApp;
  let pat: Trader;
  let quinn: Trader;
  /** Every offer, newest first. */
  let newestFirst: number[];

  beforeAll(async () => {
    t = await createTestApp(target);
    pat = await signUp(t, trader('pat'));
    quinn = await signUp(t, trader('quinn'));
    const ids: number[] = [];
    for (let i = 0; i < 25; i += 1) {
      // Pat publishes 12, Quinn 13; the last two share one instant, so only the id orders them.
      if (i < 24) t.clock.advance(MINUTE);
      ids.push(await publishOffer(t, (i % 2 === 0 && i < 24 ? pat : quinn).token, { min_amount: String(10 + i) }));
    }
    newestFirst = ids.reverse();
  });
  afterAll(() => t.close());

  /** The cursor a paginator names when the offer with this id ends its page. */
  const cursorAt = (id: number | undefined) => expect.stringMatching(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z_${id}$`));
  const listFrom = (page: number, cursor: unknown, filters: Record<string, unknown> = {}) =>
    t.post<OfferList>(OFFERS, { type: 'list', page, cursor, filters }, { token: pat.token });

  it('pages by 12, newest first, with Previous and Next as the paginator says', async () => {
    const first = await listOffers(t, pat.token);
    expect(first.body.info.paginator).toEqual({ prev: false, next: true, previous_page: null, next_page: 2, next_cursor: cursorAt(newestFirst[11]) });
    expect(idsOf(first)).toEqual(newestFirst.slice(0, 12));

    const second = await listOffers(t, pat.token, {}, 2);
    expect(second.body.info.paginator).toEqual({ prev: true, next: true, previous_page: 1, next_page: 3, next_cursor: cursorAt(newestFirst[23]) });
    expect(idsOf(second)).toEqual(newestFirst.slice(12, 24));

    const last = await listOffers(t, pat.token, {}, 3);
    expect(last.body.info.paginator).toEqual({ prev: true, next: false, previous_page: 2, next_page: null, next_cursor: null });
    expect(idsOf(last)).toEqual(newestFirst.slice(24));
  });

  it('pages from where the last page ended when sent its next_cursor, as by page number, with the filters given', async () => {
    const first = await listOffers(t, pat.token);
    const second = await listFrom(2, first.body.info.paginator.next_cursor);
    expect(second.body).toEqual((await listOffers(t, pat.token, {}, 2)).body);
    const last = await listFrom(3, second.body.info.paginator.next_cursor);
    expect(last.body).toEqual((await listOffers(t, pat.token, {}, 3)).body);

    // The cursor is a place in the order: with a filter, the page holds that filter's offers after it.
    const quinns = await listFrom(2, first.body.info.paginator.next_cursor, { user__username__icontains: 'quinn' });
    const quinnIds = new Set(
      (await t.app.db.query<{ id: string }>("SELECT o.id FROM offers o JOIN users u ON u.id = o.user_id WHERE u.username = 'quinn'")).map((row) => Number(row.id)),
    );
    expect(idsOf(quinns)).toEqual(newestFirst.slice(12).filter((id) => quinnIds.has(id)));
    // A null cursor is none: the page is counted from the top.
    expect((await listFrom(2, null)).body).toEqual((await listOffers(t, pat.token, {}, 2)).body);
  });

  it('keeps its place by cursor while offers are published above it, where a page number shifts', async () => {
    const first = await listOffers(t, pat.token);
    t.clock.advance(MINUTE);
    const newest = await publishOffer(t, pat.token);
    try {
      const byCursor = await listFrom(2, first.body.info.paginator.next_cursor);
      expect(idsOf(byCursor)).toEqual(newestFirst.slice(12, 24));
      const byNumber = await listOffers(t, pat.token, {}, 2);
      expect(idsOf(byNumber)).toEqual(newestFirst.slice(11, 23));
    } finally {
      await t.post(OFFERS, { type: 'toggle', id: newest }, { token: pat.token });
    }
  });

  it('tells apart offers of the same instant at a page\'s end by id', async () => {
    // The two newest offers share an instant: a page of one ends between them.
    const repository = offersRepository(t.app.db);
    const one = await repository.listPage({}, { offset: 0 }, 1);
    expect(one.nextCursor).toEqual(cursorAt(newestFirst[0]));
    const next = await repository.listPage({}, { after: cursorOf(one.nextCursor ?? '') }, 1);
    expect(idsOfPage(next)).toEqual([newestFirst[1]]);
  });

  it('refuses a cursor that no paginator wrote', async () => {
    const cursor = (await listOffers(t, pat.token)).body.info.paginator.next_cursor ?? '';
    for (const bad of [
      'abc',
      '',
      cursor.replace(/_\d+$/, ''),
      cursor.replace(/^\d{4}-\d\d-\d\d/, '2026-02-30'),
      cursor.replace(/^\d{4}/, '0000'),
      cursor.replace(/T\d\d/, 'T24'),
      cursor.replace(/\.\d{6}Z/, '.123Z'),
      `${cursor.replace(/_\d+$/, '')}_1234567890123456789`,
    ]) {
      expect(await listFrom(2, bad), String(bad)).toEqual({ status: 400, body: { success: false, info: 'cursor must be a next_cursor the offer list answered' } });
    }
  });

  it('orders offers of the same instant by id, newest first', async () => {
    const [newest = 0, second = 0] = newestFirst;
    const times = await t.app.db.query<{ created_at: Date }>('SELECT created_at FROM offers WHERE id IN ($1, $2)', [newest, second]);
    expect(new Set(times.map((row) => row.created_at.getTime())).size).toBe(1);
    expect(newest).toBeGreaterThan(second);
  });

  it('pages a trader search the same way whether it reads a few traders by owner or walks all offers, by number or by cursor', async () => {
    const repository = offersRepository(t.app.db);
    const traders = (await t.app.db.query<{ id: string }>("SELECT id FROM users WHERE username IN ('pat', 'quinn') ORDER BY username")).map((row) => row.id);
    // Ids nobody has push the list past FEW_TRADERS, onto the other plan, without changing the answer.
    const many = [...traders, ...Array.from({ length: FEW_TRADERS }, (_, i) => String(900_000 + i))];
    for (const query of [{ userIds: traders }, { userIds: many }, {}] satisfies OfferQuery[]) {
      let cursor: string | null = null;
      for (const page of [1, 2, 3, 4]) {
        const offset = (page - 1) * OFFERS_PAGE_SIZE;
        const expected = newestFirst.slice(offset, offset + OFFERS_PAGE_SIZE);
        const counted = await repository.listPage(query, { offset }, OFFERS_PAGE_SIZE);
        expect(idsOfPage(counted), `${JSON.stringify(query).slice(0, 30)}: page ${page}`).toEqual(expected);
        expect(counted.hasMore, `page ${page}`).toBe(newestFirst.length > offset + OFFERS_PAGE_SIZE);
        if (page > 1) {
          if (cursor === null) expect(expected).toEqual([]);
          else {
            const start: PageStart = { after: cursorOf(cursor) };
            const followed = await repository.listPage(query, start, OFFERS_PAGE_SIZE);
            expect(followed, `${JSON.stringify(query).slice(0, 30)}: page ${page} by cursor`).toEqual(counted);
          }
        }
        cursor = counted.nextCursor;
      }
    }
    const pats = await repository.listPage({ userIds: traders.slice(0, 1), currencyCode: 'EUR' }, { offset: 0 }, OFFERS_PAGE_SIZE);
    expect(idsOfPage(pats)).toHaveLength(12);
  });

  it('says there is no next page when the last page is exactly full', async () => {
    const pats = await listOffers(t, pat.token, { user__username__icontains: 'pat' });
    expect(pats.body.info.offers).toHaveLength(12);
    expect(pats.body.info.paginator).toEqual({ prev: false, next: false, previous_page: null, next_page: null, next_cursor: null });
  });

  it('answers an empty first page when nothing matches', async () => {
    const none = await listOffers(t, pat.token, { currency__code: 'BRL' });
    expect(none.body.info).toEqual({ offers: [], paginator: { prev: false, next: false, previous_page: null, next_page: null, next_cursor: null } });
  });

  it('answers an empty page past the end, with the way back', async () => {
    const beyond = await listOffers(t, pat.token, {}, 4);
    expect(beyond.body.info).toEqual({ offers: [], paginator: { prev: true, next: false, previous_page: 3, next_page: null, next_cursor: null } });
    const far = await listOffers(t, pat.token, {}, 1_000_000);
    expect(far.body.info.offers).toEqual([]);
  });

  it('refuses a page that is not a whole number from 1', async () => {
    for (const [page, sentence] of [
      [0, 'page must be 1 or more'],
      [-1, 'page must be 1 or more'],
      [1.5, 'page must be a whole number'],
      ['2', 'page must be a number'],
      [1_000_001, 'page must be at most 1000000'],
    ] as const) {
      expect(await listOffers(t, pat.token, {}, page as number), String(page)).toEqual({
        status: 400,
        body: { success: false, info: sentence },
      });
    }
  });
});

describe.each(dbTargets)('POST /api/market/offers/ {type:"list"}: a trader search matching many traders on %s', (target) => {
  let t: TestApp;
  let viewer: Trader;
  /** Offers by owner number (crowd0000 … crowd0204), newest first overall, with their payment method names. */
  const offers: { id: number; owner: number; methods: string[] }[] = [];

  beforeAll(async () => {
    t = await createTestApp(target);
    viewer = await signUp(t, trader('viewer'));
    // 205 traders, many more than FEW_TRADERS, written straight into the table: signing them up would take a while.
    await t.app.db.query(
      `INSERT INTO users (username, email, password_hash, created_at)
       SELECT 'crowd' || lpad(g::text, 4, '0'), 'crowd' || g || '@example.test', '$argon2id$ nobody signs in with this', $1 FROM generate_series(0, $2) AS g`,
      [t.clock.now(), 204],
    );
    const methods = [['SEPA'], ['Wise', 'SEPA'], ['PayPal']];
    for (const [i, owner] of [3, 3, 7, 42, 99, 150, 204, 3, 64, 1, 5, 88, 120, 2, 9, 77, 3, 3, 3, 3, 3].entries()) {
      t.clock.advance(MINUTE);
      const chosen = methods[i % methods.length]!;
      const [row] = await t.app.db.query<{ id: string }>(
        `INSERT INTO offers (user_id, offer_type, coin_id, currency_code, rate, min_amount, max_amount, payment_method_ids, created_at, updated_at)
         SELECT u.id, 'sell', 1, 'EUR', 1, 10, 100, ARRAY(SELECT pm.id FROM payment_methods pm WHERE pm.name = ANY ($2::text[]) ORDER BY array_position($2::text[], pm.name)), $3, $3
         FROM users u WHERE u.username = $1 RETURNING id`,
        [`crowd${String(owner).padStart(4, '0')}`, chosen, t.clock.now()],
      );
      offers.unshift({ id: Number(row!.id), owner, methods: chosen });
    }
  });
  afterAll(() => t.close());

  const expectFound = async (filters: Record<string, unknown>, owners: (owner: number) => boolean, methods?: string[]) => {
    const expected = offers.filter((offer) => owners(offer.owner) && (!methods || offer.methods.some((name) => methods.includes(name))));
    const first = await listOffers(t, viewer.token, filters);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(idsOf(first), JSON.stringify(filters)).toEqual(expected.slice(0, 12).map((offer) => offer.id));
    // The next page, by number and from the first page's cursor alike.
    const byNumber = await listOffers(t, viewer.token, filters, 2);
    expect(idsOf(byNumber), `${JSON.stringify(filters)}, page 2`).toEqual(expected.slice(12, 24).map((offer) => offer.id));
    const byCursor = await t.post<OfferList>(OFFERS, { type: 'list', page: 2, filters, cursor: first.body.info.paginator.next_cursor }, { token: viewer.token });
    expect(byCursor.body).toEqual(byNumber.body);
  };

  it('reads the offers of a few traders (by owner) and of many (walking the offers) alike', async () => {
    // crowd000x: 10 traders (by owner); crowd00xx: 100 and crowd: 205 (walking, each owner checked in their hash).
    // The first three have more than a page of offers.
    await expectFound({ user__username__icontains: 'crowd000' }, (owner) => owner < 10);
    await expectFound({ user__username__icontains: 'crowd00' }, (owner) => owner < 100);
    await expectFound({ user__username__icontains: 'CROWD' }, () => true);
    await expectFound({ user__username__icontains: 'crowd02' }, (owner) => owner >= 200);
  });

  it('applies the payment methods with the trader search, however many traders match', async () => {
    for (const [search, owners] of [
      ['crowd000', (owner: number) => owner < 10],
      ['crowd00', (owner: number) => owner < 100],
      ['crowd', () => true],
    ] as const) {
      await expectFound({ user__username__icontains: search, payment_methods__overlap: ['wise'] }, owners, ['Wise']);
      await expectFound({ user__username__icontains: search, payment_methods__overlap: ['PayPal', 'Venmo'] }, owners, ['PayPal']);
      await expectFound({ user__username__icontains: search, payment_methods__overlap: ['Venmo'] }, () => false);
    }
  });

});

describe.each(dbTargets)('POST /api/market/offers/ {type:"list"}: a payment method most offers accept, and one few do, on %s', (target) => {
  let t: TestApp;
  let viewer: Trader;

  beforeAll(async () => {
    t = await createTestApp(target);
    viewer = await signUp(t, trader('viewer'));
    // Newest: more offers accepting SEPA than a walk reads before it looks the other way; under them, 15 older offers
    // accepting Pix (every third one Wise too), which that walk never reaches.
    const insert = (count: number, methods: (g: string) => string, before: number) =>
      t.app.db.query(
        `INSERT INTO offers (user_id, offer_type, coin_id, currency_code, rate, min_amount, max_amount, payment_method_ids, created_at, updated_at)
         SELECT u.id, CASE WHEN g % 2 = 0 THEN 'sell' ELSE 'buy' END, 1, 'EUR', 1, 10, 100,
                ARRAY(SELECT pm.id FROM payment_methods pm WHERE pm.name = ANY (${methods('g')}) ORDER BY pm.id),
                $2::timestamptz - ($3 + g) * interval '1 second', $2
         FROM users u, generate_series(1, $4) AS g WHERE u.username = $1`,
        [viewer.username, t.clock.now(), before, count],
      );
    await insert(WALK_ENTRIES + 100, () => "ARRAY['SEPA']", 0);
    await insert(15, (g) => `CASE WHEN ${g} % 3 = 0 THEN ARRAY['Pix', 'Wise'] ELSE ARRAY['Pix'] END`, 86_400);
  });
  afterAll(() => t.close());

  /** The live offers accepting any of the methods, newest first, straight from the table. */
  const accepting = async (methods: string[], offerType?: string) =>
    (
      await t.app.db.query<{ id: string }>(
        `SELECT id FROM offers WHERE is_active AND payment_method_ids && ARRAY(SELECT id FROM payment_methods WHERE lower(name) = ANY ($1::text[]))
           AND ($2::text IS NULL OR offer_type = $2) ORDER BY created_at DESC, id DESC`,
        [methods.map((name) => name.toLowerCase()), offerType ?? null],
      )
    ).map((row) => Number(row.id));

  it('pages alike by walking the newest offers and by reading a rare method\'s offers, by number and by cursor', async () => {
    for (const [methods, offerType] of [[['SEPA']], [['Pix']], [['pix', 'Venmo']], [['Wise']], [['Wise', 'SEPA'], 'buy'], [['Pix'], 'sell']] as const) {
      const filters = { payment_methods__overlap: [...methods], ...(offerType ? { offer_type: offerType } : {}) };
      const expected = await accepting([...methods], offerType);
      expect(expected.length, JSON.stringify(filters)).toBeGreaterThan(0);
      const first = await listOffers(t, viewer.token, filters);
      expect(idsOf(first), JSON.stringify(filters)).toEqual(expected.slice(0, 12));
      expect(first.body.info.paginator.next, JSON.stringify(filters)).toBe(expected.length > 12);
      const byNumber = await listOffers(t, viewer.token, filters, 2);
      expect(idsOf(byNumber), `${JSON.stringify(filters)}, page 2`).toEqual(expected.slice(12, 24));
      if (first.body.info.paginator.next_cursor) {
        const byCursor = await t.post<OfferList>(OFFERS, { type: 'list', page: 2, filters, cursor: first.body.info.paginator.next_cursor }, { token: viewer.token });
        expect(byCursor.body, `${JSON.stringify(filters)}, page 2 by cursor`).toEqual(byNumber.body);
      }
    }
    expect(await accepting(['Venmo'])).toEqual([]);
    expect(idsOf(await listOffers(t, viewer.token, { payment_methods__overlap: ['Venmo'] }))).toEqual([]);
  });
});

describe.each(dbTargets)('POST /api/market/offers/: get, create, update and toggle on %s', (target) => {
  let t: TestApp;
  let ann: Trader;
  let bob: Trader;
  let coin: Record<string, number>;
  beforeAll(async () => {
    t = await createTestApp(target);
    ann = await signUp(t, trader('ann'));
    bob = await signUp(t, trader('bob'));
    coin = await coinIds(t, ann.token);
  });
  afterAll(() => t.close());

  const call = (token: string, body: Record<string, unknown>) => t.post(OFFERS, body, { token });
  const refusal = (status: number, info: string) => ({ status, body: { success: false, info } });
  const stored = (id: number) =>
    t.app.db.one<{ rate: string; min_amount: string; is_active: boolean; updated_at: Date; created_at: Date }>(
      'SELECT rate, min_amount, is_active, updated_at, created_at FROM offers WHERE id = $1',
      [id],
    );

  it('publishes an offer and answers the spec\'s sentence', async () => {
    const answer = await call(ann.token, offerBody({ coin: coin.ETH }));
    expect(answer).toEqual({ status: 200, body: { success: true, info: 'Offer published successfully.' } });
  });

  it('loads one\'s own offer as the edit form needs it', async () => {
    const id = await publishOffer(t, ann.token, {
      offer_type: 'buy',
      coin: coin.LTC,
      currency: 'gbp',
      rate: '0.78123456',
      min_amount: '25.5',
      max_amount: '250',
      payment_methods: ['wise', 'Revolut'],
      terms: '  Be <b>quick</b> & polite.  ',
    });
    const answer = await call(ann.token, { type: 'get', id });
    expect(answer).toEqual({
      status: 200,
      body: {
        success: true,
        info: {
          id,
          offer_type: 'buy',
          coin__id: coin.LTC,
          rate: '0.78123456',
          payment_methods: ['Wise', 'Revolut'],
          currency__code: 'GBP',
          terms: '  Be <b>quick</b> & polite.  ',
          min_amount: '25.50',
          max_amount: '250.00',
          is_active: true,
          min_completed_trades: 0,
          min_account_days: 0,
          require_two_factor: false,
          max_open_trades: 3,
        },
      },
    });
    expect(editableOffer.safeParse(answer.body.info).success).toBe(true);
  });

  it('answers someone else\'s offer, active or paused, exactly like an unknown one (404), so paused offers cannot be probed', async () => {
    const id = await publishOffer(t, ann.token);
    const paused = await publishOffer(t, ann.token);
    expect((await call(ann.token, { type: 'toggle', id: paused })).status).toBe(200);
    const unknown = await call(bob.token, { type: 'get', id: 987_654 });
    expect(unknown).toEqual(refusal(404, 'This offer does not exist.'));
    expect(await call(bob.token, { type: 'get', id })).toEqual(unknown);
    expect(await call(bob.token, { type: 'get', id: paused })).toEqual(unknown);
    for (const probe of [offerBody({ update: true, id: paused }), { type: 'toggle', id: paused }]) {
      expect(await call(bob.token, probe)).toEqual(unknown);
    }
    // The owner still loads both.
    expect((await call(ann.token, { type: 'get', id: paused })).body.info).toMatchObject({ id: paused, is_active: false });
  });

  it('updates one\'s own offer, keeping its place in the list', async () => {
    const id = await publishOffer(t, ann.token);
    const before = await stored(id);
    t.clock.advance(MINUTE);
    const answer = await call(ann.token, offerBody({ update: true, id, rate: '0.95', min_amount: '150', payment_methods: ['Revolut'], terms: 'New terms' }));
    expect(answer).toEqual({ status: 200, body: { success: true, info: 'Offer updated successfully.' } });
    const loaded = await call(ann.token, { type: 'get', id });
    expect(loaded.body.info).toMatchObject({ rate: '0.95', min_amount: '150.00', payment_methods: ['Revolut'], terms: 'New terms' });
    const after = await stored(id);
    expect(after.created_at).toEqual(before.created_at);
    expect(after.updated_at.getTime()).toBe(before.updated_at.getTime() + MINUTE);
  });

  it('refuses to update someone else\'s offer and leaves it as it was', async () => {
    const id = await publishOffer(t, ann.token, { rate: '0.91' });
    expect(await call(bob.token, offerBody({ update: true, id, rate: '5' }))).toEqual(refusal(404, 'This offer does not exist.'));
    expect((await stored(id)).rate).toBe('0.91000000');
  });

  it('refuses to update an unknown offer, or one not named', async () => {
    expect(await call(ann.token, offerBody({ update: true, id: 987_654 }))).toEqual(refusal(404, 'This offer does not exist.'));
    expect(await call(ann.token, offerBody({ update: true, id: null }))).toEqual(refusal(400, 'id is required to update an offer.'));
    expect(await call(ann.token, offerBody({ update: true, id: undefined }))).toEqual(refusal(400, 'id is required to update an offer.'));
  });

  it('publishes a new offer when update is false, whatever id comes along', async () => {
    const bobs = await publishOffer(t, bob.token, { rate: '0.97' });
    const mine = await publishOffer(t, ann.token, { id: bobs, update: false });
    expect(mine).not.toBe(bobs);
    expect((await stored(bobs)).rate).toBe('0.97000000');
  });

  it('pauses and resumes one\'s own offer; a paused offer is not listed', async () => {
    const id = await publishOffer(t, ann.token, { currency: 'INR', rate: '84' });
    expect(await call(ann.token, { type: 'toggle', id })).toEqual({
      status: 200,
      body: { success: true, info: { is_active: false, message: 'Offer paused.' } },
    });
    expect(idsOf(await listOffers(t, bob.token, { currency__code: 'INR' }))).toEqual([]);
    expect((await call(ann.token, { type: 'get', id })).body.info).toMatchObject({ is_active: false });

    expect(await call(ann.token, { type: 'toggle', id })).toEqual({
      status: 200,
      body: { success: true, info: { is_active: true, message: 'Offer resumed.' } },
    });
    expect(idsOf(await listOffers(t, bob.token, { currency__code: 'INR' }))).toEqual([id]);
  });

  it('keeps a paused offer paused when its owner edits it', async () => {
    const id = await publishOffer(t, ann.token);
    await call(ann.token, { type: 'toggle', id });
    await call(ann.token, offerBody({ update: true, id, rate: '0.99' }));
    expect(await stored(id)).toMatchObject({ is_active: false, rate: '0.99000000' });
  });

  it('refuses to pause someone else\'s offer or an unknown one, alike (404)', async () => {
    const id = await publishOffer(t, ann.token);
    expect(await call(bob.token, { type: 'toggle', id })).toEqual(refusal(404, 'This offer does not exist.'));
    expect((await stored(id)).is_active).toBe(true);
    expect(await call(bob.token, { type: 'toggle', id: 987_654 })).toEqual(refusal(404, 'This offer does not exist.'));
  });
});

describe.each(dbTargets)('POST /api/market/offers/ {type:"create"}: every rule of docs/rules.md "Offers" on %s', (target) => {
  let t: TestApp;
  let ann: Trader;
  beforeAll(async () => {
    t = await createTestApp(target);
    ann = await signUp(t, trader('ann'));
  });
  afterAll(() => t.close());

  const create = (overrides: Record<string, unknown>) => t.post(OFFERS, offerBody(overrides), { token: ann.token });
  const expectRefused = async (overrides: Record<string, unknown>, sentence: string) => {
    expect(await create(overrides), JSON.stringify(overrides)).toEqual({ status: 400, body: { success: false, info: sentence } });
  };
  const expectPublished = async (overrides: Record<string, unknown>) => {
    const answer = await create(overrides);
    expect(answer.status, `${JSON.stringify(overrides)} → ${JSON.stringify(answer.body)}`).toBe(200);
  };
  const newest = () =>
    t.app.db.one<{ rate: string; min_amount: string; max_amount: string; terms: string | null; currency_code: string }>(
      'SELECT rate, min_amount, max_amount, terms, currency_code FROM offers ORDER BY id DESC LIMIT 1',
    );

  it('offer_type: buy or sell', async () => {
    await expectRefused({ offer_type: 'hold' }, 'offer_type must be one of: buy, sell');
    await expectRefused({ offer_type: undefined }, 'offer_type must be one of: buy, sell');
    await expectPublished({ offer_type: 'buy' });
  });

  it('coin: one that exists', async () => {
    await expectRefused({ coin: 999 }, 'The selected cryptocurrency does not exist.');
    await expectRefused({ coin: '999999999' }, 'The selected cryptocurrency does not exist.');
    await expectRefused({ coin: 2 ** 40 }, 'The selected cryptocurrency does not exist.');
    await expectRefused({ coin: 0 }, 'The selected cryptocurrency does not exist.');
    await expectRefused({ coin: -1 }, 'The selected cryptocurrency does not exist.');
    await expectRefused({ coin: 'BTC' }, 'coin must be a coin id');
    await expectRefused({ coin: undefined }, 'coin is required');
  });

  it('currency: a fiat currency that exists, any case', async () => {
    await expectRefused({ currency: 'XYZ' }, 'The selected fiat currency does not exist.');
    await expectRefused({ currency: 'EURO' }, 'currency must be a 3-letter code');
    await expectPublished({ currency: 'ngn' });
    expect((await newest()).currency_code).toBe('NGN');
  });

  it('rate: a decimal greater than 0 with at most 8 places, stored exactly', async () => {
    await expectRefused({ rate: '0' }, 'rate must be greater than 0');
    await expectRefused({ rate: '0.00000000' }, 'rate must be greater than 0');
    await expectRefused({ rate: '-5' }, 'rate must be a number');
    await expectRefused({ rate: '1.123456789' }, 'rate has too many decimal places (at most 8)');
    await expectRefused({ rate: '1e3' }, 'rate must be a number');
    await expectRefused({ rate: 'NaN' }, 'rate must be a number');
    await expectRefused({ rate: '' }, 'rate must be a number');
    await expectRefused({ rate: 0.93 }, 'rate must be a decimal number in a string, like "12.50"');
    await expectRefused({ rate: undefined }, 'rate is required');
    await expectPublished({ rate: '1650.12345678' });
    expect((await newest()).rate).toBe('1650.12345678');
    await expectPublished({ rate: '0.00000001' });
    expect((await newest()).rate).toBe('0.00000001');
    await expectPublished({ rate: '999999999999999999.99999999' });
    expect((await newest()).rate).toBe('999999999999999999.99999999');
  });

  it('min_amount and max_amount: fiat above 0 with at most 2 places, min not above max', async () => {
    await expectRefused({ min_amount: '0' }, 'min_amount must be greater than 0');
    await expectRefused({ max_amount: '0.00' }, 'max_amount must be greater than 0');
    await expectRefused({ min_amount: '10.001' }, 'min_amount has too many decimal places (at most 2)');
    await expectRefused({ max_amount: '1000.999' }, 'max_amount has too many decimal places (at most 2)');
    await expectRefused({ min_amount: '1,000' }, 'min_amount must be a number');
    await expectRefused({ min_amount: 100 }, 'min_amount must be a decimal number in a string, like "12.50"');
    await expectRefused({ max_amount: 1000.5 }, 'max_amount must be a decimal number in a string, like "12.50"');
    await expectRefused({ min_amount: '1000.01', max_amount: '1000' }, 'The minimum amount cannot be greater than the maximum amount.');
    await expectPublished({ min_amount: '0.01', max_amount: '0.01' });
    await expectPublished({ min_amount: ' 99.9 ', max_amount: '100' });
    expect(await newest()).toMatchObject({ min_amount: '99.90', max_amount: '100.00' });
  });

  it('payment_methods: 1 to 5, each from the known list, each once', async () => {
    await expectRefused({ payment_methods: [] }, 'payment_methods: Choose at least one payment method');
    await expectRefused(
      { payment_methods: ['SEPA', 'Wise', 'Revolut', 'PayPal', 'UPI', 'Pix'] },
      'payment_methods: Choose at most 5 payment methods',
    );
    await expectRefused({ payment_methods: ['SEPA', 'Venmo'] }, 'Unknown payment method "Venmo".');
    await expectRefused({ payment_methods: ['SEPA', 'sepa'] }, 'Payment method "sepa" is chosen more than once.');
    await expectRefused({ payment_methods: 'SEPA' }, 'payment_methods must be a list');
    await expectPublished({ payment_methods: ['SEPA', 'Wise', 'Revolut', 'PayPal', 'Cash in Person'] });
  });

  it('terms: optional, at most 2,000 characters, stored as written', async () => {
    await expectRefused({ terms: 'x'.repeat(2001) }, 'Terms must be at most 2,000 characters');
    await expectRefused({ terms: 'nul \u0000 inside' }, 'terms contains a character that is not allowed (U+0000).');
    const written = `  <script>alert(1)</script> ${'ü'.repeat(1960)}\n`;
    expect(written.length).toBeLessThanOrEqual(2000);
    await expectPublished({ terms: written });
    expect((await newest()).terms).toBe(written);
    for (const empty of ['', '   \n', null, undefined]) {
      await expectPublished({ terms: empty });
      expect((await newest()).terms, JSON.stringify(empty)).toBeNull();
    }
  });
});

describe.each(dbTargets)('POST /api/market/offers/ with bad bodies on %s', (target) => {
  let t: TestApp;
  let ann: Trader;
  beforeAll(async () => {
    t = await createTestApp(target);
    ann = await signUp(t, trader('ann'));
  });
  afterAll(() => t.close());

  const cases: Array<[string, unknown, string]> = [
    ['an unknown type', { type: 'delete', id: 1 }, 'type must be one of: components, list, get, create, toggle'],
    ['no type', { id: 1 }, 'type must be one of: components, list, get, create, toggle'],
    ['a numeric type', { type: 3 }, 'type must be one of: components, list, get, create, toggle'],
    ['get without id', { type: 'get' }, 'id is required'],
    ['get with a text id', { type: 'get', id: '5' }, 'id must be a number'],
    ['get with a fractional id', { type: 'get', id: 1.5 }, 'id must be a whole number'],
    ['toggle with an object id', { type: 'toggle', id: { $gt: 0 } }, 'id must be a number'],
    ['filters as a list', { type: 'list', filters: ['x'] }, 'filters must be an object'],
    ['a huge overlap list', { type: 'list', filters: { payment_methods__overlap: Array.from({ length: 5000 }, () => 'SEPA') } }, 'filters.payment_methods__overlap must be at most 20'],
    ['an overlap of numbers', { type: 'list', filters: { payment_methods__overlap: [1, 2] } }, 'filters.payment_methods__overlap.0 must be text'],
    ['a long search', { type: 'list', filters: { user__username__icontains: 'x'.repeat(31) } }, 'filters.user__username__icontains must be at most 30 characters'],
    ['a bad offer type filter', { type: 'list', filters: { offer_type: 'both' } }, 'filters.offer_type must be one of: buy, sell'],
    ['a bad currency filter', { type: 'list', filters: { currency__code: 'euro' } }, 'filters.currency__code must be a 3-letter code'],
    ['a bad coin filter', { type: 'list', filters: { coin__id: 'BTC' } }, 'filters.coin__id must be a coin id'],
    ['a huge list of payment methods', offerBody({ payment_methods: Array.from({ length: 2_000 }, (_, i) => `m${i}`) }), 'payment_methods: Choose at most 5 payment methods'],
    ['a boolean update flag as text', offerBody({ update: 'yes' }), 'update must be true or false'],
    ['a non-decimal rate', offerBody({ rate: '12,5' }), 'rate must be a number'],
    ['an exponent amount', offerBody({ max_amount: '1e6' }), 'max_amount must be a number'],
    ['a float rate', offerBody({ rate: 1650.5 }), 'rate must be a decimal number in a string, like "12.50"'],
    ['an array rate', offerBody({ rate: ['1'] }), 'rate must be a decimal number in a string, like "12.50"'],
    ['a drop that is not a number', { type: 'components', drop: 'ten' }, 'drop must be a number'],
  ];

  for (const [name, body, sentence] of cases) {
    it(`refuses ${name} with 400 and a sentence`, async () => {
      expect(await t.post(OFFERS, body, { token: ann.token })).toEqual({ status: 400, body: { success: false, info: sentence } });
    });
  }
});
