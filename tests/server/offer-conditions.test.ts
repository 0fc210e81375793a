import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editableOffer, offerList, type EditableOffer } from '../../contracts/market.ts';
import { createTestApp, dbTargets, MINUTE, type TestApp } from '../support/server.ts';
import { listOffers, offerBody, signUpWithTwoFactor } from '../support/server-flows.ts';
import { balance, coinByTicker, deposit, expectLedgerClean } from '../support/server-money.ts';
import { completedTrade } from '../support/server-reputation.ts';
import { act, open, openStatementAsRead, preview, sellOffer, trader, tradeCall, type Trader } from '../support/server-trades.ts';

const DAY = 24 * 60 * MINUTE;
const refused = (status: number, info: string) => ({ status, body: { success: false, info } });
const OFFER_FULL = 'This offer has as many open trades as its owner takes at once. Please try again once one of them ends.';
const NO_CONDITIONS = { min_completed_trades: 0, min_account_days: 0, require_two_factor: false, max_open_trades: 3 };
const dec = (value: string) => new Decimal(value);

describe.each(dbTargets)('counterparty conditions on offers on %s', (target) => {
  let t: TestApp;
  let owner: Trader;
  beforeAll(async () => {
    t = await createTestApp(target);
    owner = await trader(t, { BTC: '1' });
  });
  afterAll(async () => {
    await expectLedgerClean(t.app.db);
    await t.close();
  });

  /** A signed-up trader with two-factor on, as the trade helpers address them. */
  const traderWithTwoFactor = async (): Promise<Trader> => {
    const session = await signUpWithTwoFactor(t);
    const { id } = await t.app.db.one<{ id: string }>('SELECT id FROM users WHERE username = $1', [session.username]);
    return { id, username: session.username, token: session.token, websocketToken: session.user.websocket_token };
  };
  /** Makes the account `age` ms old now (moving the clock instead would expire every session after 30 idle days). */
  const ageAccount = (who: Trader, age: number) =>
    t.app.db.query('UPDATE users SET created_at = $2 WHERE id = $1', [who.id, new Date(t.clock.now().getTime() - age)]);
  const offersCall = <T = unknown>(who: Trader, body: Record<string, unknown>) => t.post<T>('/api/market/offers/', body, { token: who.token });
  const editable = async (id: number) => (await offersCall<EditableOffer>(owner, { type: 'get', id })).body.info;
  const listed = async (id: number, who: Trader = owner) =>
    (await listOffers(t, who.token, { user__username__icontains: owner.username })).body.info.offers.find((offer) => offer.id === id);

  it('stores the owner\'s conditions and cap, answers them in get and in each list item, and rewrites them with the offer', async () => {
    const conditions = { min_completed_trades: 5, min_account_days: 30, require_two_factor: true, max_open_trades: 7 };
    const id = await sellOffer(t, owner, conditions);
    expect(await editable(id)).toMatchObject(conditions);
    expect(editableOffer.safeParse(await editable(id)).success).toBe(true);
    expect(await listed(id)).toMatchObject(conditions);
    expect(offerList.safeParse((await listOffers(t, owner.token)).body.info).success).toBe(true);

    // An edit rewrites them as sent; absent or null is no condition and the default cap of 3.
    const edit = (overrides: Record<string, unknown>) =>
      offersCall(owner, offerBody({ update: true, id, rate: '1', min_amount: '1', max_amount: '100000', payment_methods: ['SEPA', 'Revolut'], ...overrides }));
    expect((await edit({ min_completed_trades: 2, require_two_factor: false, max_open_trades: 20 })).status).toBe(200);
    expect(await editable(id)).toMatchObject({ min_completed_trades: 2, min_account_days: 0, require_two_factor: false, max_open_trades: 20 });
    expect(await listed(id)).toMatchObject({ min_completed_trades: 2, min_account_days: 0, require_two_factor: false, max_open_trades: 20 });
    expect((await edit({ min_completed_trades: null, min_account_days: null, require_two_factor: null, max_open_trades: null })).status).toBe(200);
    expect(await editable(id)).toMatchObject(NO_CONDITIONS);
    // A new offer without them: none, and 3 at once.
    expect(await editable(await sellOffer(t, owner))).toMatchObject(NO_CONDITIONS);
  });

  it('refuses a condition out of its range or of the wrong type with 400 naming the field, and writes nothing', async () => {
    const before = (await t.app.db.one<{ count: number }>('SELECT count(*)::int AS count FROM offers')).count;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ min_completed_trades: -1 }, 'min_completed_trades must be a whole number from 0 to 100,000'],
      [{ min_completed_trades: 1.5 }, 'min_completed_trades must be a whole number from 0 to 100,000'],
      [{ min_completed_trades: '5' }, 'min_completed_trades must be a whole number from 0 to 100,000'],
      [{ min_completed_trades: 100_001 }, 'min_completed_trades must be a whole number from 0 to 100,000'],
      [{ min_account_days: 3651 }, 'min_account_days must be a whole number from 0 to 3,650'],
      [{ min_account_days: true }, 'min_account_days must be a whole number from 0 to 3,650'],
      [{ max_open_trades: 0 }, 'max_open_trades must be a whole number from 1 to 20'],
      [{ max_open_trades: 21 }, 'max_open_trades must be a whole number from 1 to 20'],
      [{ max_open_trades: '3' }, 'max_open_trades must be a whole number from 1 to 20'],
      [{ max_open_trades: 1e300 }, 'max_open_trades must be a whole number from 1 to 20'],
      [{ require_two_factor: 'yes' }, 'require_two_factor must be true or false'],
    ];
    for (const [overrides, sentence] of cases) {
      const answer = await offersCall(owner, offerBody(overrides));
      expect(answer.status, JSON.stringify(overrides)).toBe(400);
      expect(String(answer.body.info), JSON.stringify(overrides)).toContain(sentence);
    }
    expect((await t.app.db.one<{ count: number }>('SELECT count(*)::int AS count FROM offers')).count).toBe(before);
  });

  it('refuses a fresh account every open at the maximum on an offer with conditions, with the condition named, and moves nothing', async () => {
    // The reproduction: a new account opened 5 trades at the maximum on a seller's LTC offer and marked
    // each paid, freezing 77 LTC until a moderator settled five disputes.
    const ltc = await coinByTicker(t.app.db, 'LTC');
    const bob = await trader(t);
    await deposit(t.app.db, bob.id, ltc.id, '100');
    const offer = await sellOffer(t, bob, {
      coin: String(ltc.id),
      max_amount: '1500',
      min_completed_trades: 5,
      min_account_days: 30,
      require_two_factor: true,
    });
    const fresh = await trader(t);
    const sentence = 'This offer is for traders with at least 5 completed trades.';
    for (let i = 0; i < 5; i += 1) expect(await open(t, fresh, offer, '1500', 'SEPA')).toEqual(refused(403, sentence));
    expect(await preview(t, fresh, offer, '1500', 'SEPA')).toEqual(refused(403, sentence));
    expect(await t.app.db.query('SELECT id FROM trades WHERE offer_id = $1', [offer])).toEqual([]);
    expect(await balance(t.app.db, bob.id, ltc.id, 'escrow')).toBe('0');
  });

  it('names each condition the taker misses, in order, and lets a taker who meets them all open', async () => {
    const offer = await sellOffer(t, owner, { min_completed_trades: 2, min_account_days: 30, require_two_factor: true, max_open_trades: 20 });
    const taker = await traderWithTwoFactor();
    const other = await trader(t, { BTC: '1' });
    const otherOffer = await sellOffer(t, other, { max_open_trades: 20 });
    expect(await open(t, taker, offer, '97', 'SEPA')).toEqual(refused(403, 'This offer is for traders with at least 2 completed trades.'));
    await completedTrade(t, other, taker, otherOffer);
    expect(await open(t, taker, offer, '97', 'SEPA')).toEqual(refused(403, 'This offer is for traders with at least 2 completed trades.'));
    await completedTrade(t, other, taker, otherOffer);
    await ageAccount(taker, 30 * DAY - 1);
    expect(await open(t, taker, offer, '97', 'SEPA')).toEqual(refused(403, 'This offer is for traders whose account is at least 30 days old.'));
    t.clock.advance(1);
    expect((await open(t, taker, offer, '97', 'SEPA')).status).toBe(200);
    // Same history and age without two-factor: that one is named.
    const plain = await trader(t);
    await completedTrade(t, other, plain, otherOffer);
    await completedTrade(t, other, plain, otherOffer);
    await ageAccount(plain, 30 * DAY);
    expect(await open(t, plain, offer, '97', 'SEPA')).toEqual(refused(403, 'This offer is for traders with two-factor authentication on.'));
    // The owner's own offers without conditions stay open to anyone new.
    expect((await open(t, await trader(t), await sellOffer(t, owner), '97', 'SEPA')).status).toBe(200);
  });

  it('counts only trades that count toward reputation: completed trades below the minimum value do not meet a condition', async () => {
    const offer = await sellOffer(t, owner, { min_completed_trades: 3 });
    const farmer = await trader(t);
    const accomplice = await trader(t, { BTC: '1' });
    const tiny = await sellOffer(t, accomplice, { min_amount: '0.01' });
    for (let i = 0; i < 3; i += 1) await completedTrade(t, accomplice, farmer, tiny, '0.02');
    expect(await open(t, farmer, offer, '97', 'SEPA')).toEqual(refused(403, 'This offer is for traders with at least 3 completed trades.'));
  });

  it('opens only with the conditions the taker was checked against: an owner who tightens them in between wins', async () => {
    const offer = await sellOffer(t, owner);
    const taker = await trader(t);
    const openAsRead = await openStatementAsRead(t, offer, owner, taker);
    for (const tightened of ['min_completed_trades = 1', 'min_account_days = 1', 'require_two_factor = true']) {
      await t.app.db.query(`UPDATE offers SET ${tightened} WHERE id = $1`, [offer]);
      expect(await openAsRead(), tightened).toBeUndefined();
      await t.app.db.query('UPDATE offers SET min_completed_trades = 0, min_account_days = 0, require_two_factor = false WHERE id = $1', [offer]);
    }
    expect(await t.app.db.query('SELECT id FROM trades WHERE offer_id = $1', [offer])).toEqual([]);
    expect((await openAsRead())?.id).toMatch(/^\d+$/);
  });
});

