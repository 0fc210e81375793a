import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation } from '../../contracts/trade.ts';
import type { RealtimeEvent } from '../../server/src/infra/realtime/realtime.plugin.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { completedTrade, rate, rated, TRADE_EUR } from '../support/server-reputation.ts';
import { act, openTrade, sellOffer, trader, type Trader } from '../support/server-trades.ts';

const refused = (status: number, info: string) => ({ status, body: { success: false, info } });

describe.each(dbTargets)('POST /api/market/trade/ {type:"rate"} on %s', (target) => {
  let t: TestApp;
  let seller: Trader;
  let buyer: Trader;
  let stranger: Trader;
  let offer: number;
  const events: RealtimeEvent[] = [];
  beforeAll(async () => {
    t = await createTestApp(target);
    seller = await trader(t, { BTC: '1' });
    buyer = await trader(t);
    stranger = await trader(t);
    offer = await sellOffer(t, seller);
    t.app.realtime.subscribe((event) => events.push(event));
  });
  afterAll(() => t.close());

  const ratingsOf = (channel: string) =>
    t.app.db.query<{ rater_id: string; ratee_id: string; score: number; comment: string }>(
      `SELECT r.rater_id, r.ratee_id, r.score, r.comment FROM trade_ratings r JOIN trades tr ON tr.id = r.trade_id
       WHERE tr.channel = $1 ORDER BY r.rater_id`,
      [channel],
    );
  const totalsOf = async (who: Trader) =>
    (await t.app.db.maybe<{ score_total: string; ratings: number }>('SELECT score_total::text, ratings FROM trader_ratings WHERE user_id = $1', [who.id])) ?? {
      score_total: '0',
      ratings: 0,
    };

  it('lets each party of a completed trade rate the other once, the comment trimmed, and adds it to the ratee\'s totals', async () => {
    const channel = await completedTrade(t, seller, buyer, offer);
    const sellerBefore = await totalsOf(seller);
    await rated(t, buyer, channel, 4, '  Quick and friendly.  ');
    await rated(t, seller, channel, 5);
    expect(await ratingsOf(channel)).toEqual(
      [
        { rater_id: buyer.id, ratee_id: seller.id, score: 4, comment: 'Quick and friendly.' },
        { rater_id: seller.id, ratee_id: buyer.id, score: 5, comment: '' },
      ].sort((a, b) => Number(a.rater_id) - Number(b.rater_id)),
    );
    expect(await totalsOf(seller)).toEqual({ score_total: String(Number(sellerBefore.score_total) + 4), ratings: sellerBefore.ratings + 1 });
    expect(await totalsOf(buyer)).toEqual({ score_total: '5', ratings: 1 });
  });

  it('republishes the conversation, so the rater\'s shows their rating at once', async () => {
    const channel = await completedTrade(t, seller, buyer, offer);
    events.length = 0;
    await rated(t, buyer, channel, 3, 'Slow to release.');
    const conversationTo = (who: Trader) =>
      events.filter((e) => e.channel === `private-user-${who.username}` && e.event === 'conversation').map((e) => e.data as Conversation);
    expect(conversationTo(buyer).map((c) => [c.channel, c.my_rating])).toEqual([[channel, { score: 3, comment: 'Slow to release.' }]]);
    // The seller's own rating of the trade: none yet.
    expect(conversationTo(seller).map((c) => [c.channel, c.my_rating])).toEqual([[channel, null]]);
  });

  it('refuses a second rating of the same trade by the same party, and counts it once', async () => {
    const channel = await completedTrade(t, seller, buyer, offer);
    await rated(t, buyer, channel, 5);
    const before = await totalsOf(seller);
    expect(await rate(t, buyer, channel, 1, 'Changed my mind')).toEqual(refused(409, 'You have already rated this trade.'));
    expect(await totalsOf(seller)).toEqual(before);
    expect((await ratingsOf(channel)).map((r) => r.score)).toEqual([5]);
  });

  it('counts exactly one of two identical ratings sent at once', async () => {
    // A buyer who never rated the seller: their rating adds to the totals rather than replacing an earlier one.
    const newcomer = await trader(t);
    const channel = await completedTrade(t, seller, newcomer, offer);
    const before = await totalsOf(seller);
    const answers = await Promise.all([rate(t, newcomer, channel, 2), rate(t, newcomer, channel, 2)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await totalsOf(seller)).toEqual({ score_total: String(Number(before.score_total) + 2), ratings: before.ratings + 1 });
    expect(await ratingsOf(channel)).toHaveLength(1);
  });

  it('refuses a cancelled trade and a pending one, paid or not', async () => {
    const cancelled = await openTrade(t, buyer, offer, TRADE_EUR, 'SEPA');
    expect((await act(t, buyer, 'cancel', cancelled)).status).toBe(200);
    expect(await rate(t, buyer, cancelled, 5)).toEqual(refused(409, 'Only a completed trade can be rated.'));
    expect(await rate(t, seller, cancelled, 1)).toEqual(refused(409, 'Only a completed trade can be rated.'));

    const pending = await openTrade(t, buyer, offer, TRADE_EUR, 'SEPA');
    expect(await rate(t, seller, pending, 5)).toEqual(refused(409, 'Only a completed trade can be rated.'));
    expect((await act(t, buyer, 'mark_paid', pending)).status).toBe(200);
    expect(await rate(t, buyer, pending, 5)).toEqual(refused(409, 'Only a completed trade can be rated.'));
    expect(await ratingsOf(cancelled)).toEqual([]);
    expect(await ratingsOf(pending)).toEqual([]);
    // Leaves no pending trade behind for the tests after it.
    expect((await act(t, seller, 'release_coin', pending)).status).toBe(200);
  });

  it('answers a stranger, a moderator and an unknown channel as if the trade did not exist', async () => {
    const channel = await completedTrade(t, seller, buyer, offer);
    expect(await rate(t, stranger, channel, 5)).toEqual(refused(404, 'This trade does not exist.'));
    await t.app.db.query(`UPDATE users SET role = 'moderator' WHERE id = $1`, [stranger.id]);
    try {
      expect(await rate(t, stranger, channel, 5)).toEqual(refused(404, 'This trade does not exist.'));
    } finally {
      await t.app.db.query(`UPDATE users SET role = 'trader' WHERE id = $1`, [stranger.id]);
    }
    expect(await rate(t, buyer, 'no-such-channel', 5)).toEqual(refused(404, 'This trade does not exist.'));
    expect(await rate(t, buyer, `${channel.slice(0, -1)}${channel.endsWith('a') ? 'b' : 'a'}`, 5)).toEqual(refused(404, 'This trade does not exist.'));
    expect(await ratingsOf(channel)).toEqual([]);
  });

  it('refuses a score other than a whole 1 to 5, and a comment over 500 characters, with the sentence', async () => {
    const channel = await completedTrade(t, seller, buyer, offer);
    for (const score of [0, 6, 2.5, -1, '4', null]) {
      expect(await rate(t, buyer, channel, score), String(score)).toEqual(refused(400, 'score: Please choose a rating from 1 to 5'));
    }
    expect(await rate(t, buyer, channel, 5, 'x'.repeat(501))).toEqual(refused(400, 'comment: A comment can be at most 500 characters'));
    expect(await rate(t, buyer, channel, 5, 'x'.repeat(2001))).toEqual(refused(400, 'comment: A comment can be at most 500 characters'));
    expect(await rate(t, buyer, channel, 5, 42)).toEqual(refused(400, 'comment must be text'));
    expect(await ratingsOf(channel)).toEqual([]);
    // Exactly 500 once trimmed is a comment.
    await rated(t, buyer, channel, 5, ` ${'y'.repeat(500)} `);
    expect((await ratingsOf(channel))[0]?.comment).toBe('y'.repeat(500));
  });

  it('needs a session', async () => {
    expect(await t.post('/api/market/trade/', { type: 'rate', channel: 'x', score: 5 })).toEqual(refused(401, 'Session expired'));
  });
});
