import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { traderStatsRepository } from '../../server/src/reputation/trader-stats.repository.ts';
import { createTestApp, dbTargets, MINUTE, type TestApp } from '../support/server.ts';
import { listOffers } from '../support/server-flows.ts';
import { expectLedgerClean } from '../support/server-money.ts';
import { completedTrade, figuresOn, rated, TRADE_EUR } from '../support/server-reputation.ts';
import { act, disputedTrade, moderationCall, moderator, openTrade, sellOffer, trader, type Trader } from '../support/server-trades.ts';

describe.each(dbTargets)('reputation on Browse Offers: averages and completion rates against a hand-computed set, on %s', (target) => {
  let t: TestApp;
  let alice: Trader;
  let bob: Trader;
  let carol: Trader;
  let dave: Trader;
  let eve: Trader;
  beforeAll(async () => {
    // Every list from the database: these figures are the SQL's, whatever the cache would keep.
    t = await createTestApp(target, { env: { OFFER_LIST_CACHE_SECONDS: '0' } });
    alice = await trader(t, { BTC: '1' });
    [bob, carol, dave, eve] = [await trader(t), await trader(t), await trader(t), await trader(t)];
    const offer = await sellOffer(t, alice);
    for (const who of [bob, carol, dave, eve]) await sellOffer(t, who);

    // Alice sells on every trade.
    const t1 = await completedTrade(t, alice, bob, offer);
    await rated(t, bob, t1, 5, 'Fast.');
    await rated(t, alice, t1, 3);
    const t2 = await completedTrade(t, alice, carol, offer);
    await rated(t, carol, t2, 4);
    // t3: paid, then disputed and left open: it has not ended, so it counts for nobody.
    await disputedTrade(t, { buyer: dave, seller: alice, offer }, TRADE_EUR, 'The coin never came.');
    // Paid, disputed by the seller, and refunded by a moderator (no payment arrived): concluded for Dave alone, not for Alice.
    const refunded = await disputedTrade(t, { buyer: dave, seller: alice, offer, by: alice }, TRADE_EUR, 'Nothing arrived.');
    expect((await moderationCall(t, await moderator(t), { type: 'resolve', channel: refunded, outcome: 'refund', resolution: 'No payment.' })).status).toBe(200);
    // Cancelled by the buyer before paying: counts for nobody.
    const t4 = await openTrade(t, bob, offer, TRADE_EUR, 'SEPA');
    expect((await act(t, bob, 'cancel', t4)).status).toBe(200);
    // Two payment windows run out on Carol as the buyer: concluded for her only.
    await openTrade(t, carol, offer, TRADE_EUR, 'SEPA');
    await openTrade(t, carol, offer, TRADE_EUR, 'SEPA');
    t.clock.advance((t.config.paymentWindowMinutes + 1) * MINUTE);
    expect(await t.app.trades.sweep()).toBe(2);
    const t6 = await completedTrade(t, alice, dave, offer);
    await rated(t, dave, t6, 4);
    await completedTrade(t, alice, dave, offer);
  });
  afterAll(async () => {
    await expectLedgerClean(t.app.db);
    await t.close();
  });

  it('shows each trader\'s completed trades, completion rate, average rating and ratings count on their offers', async () => {
    const answer = await listOffers(t, eve.token);
    expect(answer.status).toBe(200);
    const offers = answer.body.info.offers;
    // Alice: completed t1, t2, t6, t8 of concluded t1, t2, t6, t8 = 4/4 (t3 open, the refunded one failed by its buyer); rated 5, 4, 4 = 13/3.
    expect(figuresOn(offers, alice)).toEqual({ user__trades_count: 4, user__completion_rate: '100.00', user__rating: '4.33', user__ratings_count: 3, user__rated_by: 3 });
    // Bob: t1 of t1 (t4 was cancelled unpaid); rated 3 by Alice.
    expect(figuresOn(offers, bob)).toEqual({ user__trades_count: 1, user__completion_rate: '100.00', user__rating: '3.00', user__ratings_count: 1, user__rated_by: 1 });
    // Carol: t2 of t2 and her two expired trades = 1/3; never rated.
    expect(figuresOn(offers, carol)).toEqual({ user__trades_count: 1, user__completion_rate: '33.33', user__rating: '0.00', user__ratings_count: 0, user__rated_by: 0 });
    // Dave: t6, t8 of the refunded one, t6, t8 = 2/3 (t3 still open); never rated.
    expect(figuresOn(offers, dave)).toEqual({ user__trades_count: 2, user__completion_rate: '66.67', user__rating: '0.00', user__ratings_count: 0, user__rated_by: 0 });
    // Eve: nothing yet.
    expect(figuresOn(offers, eve)).toEqual({ user__trades_count: 0, user__completion_rate: null, user__rating: '0.00', user__ratings_count: 0, user__rated_by: 0 });
  });

  it('sums the counters over their slots and rounds half away from zero, in numeric', async () => {
    const { id } = await trader(t);
    const figures = () => traderStatsRepository(t.app.db).figuresOf(id);
    expect(await figures()).toEqual({ trades_count: 0, completion_rate: null, rating: '0.00', ratings_count: 0, rated_by: 0 });
    // 1 completed of 6 concluded over three slots: 16.666… → 16.67. 33 over 8 raters' latest ratings (of 9): 4.125 → 4.13.
    await t.app.db.query(
      `INSERT INTO trader_trade_counts (user_id, slot, completed, concluded) VALUES ($1, 0, 1, 2), ($1, 5, 0, 3), ($1, 63, 0, 1)`,
      [id],
    );
    await t.app.db.query('INSERT INTO trader_ratings (user_id, score_total, ratings, raters) VALUES ($1, 33, 9, 8)', [id]);
    expect(await figures()).toEqual({ trades_count: 1, completion_rate: '16.67', rating: '4.13', ratings_count: 9, rated_by: 8 });
    // 1/8 = 0.125 → 12.50; 15/8 = 1.875 → 1.88.
    await t.app.db.query('UPDATE trader_trade_counts SET concluded = concluded + 1 WHERE user_id = $1 AND slot = 0', [id]);
    await t.app.db.query('UPDATE trader_trade_counts SET concluded = concluded + 1 WHERE user_id = $1 AND slot = 5', [id]);
    await t.app.db.query('UPDATE trader_ratings SET score_total = 15 WHERE user_id = $1', [id]);
    expect(await figures()).toEqual({ trades_count: 1, completion_rate: '12.50', rating: '1.88', ratings_count: 9, rated_by: 8 });
  });

  it('shows a trader on an offer card exactly as on the profile: both read trader_figures', async () => {
    const owner = await trader(t);
    await sellOffer(t, owner);
    const onCard = async () => figuresOn((await listOffers(t, eve.token)).body.info.offers, owner);
    const onProfile = async () => {
      const f = await traderStatsRepository(t.app.db).figuresOf(owner.id);
      return { user__trades_count: f.trades_count, user__completion_rate: f.completion_rate, user__rating: f.rating, user__ratings_count: f.ratings_count, user__rated_by: f.rated_by };
    };
    // No record, then counters on several slots and a rating total whose averages round half away from zero.
    const states = [
      [],
      ["INSERT INTO trader_trade_counts (user_id, slot, completed, concluded) VALUES ($1, 0, 2, 3), ($1, 9, 5, 5)"],
      ['INSERT INTO trader_ratings (user_id, score_total, ratings, raters) VALUES ($1, 29, 8, 8)'],
      ['UPDATE trader_trade_counts SET concluded = concluded + 6 WHERE user_id = $1 AND slot = 9', 'UPDATE trader_ratings SET score_total = 7, raters = 2 WHERE user_id = $1'],
    ];
    const seen = [];
    for (const statements of states) {
      for (const sql of statements) await t.app.db.query(sql, [owner.id]);
      const card = await onCard();
      expect(card).toEqual(await onProfile());
      seen.push(card);
    }
    expect(seen.map((card) => [card?.user__completion_rate, card?.user__rating])).toEqual([
      [null, '0.00'],
      ['87.50', '0.00'],
      ['87.50', '3.63'],
      ['50.00', '3.50'],
    ]);
  });
});

