import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TraderProfile } from '../../contracts/traders.ts';
import { loadConfig } from '../../server/src/config.ts';
import { createTestApp, dbTargets, MINUTE, type TestApp } from '../support/server.ts';
import { listOffers } from '../support/server-flows.ts';
import { coinByTicker, expectLedgerClean } from '../support/server-money.ts';
import { completedTrade, figuresOn, rate, rated } from '../support/server-reputation.ts';
import { disputedTrade, moderationCall, moderator, openTrade, sellOffer, trader, tradeCountsOf, type Trader } from '../support/server-trades.ts';

const refused = (status: number, info: string) => ({ status, body: { success: false, info } });
const TOO_SMALL = 'This trade was too small to count toward reputation, so it cannot be rated.';

describe.each(dbTargets)('reputation counts only real trades (REPUTATION_MIN_TRADE_USD, default 10) on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => {
    await expectLedgerClean(t.app.db);
    await t.close();
  });

  const profile = (who: Trader, asker: Trader) =>
    t.post<TraderProfile>('/api/market/traders/', { type: 'profile', username: who.username }, { token: asker.token });
  const NOTHING = { trades_count: 0, completion_rate: null, rating: '0.00', ratings_count: 0, rated_by: 0 };
  const NOTHING_LISTED = { user__trades_count: 0, user__completion_rate: null, user__rating: '0.00', user__ratings_count: 0, user__rated_by: 0 };

  it('gives alice no rating, no count and no completion rate for 8 trades of 0.02 USD with a second account', async () => {
    // The reproduction: eight 0.02 USD trades with a fresh second account took alice from no history to
    // 5.00 stars (8 ratings), 8 trades and 100% completion in under a second.
    const alice = await trader(t, { BTC: '1' });
    const sybil = await trader(t);
    const tiny = await sellOffer(t, alice, { min_amount: '0.01', max_open_trades: 20 });
    for (let i = 0; i < 8; i += 1) {
      const channel = await completedTrade(t, alice, sybil, tiny, '0.02');
      expect(await rate(t, sybil, channel, 5)).toEqual(refused(409, TOO_SMALL));
      expect(await rate(t, alice, channel, 5)).toEqual(refused(409, TOO_SMALL));
    }
    const someone = await trader(t);
    expect(figuresOn((await listOffers(t, someone.token)).body.info.offers, alice)).toEqual(NOTHING_LISTED);
    expect((await profile(alice, someone)).body.info).toMatchObject({ ...NOTHING, ratings: [] });
    expect((await profile(sybil, someone)).body.info).toMatchObject({ ...NOTHING, ratings: [] });
    expect(await tradeCountsOf(t, alice)).toEqual({ completed: 0, concluded: 0 });
    expect(await t.app.db.query('SELECT * FROM trade_ratings WHERE ratee_id = $1', [alice.id])).toEqual([]);
    // The trades themselves are as real as any other: completed, the coins moved.
    expect(await t.app.db.one("SELECT count(*)::int AS completed FROM trades WHERE offer_id = $1 AND status = 'completed'", [tiny])).toEqual({ completed: 8 });
  });

  it('counts a trade worth exactly the minimum, and not one a cent below (its escrow at the USD price frozen at open)', async () => {
    const usdt = await coinByTicker(t.app.db, 'USDT');
    const seller = await trader(t, { USDT: '1000' });
    const buyer = await trader(t);
    // USDT at 1.00 USD, 1 EUR per USD: 10.00 EUR holds 10 USDT in escrow (10.00 USD), 9.99 EUR holds 9.99 USD.
    const offer = await sellOffer(t, seller, { coin: String(usdt.id), min_amount: '1' });
    const below = await completedTrade(t, seller, buyer, offer, '9.99');
    const exactly = await completedTrade(t, seller, buyer, offer, '10.00');
    expect(await tradeCountsOf(t, seller)).toEqual({ completed: 1, concluded: 1 });
    expect(await rate(t, buyer, below, 4)).toEqual(refused(409, TOO_SMALL));
    await rated(t, buyer, exactly, 4);
    expect((await profile(seller, buyer)).body.info).toMatchObject({ trades_count: 1, rating: '4.00', ratings_count: 1, rated_by: 1 });
  });

  it('lets a sub-minimum trade that expires or is refunded conclude nothing for its buyer', async () => {
    const seller = await trader(t, { BTC: '1' });
    const buyer = await trader(t);
    const tiny = await sellOffer(t, seller, { min_amount: '0.01' });
    await openTrade(t, buyer, tiny, '0.02', 'SEPA');
    t.clock.advance((t.config.paymentWindowMinutes + 1) * MINUTE);
    expect(await t.app.trades.sweep()).toBeGreaterThanOrEqual(1);
    const channel = await disputedTrade(t, { buyer, seller, offer: tiny }, '0.02');
    expect((await moderationCall(t, await moderator(t), { type: 'resolve', channel, outcome: 'refund', resolution: 'No payment arrived.' })).status).toBe(200);
    expect(await tradeCountsOf(t, buyer)).toEqual({ completed: 0, concluded: 0 });
    expect(await tradeCountsOf(t, seller)).toEqual({ completed: 0, concluded: 0 });
  });

  it('counts one counterparty once in the average, with their latest rating; the profile shows how many traders rated', async () => {
    const seller = await trader(t, { BTC: '1' });
    const [regular, other] = [await trader(t), await trader(t)];
    const offer = await sellOffer(t, seller);
    for (const score of [5, 5, 5, 1]) {
      const channel = await completedTrade(t, seller, regular, offer);
      t.clock.advance(MINUTE);
      await rated(t, regular, channel, score, `Scored ${score}`);
    }
    const asker = await trader(t);
    // Four ratings from one trader: the average is their latest, 1.
    expect((await profile(seller, asker)).body.info).toMatchObject({ trades_count: 4, rating: '1.00', ratings_count: 4, rated_by: 1 });
    const channel = await completedTrade(t, seller, other, offer);
    t.clock.advance(MINUTE);
    await rated(t, other, channel, 4, 'Fine');
    const answer = (await profile(seller, asker)).body.info;
    expect(answer).toMatchObject({ trades_count: 5, rating: '2.50', ratings_count: 5, rated_by: 2 });
    // The ratings listed are the ones the average is over: each rater's latest, newest first.
    expect(answer.ratings.map((r) => [r.rater, r.score, r.comment])).toEqual([
      [other.username, 4, 'Fine'],
      [regular.username, 1, 'Scored 1'],
    ]);
    expect(figuresOn((await listOffers(t, asker.token, { user__username__icontains: seller.username })).body.info.offers, seller)).toMatchObject({
      user__rating: '2.50',
      user__ratings_count: 5,
      user__rated_by: 2,
    });
  });

  it('keeps the totals exact when one rater rates two trades at once: one rater, two ratings, the score that landed last', async () => {
    const seller = await trader(t, { BTC: '1' });
    const buyer = await trader(t);
    const offer = await sellOffer(t, seller);
    const [first, second] = [await completedTrade(t, seller, buyer, offer), await completedTrade(t, seller, buyer, offer)];
    const answers = await Promise.all([rate(t, buyer, first, 2), rate(t, buyer, second, 5)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const latest = await t.app.db.one<{ score: number }>('SELECT score FROM trader_raters WHERE ratee_id = $1 AND rater_id = $2', [seller.id, buyer.id]);
    expect(await t.app.db.one('SELECT score_total::int AS score_total, ratings, raters FROM trader_ratings WHERE user_id = $1', [seller.id])).toEqual({
      score_total: latest.score,
      ratings: 2,
      raters: 1,
    });
  });
});

describe.each(dbTargets)('REPUTATION_MIN_TRADE_USD set by the operator on %s', (target) => {
  it('counts every trade at 0, and refuses a value that is not an amount at boot', async () => {
    const t = await createTestApp(target, { env: { REPUTATION_MIN_TRADE_USD: '0' } });
    try {
      const seller = await trader(t, { BTC: '1' });
      const buyer = await trader(t);
      const channel = await completedTrade(t, seller, buyer, await sellOffer(t, seller, { min_amount: '0.01' }), '0.02');
      await rated(t, buyer, channel, 5);
      expect(await tradeCountsOf(t, seller)).toEqual({ completed: 1, concluded: 1 });
    } finally {
      await t.close();
    }
    for (const wrong of ['-1', 'ten', '10.001', '1e3']) {
      expect(() => loadConfig({ REPUTATION_MIN_TRADE_USD: wrong }), wrong).toThrow(/REPUTATION_MIN_TRADE_USD: must be an amount of USD/);
    }
    expect(loadConfig({}).reputationMinTradeUsd).toBe('10');
  });
});