describe.each(dbTargets)('max_open_trades: pending trades on one offer at once, on %s', (target) => {
  let t: TestApp;
  let owner: Trader;
  beforeAll(async () => {
    t = await createTestApp(target);
    owner = await trader(t, { BTC: '10' });
  });
  afterAll(async () => {
    await expectLedgerClean(t.app.db);
    await t.close();
  });

  const pendingPlaces = async (offer: number) =>
    (await t.app.db.query<{ place: number }>("SELECT offer_place AS place FROM trades WHERE offer_id = $1 AND status = 'pending' ORDER BY 1", [offer])).map(
      (row) => row.place,
    );
  const channelAt = async (offer: number, place: number) =>
    (await t.app.db.one<{ channel: string }>("SELECT channel FROM trades WHERE offer_id = $1 AND status = 'pending' AND offer_place = $2", [offer, place])).channel;

  it('takes 3 pending trades at once by default, from any takers; the next is refused until one ends', async () => {
    const offer = await sellOffer(t, owner);
    const takers = [await trader(t), await trader(t), await trader(t), await trader(t)];
    for (const taker of takers.slice(0, 3)) expect((await open(t, taker, offer, '97', 'SEPA')).status).toBe(200);
    const fourth = takers[3] as Trader;
    expect(await open(t, fourth, offer, '97', 'SEPA')).toEqual(refused(409, OFFER_FULL));
    expect(await preview(t, fourth, offer, '97', 'SEPA')).toEqual(refused(409, OFFER_FULL));
    expect(await pendingPlaces(offer)).toEqual([0, 1, 2]);
    // A completed one frees its place, as a cancelled or expired one does.
    const channel = await channelAt(offer, 1);
    expect((await act(t, takers[1] as Trader, 'mark_paid', channel)).status).toBe(200);
    expect(await open(t, fourth, offer, '97', 'SEPA')).toEqual(refused(409, OFFER_FULL));
    expect((await act(t, owner, 'release_coin', channel)).status).toBe(200);
    expect((await open(t, fourth, offer, '97', 'SEPA')).status).toBe(200);
    expect(await pendingPlaces(offer)).toEqual([0, 1, 2]);
    t.clock.advance((t.config.paymentWindowMinutes + 1) * MINUTE);
    expect(await t.app.trades.sweep()).toBeGreaterThanOrEqual(3);
    expect(await pendingPlaces(offer)).toEqual([]);
  });

  it('follows the owner\'s cap from 1 to 20', async () => {
    const single = await sellOffer(t, owner, { max_open_trades: 1 });
    expect((await open(t, await trader(t), single, '97', 'SEPA')).status).toBe(200);
    expect(await open(t, await trader(t), single, '97', 'SEPA')).toEqual(refused(409, OFFER_FULL));
    const wide = await sellOffer(t, owner, { max_open_trades: 20 });
    for (let i = 0; i < 20; i += 1) expect((await open(t, await trader(t), wide, '97', 'SEPA')).status).toBe(200);
    expect(await open(t, await trader(t), wide, '97', 'SEPA')).toEqual(refused(409, OFFER_FULL));
    expect(await pendingPlaces(wide)).toEqual(Array.from({ length: 20 }, (_, place) => place));
  });

  it('holds under opens fired at once: 20 takers racing for an offer of 4 end with exactly 4 trades and 4 escrows', async () => {
    const seller = await trader(t, { BTC: '1' });
    const offer = await sellOffer(t, seller, { max_open_trades: 4 });
    const takers = await Promise.all(Array.from({ length: 20 }, () => trader(t)));
    const answers = await Promise.all(takers.map((taker) => open(t, taker, offer, '97', 'SEPA')));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(4);
    for (const answer of answers.filter((a) => a.status !== 200)) expect(answer).toEqual(refused(409, OFFER_FULL));
    expect(await pendingPlaces(offer)).toEqual([0, 1, 2, 3]);
    expect(dec(await balance(t.app.db, seller.id, 1, 'escrow')).eq('0.004')).toBe(true);
  });

  it('takes no trade while an owner\'s lowered cap is still exceeded, and only up to it after', async () => {
    const offer = await sellOffer(t, owner);
    const takers = [await trader(t), await trader(t), await trader(t)];
    for (const taker of takers) expect((await open(t, taker, offer, '97', 'SEPA')).status).toBe(200);
    const edit = offerBody({ update: true, id: offer, rate: '1', min_amount: '1', max_amount: '100000', payment_methods: ['SEPA', 'Revolut'], max_open_trades: 2 });
    expect((await t.post('/api/market/offers/', edit, { token: owner.token })).status).toBe(200);
    const newcomer = await trader(t);
    // Places 0, 1, 2 held under a cap of 2; then 1 and 2: still 2 pending, one past the cap.
    expect(await open(t, newcomer, offer, '97', 'SEPA')).toEqual(refused(409, OFFER_FULL));
    expect((await act(t, takers[0] as Trader, 'cancel', await channelAt(offer, 0))).status).toBe(200);
    expect(await open(t, newcomer, offer, '97', 'SEPA')).toEqual(refused(409, OFFER_FULL));
    expect(await preview(t, newcomer, offer, '97', 'SEPA')).toEqual(refused(409, OFFER_FULL));
    // Place 2 ends: one pending, under the cap, on place 1; the newcomer takes place 0, and the offer is full again.
    expect((await act(t, takers[2] as Trader, 'cancel', await channelAt(offer, 2))).status).toBe(200);
    expect((await open(t, newcomer, offer, '97', 'SEPA')).status).toBe(200);
    expect(await pendingPlaces(offer)).toEqual([0, 1]);
    expect(await open(t, await trader(t), offer, '97', 'SEPA')).toEqual(refused(409, OFFER_FULL));
  });

  it('a buy offer\'s owner keeps their own MAX_OPEN_TRADES while others fill the offer, and each cap answers its own sentence', async () => {
    const buyer = await trader(t);
    const buyOffer = await sellOffer(t, buyer, { offer_type: 'buy', max_open_trades: 2 });
    const sellers = [await trader(t, { BTC: '1' }), await trader(t, { BTC: '1' }), await trader(t, { BTC: '1' })];
    expect((await open(t, sellers[0] as Trader, buyOffer, '97', 'SEPA')).status).toBe(200);
    expect((await open(t, sellers[1] as Trader, buyOffer, '97', 'SEPA')).status).toBe(200);
    expect(await open(t, sellers[2] as Trader, buyOffer, '97', 'SEPA')).toEqual(refused(409, OFFER_FULL));
    const elsewhere = await sellOffer(t, sellers[2] as Trader, { max_open_trades: 20 });
    for (let i = 0; i < 5; i += 1) expect((await open(t, buyer, elsewhere, '97', 'SEPA')).status).toBe(200);
    expect(await tradeCall(t, buyer, { type: 'preview', offer: elsewhere, amount: '97', payment_method: 'SEPA' })).toEqual(
      refused(409, 'You already have 5 open trades as the buyer. Complete or cancel one before you open another.'),
    );
  });
});
