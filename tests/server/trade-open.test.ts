import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tradePreview } from '../../contracts/trade.ts';
import { migrate, readMigrations } from '../../server/src/infra/db/migrate.ts';
import { openEmptyPglite } from '../support/databases.ts';
import { tradesRepository } from '../../server/src/trades/trades.repository.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { balance, expectLedgerClean, insertUser } from '../support/server-money.ts';
import { open, openStatementAsRead, openTrade, preview, sellOffer, trader, tradeCall, type Trader } from '../support/server-trades.ts';
import { publishOffer } from '../support/server-flows.ts';

const BTC = 1;
const dec = (value: string) => new Decimal(value);

describe.each(dbTargets)('POST /api/market/trade/ preview and open on %s', (target) => {
  let t: TestApp;
  let seller: Trader;
  let buyer: Trader;
  let offer: number;
  beforeAll(async () => {
    t = await createTestApp(target);
    seller = await trader(t, { BTC: '1' });
    buyer = await trader(t);
    // 1 EUR per USD and BTC at 97,000 USD: 97 EUR buy exactly 0.001 BTC.
    offer = await sellOffer(t, seller);
  });
  afterAll(async () => {
    await expectLedgerClean(t.app.db);
    await t.close();
  });

  it('previews the figures of docs/rules.md "Trades", fee + buyer\'s share = escrow exactly', async () => {
    const answer = await preview(t, buyer, offer, '97', 'SEPA');
    expect(answer).toEqual({
      status: 200,
      body: {
        success: true,
        info: {
          trading_amount: '97.00',
          trading_amount_crypto: '0.00100000',
          fee_local: '0.97',
          fee_crypto: '0.00001000',
          amount_local: '96.03',
          amount_crypto: '0.00099000',
        },
      },
    });
    expect(tradePreview.safeParse(answer.body.info).success).toBe(true);
  });

  it('opens the trade the preview showed: frozen figures, escrow taken from the seller in the same transaction', async () => {
    const shown = (await preview(t, buyer, offer, '123.45', 'revolut')).body.info;
    const sellerBefore = dec(await balance(t.app.db, seller.id, BTC, 'available'));
    const answer = await open(t, buyer, offer, '123.45', 'revolut');
    expect(answer).toEqual({
      status: 200,
      body: { success: true, info: 'Trade opened. Pay 123.45 EUR by Revolut and mark it paid in the chat.' },
    });
    const trade = await t.app.db.one<Record<string, string | boolean>>(
      `SELECT buyer_id, seller_id, offer_id, coin_id, currency_code, rate::text, coin_usd_price::text, trading_amount::text,
              fee_local::text, amount_local::text, trading_amount_crypto::text, fee_crypto::text, amount_crypto::text,
              payment_method, status, buyer_paid, dispute_raised, channel
       FROM trades WHERE buyer_id = $1 ORDER BY id DESC LIMIT 1`,
      [buyer.id],
    );
    expect(trade).toMatchObject({
      buyer_id: buyer.id,
      seller_id: seller.id,
      offer_id: String(offer),
      currency_code: 'EUR',
      payment_method: 'Revolut',
      status: 'pending',
      buyer_paid: false,
      dispute_raised: false,
    });
    expect(dec(String(trade.rate)).eq(1)).toBe(true);
    expect(dec(String(trade.coin_usd_price)).eq(97000)).toBe(true);
    for (const field of ['trading_amount', 'fee_local', 'amount_local', 'trading_amount_crypto', 'fee_crypto', 'amount_crypto'] as const) {
      expect(dec(String(trade[field])).eq(shown[field]), field).toBe(true);
    }
    expect(String(trade.channel)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const escrowed = dec(shown.trading_amount_crypto);
    expect(dec(await balance(t.app.db, seller.id, BTC, 'available')).eq(sellerBefore.minus(escrowed))).toBe(true);
    expect(dec(await balance(t.app.db, seller.id, BTC, 'escrow')).gte(escrowed)).toBe(true);
    const entry = await t.app.db.one<{ reference: string }>(
      `SELECT e.reference FROM ledger_entries e WHERE e.reference = 'trade:' || (SELECT id FROM trades WHERE channel = $1) || ':open'`,
      [trade.channel],
    );
    expect(entry.reference).toMatch(/^trade:\d+:open$/);
    const messages = await t.app.db.query<{ sender_id: string | null; recipient: string; text: string }>(
      `SELECT m.sender_id, m.recipient, m.text FROM chat_messages m JOIN trades tr ON tr.id = m.trade_id WHERE tr.channel = $1`,
      [trade.channel],
    );
    expect(messages).toEqual([
      {
        sender_id: null,
        recipient: 'all',
        text:
          `Trade opened: ${buyer.username} buys ${shown.amount_crypto} BTC (after the fee) from ${seller.username} for 123.45 EUR by Revolut. ` +
          `${shown.trading_amount_crypto} BTC is held in escrow; the buyer has 30 minutes to pay and mark it paid.`,
      },
    ]);
  });

  it('freezes rate and price: a price tick or an offer edit later changes nothing of an open trade', async () => {
    const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
    await t.app.db.query(`UPDATE coins SET usd_price = 50000 WHERE id = $1`, [BTC]);
    await t.post('/api/market/offers/', { type: 'create', update: true, id: offer, offer_type: 'sell', coin: '1', currency: 'EUR', rate: '2', min_amount: '1', max_amount: '100000', payment_methods: ['SEPA', 'Revolut'] }, { token: seller.token });
    const trade = await t.app.db.one<{ rate: string; coin_usd_price: string; trading_amount_crypto: string }>(
      'SELECT rate, coin_usd_price, trading_amount_crypto FROM trades WHERE channel = $1',
      [channel],
    );
    expect([dec(trade.rate).toFixed(), dec(trade.coin_usd_price).toFixed(), dec(trade.trading_amount_crypto).toFixed()]).toEqual(['1', '97000', '0.001']);
    // New trades take the new rate and price: 100 EUR / (2 × 50,000) = 0.001 BTC.
    expect((await preview(t, buyer, offer, '100', 'SEPA')).body.info).toMatchObject({ trading_amount_crypto: '0.00100000' });
    await t.app.db.query(`UPDATE coins SET usd_price = 97000 WHERE id = $1`, [BTC]);
    await t.post('/api/market/offers/', { type: 'create', update: true, id: offer, offer_type: 'sell', coin: '1', currency: 'EUR', rate: '1', min_amount: '1', max_amount: '100000', payment_methods: ['SEPA', 'Revolut'] }, { token: seller.token });
  });

  it('opens only at the rate the taker saw: an owner who re-prices between preview and open gets a 409, and nothing opens', async () => {
    const owner = await trader(t, { BTC: '1' });
    const repriced = await sellOffer(t, owner, { rate: '0.93' });
    const taker = await trader(t);
    // The taker previews at the rate the list showed ("0.93"; any spelling of the same number is the same rate).
    expect((await preview(t, taker, repriced, '97', 'SEPA')).status).toBe(200);
    const edit = { type: 'create', update: true, id: repriced, offer_type: 'sell', coin: '1', currency: 'EUR', rate: '0.99', min_amount: '1', max_amount: '100000', payment_methods: ['SEPA'] };
    expect((await t.post('/api/market/offers/', edit, { token: owner.token })).status).toBe(200);
    const escrowBefore = await balance(t.app.db, owner.id, BTC, 'escrow');
    expect(await open(t, taker, repriced, '97', 'SEPA', '0.93')).toEqual({
      status: 409,
      body: { success: false, info: 'The rate of this offer has changed since you saw it. Please look at the new rate and try again.' },
    });
    expect(await t.app.db.query('SELECT id FROM trades WHERE offer_id = $1', [repriced])).toEqual([]);
    expect(await balance(t.app.db, owner.id, BTC, 'escrow')).toBe(escrowBefore);
    // At the new rate, written any way, it opens.
    expect((await open(t, taker, repriced, '97', 'SEPA', '0.990')).status).toBe(200);
    const frozen = await t.app.db.one<{ rate: string }>('SELECT rate::text AS rate FROM trades WHERE offer_id = $1', [repriced]);
    expect(dec(frozen.rate).eq('0.99')).toBe(true);
  });

  it('writes nothing when the offer is re-priced or paused between the checks and the opening statement', async () => {
    const owner = await trader(t, { BTC: '1' });
    const raced = await sellOffer(t, owner);
    const taker = await trader(t);
    const read = await tradesRepository(t.app.db).offerForTrade(raced, taker.id);
    if (!read) throw new Error('the offer is there');
    /** The statement the service runs, with the offer as read before the owner's change. */
    const openAsRead = await openStatementAsRead(t, raced, owner, taker);
    await t.app.db.query('UPDATE offers SET rate = 1.5 WHERE id = $1', [raced]);
    expect(await openAsRead()).toBeUndefined();
    await t.app.db.query('UPDATE offers SET rate = $2, is_active = false WHERE id = $1', [raced, read.rate]);
    expect(await openAsRead()).toBeUndefined();
    expect(await t.app.db.query('SELECT id FROM trades WHERE offer_id = $1', [raced])).toEqual([]);
    expect(await balance(t.app.db, owner.id, BTC, 'escrow')).toBe('0');
    await t.app.db.query('UPDATE offers SET is_active = true WHERE id = $1', [raced]);
    expect((await openAsRead())?.id).toMatch(/^\d+$/);
  });

  it('on a buy offer the owner buys: the taker is the seller and pays the escrow from their own balance', async () => {
    const owner = await trader(t);
    const taker = await trader(t, { BTC: '0.5' });
    const buyOffer = await sellOffer(t, owner, { offer_type: 'buy' });
    const answer = await open(t, taker, buyOffer, '97', 'SEPA');
    expect(answer.body).toEqual({
      success: true,
      info: "Trade opened. Your 0.00100000 BTC is in escrow; release it in the chat once the buyer's 97.00 EUR arrives by SEPA.",
    });
    const trade = await t.app.db.one<{ buyer_id: string; seller_id: string }>('SELECT buyer_id, seller_id FROM trades WHERE offer_id = $1', [buyOffer]);
    expect(trade).toEqual({ buyer_id: owner.id, seller_id: taker.id });
    expect(dec(await balance(t.app.db, taker.id, BTC, 'available')).eq('0.499')).toBe(true);
    expect(dec(await balance(t.app.db, taker.id, BTC, 'escrow')).eq('0.001')).toBe(true);
    expect(await balance(t.app.db, owner.id, BTC, 'available')).toBe('0');
  });

  it("refuses when the seller's available balance does not cover the escrow (preview and open), on either side of the offer", async () => {
    const poor = await trader(t, { BTC: '0.00099999' });
    const poorOffer = await sellOffer(t, poor);
    const refusal = { status: 409, body: { success: false, info: "The seller's balance is too low for this trade." } };
    expect(await preview(t, buyer, poorOffer, '97', 'SEPA')).toEqual(refusal);
    expect(await open(t, buyer, poorOffer, '97', 'SEPA')).toEqual(refusal);
    expect(await t.app.db.query('SELECT 1 FROM trades WHERE offer_id = $1', [poorOffer])).toEqual([]);
    expect((await open(t, buyer, poorOffer, '96.99', 'SEPA')).status).toBe(200);

    const owner = await trader(t);
    const buyOffer = await sellOffer(t, owner, { offer_type: 'buy' });
    expect(await open(t, buyer, buyOffer, '97', 'SEPA')).toEqual(refusal);
  });

  it('checks the range with the spec\'s sentences, the method, and who may trade', async () => {
    const ranged = await sellOffer(t, seller, { min_amount: '100', max_amount: '250.5' });
    const refused = async (amount: string, method: string, info: string, status = 400, who = buyer, id = ranged) => {
      for (const type of ['preview', 'open']) {
        expect(await tradeCall(t, who, { type, offer: id, amount, payment_method: method, rate: '1' }), `${type} ${amount} ${method}`).toEqual({
          status,
          body: { success: false, info },
        });
      }
    };
    await refused('99.99', 'SEPA', 'Amount can not be less than 100.00');
    await refused('0', 'SEPA', 'Amount can not be less than 100.00');
    await refused('250.51', 'SEPA', 'Amount can not be greater than 250.50');
    await refused('100', '', 'Please select a payment method');
    await refused('100', '   ', 'Please select a payment method');
    await refused('100', 'PayPal', 'This offer does not accept PayPal.');
    await refused('100', 'SEPA', 'You cannot trade on your own offer.', 403, seller);
    await refused('100', 'SEPA', 'This offer is no longer available.', 404, buyer, 987654321);
    expect((await preview(t, buyer, ranged, '100', 'SEPA')).status).toBe(200);
    expect((await preview(t, buyer, ranged, '250.50', 'sepa')).status).toBe(200);

    const toggled = await t.post('/api/market/offers/', { type: 'toggle', id: ranged }, { token: seller.token });
    expect(toggled.status).toBe(200);
    // Paused: to a taker exactly like an unknown id, so paused offers cannot be probed through trades either.
    await refused('100', 'SEPA', 'This offer is no longer available.', 404);
  });

  it('refuses an amount too small to buy one unit of the coin', async () => {
    const cheap = await sellOffer(t, seller, { min_amount: '0.01', rate: '1650' });
    expect(await preview(t, buyer, cheap, '0.01', 'SEPA')).toEqual({
      status: 400,
      body: { success: false, info: 'This amount is too small to trade this coin. Please enter a larger amount.' },
    });
  });

  it('refuses every malformed body with 400 and a sentence naming the field, before anything else', async () => {
    const cases: [unknown, string][] = [
      [{}, 'type must be one of: preview, open, history, cancel, mark_paid, release_coin, raise_dispute'],
      [{ type: 'buy' }, 'type must be one of: preview, open, history, cancel, mark_paid, release_coin, raise_dispute'],
      [{ type: 'preview', amount: '10', payment_method: 'SEPA' }, 'offer must be an offer id'],
      [{ type: 'preview', offer: '5', amount: '10', payment_method: 'SEPA' }, 'offer must be an offer id'],
      [{ type: 'preview', offer: -1, amount: '10', payment_method: 'SEPA' }, 'offer must be an offer id'],
      [{ type: 'preview', offer: 1.5, amount: '10', payment_method: 'SEPA' }, 'offer must be an offer id'],
      [{ type: 'preview', offer, payment_method: 'SEPA' }, 'amount is required'],
      [{ type: 'preview', offer, amount: 10, payment_method: 'SEPA' }, 'amount is required'],
      [{ type: 'open', offer, amount: '10.005', payment_method: 'SEPA' }, 'amount must be a number with at most 2 decimals'],
      [{ type: 'open', offer, amount: '-5', payment_method: 'SEPA' }, 'amount must be a number with at most 2 decimals'],
      [{ type: 'open', offer, amount: '1e3', payment_method: 'SEPA' }, 'amount must be a number with at most 2 decimals'],
      [{ type: 'open', offer, amount: '10' }, 'payment_method is required'],
      [{ type: 'open', offer, amount: '10', payment_method: 'x'.repeat(61) }, 'payment_method must be at most 60 characters'],
      [{ type: 'open', offer, amount: '10', payment_method: 'SEPA' }, 'rate is required'],
      [{ type: 'open', offer, amount: '10', payment_method: 'SEPA', rate: 1 }, 'rate is required'],
      [{ type: 'open', offer, amount: '10', payment_method: 'SEPA', rate: '-1' }, 'rate must be the offer rate you saw, like 1.00'],
      [{ type: 'cancel' }, 'channel is required'],
      [{ type: 'mark_paid', channel: '' }, 'channel is required'],
      [{ type: 'release_coin', channel: 42 }, 'channel is required'],
      [{ type: 'raise_dispute', channel: 'abc' }, 'Please enter the reason for your dispute'],
      [{ type: 'raise_dispute', channel: 'abc', reason: '   ' }, 'Please enter the reason for your dispute'],
      [{ type: 'raise_dispute', channel: 'abc', reason: 'x'.repeat(2001) }, 'The reason must be at most 2,000 characters'],
      [{ type: 'history', page: 0 }, 'page must be 1 or more'],
      [{ type: 'history', page: '2' }, 'page must be a number'],
      [{ type: 'history', trade_type: 'swap' }, 'trade_type is not valid'],
      [{ type: 'history', filters: { status: 'open' } }, 'filters.status is not valid'],
      [{ type: 'history', filters: { offer__coin__id: 'btc' } }, 'offer__coin__id must be a coin id'],
      [[], 'The request body must be a JSON object.'],
    ];
    for (const [body, info] of cases) {
      const answer = await t.post('/api/market/trade/', body, { token: buyer.token });
      expect.soft(answer, JSON.stringify(body)).toEqual({ status: 400, body: { success: false, info: expect.stringContaining(info) } });
    }
  });

  it('needs a session', async () => {
    expect(await t.post('/api/market/trade/', { type: 'preview', offer, amount: '97', payment_method: 'SEPA' })).toEqual({
      status: 401,
      body: { success: false, info: 'Session expired' },
    });
  });
});

describe.each(dbTargets)('trade fee from config (TRADE_FEE_PERCENT) on %s', (target) => {
  it('takes the configured share, and nothing at 0', async () => {
    for (const [fee, expected] of [
      ['2.5', { fee_crypto: '0.00002500', amount_crypto: '0.00097500', fee_local: '2.43', amount_local: '94.57' }],
      ['0', { fee_crypto: '0.00000000', amount_crypto: '0.00100000', fee_local: '0.00', amount_local: '97.00' }],
    ] as const) {
      const t = await createTestApp(target, { env: { TRADE_FEE_PERCENT: fee } });
      try {
        const seller = await trader(t, { BTC: '1' });
        const buyer = await trader(t);
        const offer = await publishOffer(t, seller.token, { rate: '1', min_amount: '1', max_amount: '1000', payment_methods: ['SEPA'] });
        expect((await preview(t, buyer, offer, '97', 'SEPA')).body.info).toMatchObject(expected);
        const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
        expect((await tradeCall(t, buyer, { type: 'mark_paid', channel })).status).toBe(200);
        expect((await tradeCall(t, seller, { type: 'release_coin', channel, password: seller.password })).status).toBe(200);
        expect(dec(await balance(t.app.db, buyer.id, BTC, 'available')).eq(expected.amount_crypto)).toBe(true);
        await expectLedgerClean(t.app.db);
      } finally {
        await t.close();
      }
    }
  });
});

describe.each(dbTargets)('MAX_OPEN_TRADES and the per-trader open limit on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => {
    await expectLedgerClean(t.app.db);
    await t.close();
  });

  const TOO_MANY = 'You already have 5 open trades as the buyer. Complete or cancel one before you open another.';
  const channelsOf = async (buyer: Trader) =>
    (await t.app.db.query<{ channel: string }>("SELECT channel FROM trades WHERE buyer_id = $1 AND status = 'pending' ORDER BY id", [buyer.id])).map(
      (row) => row.channel,
    );

  it('lets one buyer hold at most 5 pending trades: the escrow-hostage attack, retried, stops at 5', async () => {
    const seller = await trader(t, { BTC: '1' });
    // The offer's own cap (tests/server/offer-conditions.test.ts) set past the buyer's, so the buyer's is what stops.
    const offer = await sellOffer(t, seller, { max_open_trades: 20 });
    const attacker = await trader(t);
    const answers = [];
    for (let attempt = 0; attempt < 10; attempt += 1) answers.push(await open(t, attacker, offer, '970', 'SEPA'));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(5);
    for (const refused of answers.slice(5)) expect(refused).toEqual({ status: 409, body: { success: false, info: TOO_MANY } });
    // Only five trades' escrow is held: 5 × 0.01 BTC.
    expect(dec(await balance(t.app.db, seller.id, BTC, 'escrow')).eq('0.05')).toBe(true);
    expect(await preview(t, attacker, offer, '970', 'SEPA')).toEqual({ status: 409, body: { success: false, info: TOO_MANY } });

    // Marking paid keeps a trade pending; cancelling or completing one frees its place.
    const channels = await channelsOf(attacker);
    const act = (who: Trader, type: string, channel: string) => tradeCall(t, who, { type, channel });
    expect((await act(attacker, 'mark_paid', channels[0] ?? '')).status).toBe(200);
    expect((await open(t, attacker, offer, '97', 'SEPA')).status).toBe(409);
    expect((await act(attacker, 'cancel', channels[1] ?? '')).status).toBe(200);
    expect((await tradeCall(t, seller, { type: 'release_coin', channel: channels[0] ?? '', password: seller.password })).status).toBe(200);
    expect((await open(t, attacker, offer, '97', 'SEPA')).status).toBe(200);
    expect((await open(t, attacker, offer, '97', 'SEPA')).status).toBe(200);
    expect((await open(t, attacker, offer, '97', 'SEPA')).body).toEqual({ success: false, info: TOO_MANY });
  });

  it('counts only the trades a buyer opened as the taker: others filling their buy offer meet the offer\'s cap, and they can still buy elsewhere', async () => {
    // The reproduction: one seller opened trades on a buyer's offer until the buyer could buy nowhere.
    const bob = await trader(t, { USDT: '100000' });
    const bobsOffer = await sellOffer(t, bob, { offer_type: 'buy' });
    const alice = await trader(t, { BTC: '1' });
    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push(await open(t, alice, bobsOffer, '97', 'SEPA'));
    const full = { status: 409, body: { success: false, info: 'This offer has as many open trades as its owner takes at once. Please try again once one of them ends.' } };
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 409, 409]);
    expect(answers[4]).toEqual(full);
    expect(await preview(t, alice, bobsOffer, '97', 'SEPA')).toEqual(full);
    // They hold none of bob's own places: he buys up to his limit on another seller's offer.
    const carol = await trader(t, { BTC: '1' });
    const carolsOffer = await sellOffer(t, carol, { max_open_trades: 20 });
    for (let i = 0; i < 5; i += 1) expect((await open(t, bob, carolsOffer, '97', 'SEPA')).status).toBe(200);
    expect(await open(t, bob, carolsOffer, '97', 'SEPA')).toEqual({ status: 409, body: { success: false, info: TOO_MANY } });
    const places = await t.app.db.query<{ offer_id: string; buyer_place: number | null; offer_place: number }>(
      "SELECT offer_id::text, buyer_place, offer_place FROM trades WHERE buyer_id = $1 AND status = 'pending' ORDER BY id",
      [bob.id],
    );
    // On bob's offer, the offer's places only; on carol's, his own places too.
    expect(places).toEqual([
      ...[0, 1, 2].map((place) => ({ offer_id: String(bobsOffer), buyer_place: null, offer_place: place })),
      ...[0, 1, 2, 3, 4].map((place) => ({ offer_id: String(carolsOffer), buyer_place: place, offer_place: place })),
    ]);
    // A trade on bob's offer that ends frees its place for the next taker.
    const [first] = (await t.app.db.query<{ channel: string }>('SELECT channel FROM trades WHERE offer_id = $1 ORDER BY id LIMIT 1', [bobsOffer]));
    expect((await tradeCall(t, alice, { type: 'cancel', channel: first?.channel })).status).toBe(200);
    expect((await open(t, alice, bobsOffer, '97', 'SEPA')).status).toBe(200);
  });

  it('holds under opens fired at once: 20 opens of one buyer end with exactly 5 trades and 5 escrows', async () => {
    const seller = await trader(t, { BTC: '1' });
    const offer = await sellOffer(t, seller, { max_open_trades: 20 });
    const buyer = await trader(t);
    const answers = await Promise.all(Array.from({ length: 20 }, () => open(t, buyer, offer, '97', 'SEPA')));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(5);
    for (const answer of answers.filter((a) => a.status !== 200)) expect(answer).toEqual({ status: 409, body: { success: false, info: TOO_MANY } });
    expect(await channelsOf(buyer)).toHaveLength(5);
    expect(dec(await balance(t.app.db, seller.id, BTC, 'escrow')).eq('0.005')).toBe(true);
    const places = await t.app.db.query<{ place: number }>("SELECT buyer_place AS place FROM trades WHERE buyer_id = $1 AND status = 'pending' ORDER BY 1", [buyer.id]);
    expect(places.map((row) => row.place)).toEqual([0, 1, 2, 3, 4]);
  });

  it('follows MAX_OPEN_TRADES, and TRADE_OPENS_PER_HOUR per trader with a sentence of its own', async () => {
    const limited = await createTestApp(target, { env: { MAX_OPEN_TRADES: '2', TRADE_OPENS_PER_HOUR: '3' } });
    try {
      const seller = await trader(limited, { BTC: '1' });
      const offer = await sellOffer(limited, seller);
      const [buyer, other] = [await trader(limited), await trader(limited)];
      expect((await open(limited, buyer, offer, '97', 'SEPA')).status).toBe(200);
      expect((await open(limited, buyer, offer, '97', 'SEPA')).status).toBe(200);
      expect((await open(limited, buyer, offer, '97', 'SEPA')).body).toEqual({
        success: false,
        info: 'You already have 2 open trades as the buyer. Complete or cancel one before you open another.',
      });
      expect(await open(limited, buyer, offer, '97', 'SEPA')).toEqual({
        status: 429,
        body: { success: false, info: 'You are opening trades too fast. Please wait a while before you open another.' },
      });
      // Another trader has a budget of their own; previews and other calls are not counted.
      for (let i = 0; i < 5; i += 1) expect((await preview(limited, other, offer, '97', 'SEPA')).status).toBe(200);
      expect((await open(limited, other, offer, '97', 'SEPA')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('migration 014 on trades opened before it', () => {
  it('gives pending trades places in opening order, per buyer, and then refuses a pending trade without one', async () => {
    const db = await openEmptyPglite();
    try {
      const all = await readMigrations();
      await migrate(db, all.filter((m) => m.version < 14));
      // Up to the one before 024, which gives trades places on their offers as well (tests/server/offer-conditions.test.ts).
      const before024 = all.filter((m) => m.version < 24);
      await db.query(`INSERT INTO coins (label, ticker, decimal_places, usd_price, image) VALUES ('Bitcoin', 'BTC', 8, 97000, '/coins/btc.svg')`);
      await db.query(`INSERT INTO fiat_currencies (code, name, usd_rate) VALUES ('EUR', 'Euro', 0.93)`);
      const [seller, first, second] = [await insertUser(db), await insertUser(db), await insertUser(db)];
      const { id: offer } = await db.one<{ id: string }>(
        `INSERT INTO offers (user_id, offer_type, coin_id, currency_code, rate, min_amount, max_amount, payment_method_ids, created_at, updated_at)
         SELECT $1, 'sell', id, 'EUR', 1, 1, 1000, ARRAY[1], now(), now() FROM coins RETURNING id`,
        [seller.id],
      );
      let opened = 0;
      const trade = (buyer: string, status: string) =>
        db.query(
          `INSERT INTO trades (offer_id, buyer_id, seller_id, coin_id, currency_code, rate, coin_usd_price, trading_amount, fee_local,
                               amount_local, trading_amount_crypto, fee_crypto, amount_crypto, payment_method, channel, status, buyer_paid, created_at)
           SELECT $1, $2, $3, id, 'EUR', 1, 97000, 97, 0.97, 96.03, 0.001, 0.00001, 0.00099, 'SEPA', $4, $5, $5 = 'completed',
                  now() + $6 * interval '1 second' FROM coins`,
          [offer, buyer, seller.id, `channel${String(opened).padStart(15, '0')}`, status, (opened += 1)],
        );
      await trade(first.id, 'pending');
      await trade(second.id, 'pending');
      await trade(first.id, 'completed');
      await trade(first.id, 'pending');
      await trade(first.id, 'cancelled');
      await trade(first.id, 'pending');

      await migrate(db, before024);
      const places = await db.query<{ buyer: string; status: string; place: number | null }>(
        'SELECT buyer_id AS buyer, status, buyer_place AS place FROM trades ORDER BY id',
      );
      expect(places).toEqual([
        { buyer: first.id, status: 'pending', place: 0 },
        { buyer: second.id, status: 'pending', place: 0 },
        { buyer: first.id, status: 'completed', place: null },
        { buyer: first.id, status: 'pending', place: 1 },
        { buyer: first.id, status: 'cancelled', place: null },
        { buyer: first.id, status: 'pending', place: 2 },
      ]);
      // What a process of the previous version would write: refused, so no pending trade escapes the limit.
      await expect(trade(second.id, 'pending')).rejects.toMatchObject({ code: '23514' });
    } finally {
      await db.close();
    }
  });
});