describe.each(dbTargets)('reputation on Browse Offers: the cached list, on %s', (target) => {
  let t: TestApp;
  let seller: Trader;
  let buyer: Trader;
  let offer: number;
  beforeAll(async () => {
    // The product's cache, as shipped.
    t = await createTestApp(target);
    seller = await trader(t, { BTC: '1' });
    buyer = await trader(t);
    offer = await sellOffer(t, seller);
  });
  afterAll(() => t.close());

  it('drops its pages when a rating changes a trader\'s average', async () => {
    const channel = await completedTrade(t, seller, buyer, offer);
    const figures = async () => figuresOn((await listOffers(t, buyer.token)).body.info.offers, seller);
    expect(await figures()).toMatchObject({ user__rating: '0.00', user__ratings_count: 0, user__rated_by: 0 });
    const hits = t.app.offerListCache.stats.hits;
    expect(await figures()).toMatchObject({ user__rating: '0.00', user__ratings_count: 0, user__rated_by: 0 });
    // The second list came from the cache: only an invalidation can make the next one differ.
    expect(t.app.offerListCache.stats.hits).toBe(hits + 1);
    await rated(t, buyer, channel, 4);
    expect(await figures()).toMatchObject({ user__rating: '4.00', user__ratings_count: 1 });
  });

  it('drops its pages when a trade ends on its buyer: its payment window run out; a payment marked counts nothing until the trade ends', async () => {
    const buyerFigures = async () => figuresOn((await listOffers(t, seller.token)).body.info.offers, buyer);
    await sellOffer(t, buyer);
    // The buyer completed the trade of the test before, and nothing else concluded: 1/1.
    expect(await buyerFigures()).toMatchObject({ user__trades_count: 1, user__completion_rate: '100.00' });
    const paid = await openTrade(t, buyer, offer, TRADE_EUR, 'SEPA');
    expect((await act(t, buyer, 'mark_paid', paid)).status).toBe(200);
    expect(await buyerFigures()).toMatchObject({ user__trades_count: 1, user__completion_rate: '100.00' });
    await openTrade(t, buyer, offer, TRADE_EUR, 'SEPA');
    expect(await buyerFigures()).toMatchObject({ user__completion_rate: '100.00' });
    t.clock.advance((t.config.paymentWindowMinutes + 1) * MINUTE);
    expect(await t.app.trades.sweep()).toBe(1);
    // 1 completed of the first and the expired one.
    expect(await buyerFigures()).toMatchObject({ user__trades_count: 1, user__completion_rate: '50.00' });
    expect((await act(t, seller, 'release_coin', paid)).status).toBe(200);
    expect(await buyerFigures()).toMatchObject({ user__trades_count: 2, user__completion_rate: '66.67' });
  });

  it("a buyer who marks paid without paying cannot lower the seller's rate: the moderator's refund counts against the buyer alone", async () => {
    // The attack a review found when a payment marked counted for both parties: mark paid, never pay, let the
    // seller (or yourself) dispute, and the moderator's refund charged the seller a trade that never completed.
    const honest = await trader(t, { BTC: '1' });
    const honestOffer = await sellOffer(t, honest);
    const attacker = await trader(t);
    await sellOffer(t, attacker);
    await completedTrade(t, honest, attacker, honestOffer);
    const figures = async () => {
      const offers = (await listOffers(t, buyer.token)).body.info.offers;
      return [figuresOn(offers, honest), figuresOn(offers, attacker)];
    };
    const clean = { user__trades_count: 1, user__completion_rate: '100.00', user__rating: '0.00', user__ratings_count: 0, user__rated_by: 0 };
    expect(await figures()).toEqual([clean, clean]);
    const channel = await disputedTrade(t, { buyer: attacker, seller: honest, offer: honestOffer }, TRADE_EUR, 'The seller will not release.');
    expect(await figures()).toEqual([clean, clean]);
    expect(
      await moderationCall(t, await moderator(t), { type: 'resolve', channel, outcome: 'refund', resolution: 'No payment reached the seller.' }),
    ).toMatchObject({ status: 200 });
    // Read through the product's cache: the refund dropped its pages. The seller still 1/1; the buyer 1/2.
    expect(await figures()).toEqual([clean, { ...clean, user__completion_rate: '50.00' }]);
  });
});
