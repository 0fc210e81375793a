import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_RATINGS_LIMIT, traderProfile, type TraderProfile } from '../../contracts/traders.ts';
import { createTestApp, dbTargets, MINUTE, type TestApp } from '../support/server.ts';
import { listOffers } from '../support/server-flows.ts';
import { completedTrade, rated } from '../support/server-reputation.ts';
import { sellOffer, trader, type Trader } from '../support/server-trades.ts';

const TRADERS = '/api/market/traders/';
const refused = (status: number, info: string) => ({ status, body: { success: false, info } });

describe.each(dbTargets)('POST /api/market/traders/ {type:"profile"} on %s', (target) => {
  let t: TestApp;
  let seller: Trader;
  let ann: Trader;
  let ben: Trader;
  let offers: number[];
  /** The ratings given, oldest first, as the profile should show them. */
  const given: Array<{ score: number; comment: string; rater: string; created: string }> = [];
  beforeAll(async () => {
    t = await createTestApp(target);
    seller = await trader(t, { BTC: '1' });
    ann = await trader(t);
    ben = await trader(t);
    const first = await sellOffer(t, seller);
    // One more rating than a profile shows, a minute apart, from two raters in turn.
    for (let i = 0; i <= PROFILE_RATINGS_LIMIT; i += 1) {
      const buyer = i % 2 === 0 ? ann : ben;
      const channel = await completedTrade(t, seller, buyer, first);
      t.clock.advance(MINUTE);
      const score = 1 + (i % 5);
      const comment = i % 3 === 0 ? '' : `Trade number ${i}`;
      await rated(t, buyer, channel, score, comment);
      given.push({ score, comment, rater: buyer.username, created: t.clock.now().toISOString() });
    }
    const paused = await sellOffer(t, seller, { currency: 'USD' });
    expect((await t.post(`/api/market/offers/`, { type: 'toggle', id: paused }, { token: seller.token })).status).toBe(200);
    const last = await sellOffer(t, seller, { currency: 'GBP' });
    offers = [last, first];
  });
  afterAll(() => t.close());

  const profile = (username: unknown, who: Trader = ann) => t.post<TraderProfile>(TRADERS, { type: 'profile', username }, { token: who.token });

  it('answers the trader\'s record, the newest ratings newest first, and their live offers as Browse Offers shows them', async () => {
    const answer = await profile(seller.username.toUpperCase());
    expect(answer.status).toBe(200);
    expect(traderProfile.safeParse(answer.body.info).success).toBe(true);
    const { created_at: joined } = await t.app.db.one<{ created_at: Date }>('SELECT created_at FROM users WHERE id = $1', [seller.id]);
    // 11 completed (11 concluded, each as it completed); scores 1,2,3,4,5,1,2,3,4,5,1 = 31 over 11 = 2.8181… → 2.82.
    expect({ ...answer.body.info, ratings: undefined, offers: undefined }).toEqual({
      username: seller.username,
      joined: joined.toISOString(),
      trades_count: 11,
      completion_rate: '100.00',
      rating: '2.82',
      ratings_count: 11,
      ratings: undefined,
      offers: undefined,
    });
    expect(answer.body.info.ratings).toEqual(given.slice(1).reverse());
    expect(answer.body.info.ratings).toHaveLength(PROFILE_RATINGS_LIMIT);

    // The same items, figures and order as Browse Offers filtered to the trader (the paused offer in neither).
    const browse = await listOffers(t, ben.token, { user__username__icontains: seller.username });
    expect(browse.body.info.offers.map((offer) => offer.id)).toEqual(offers);
    expect(answer.body.info.offers).toEqual(browse.body.info.offers);
  });

  it('answers a trader nobody has traded with, and a buyer from their side', async () => {
    const newcomer = await trader(t);
    expect((await profile(newcomer.username)).body.info).toMatchObject({
      trades_count: 0,
      completion_rate: null,
      rating: '0.00',
      ratings_count: 0,
      ratings: [],
      offers: [],
    });
    // Ann bought 6 times and was never rated.
    expect((await profile(ann.username, ben)).body.info).toMatchObject({ trades_count: 6, completion_rate: '100.00', rating: '0.00', ratings: [] });
  });

  it('shows a moderator like anyone else', async () => {
    await t.app.db.query(`UPDATE users SET role = 'moderator' WHERE id = $1`, [ben.id]);
    try {
      expect((await profile(ben.username)).body.info).toMatchObject({ username: ben.username, trades_count: 5 });
    } finally {
      await t.app.db.query(`UPDATE users SET role = 'trader' WHERE id = $1`, [ben.id]);
    }
  });

  it('answers 404 for an unknown username, 400 for a missing one', async () => {
    expect(await profile('nobody_here')).toEqual(refused(404, 'This trader does not exist.'));
    // Not a username pattern at all: still just unknown.
    expect(await profile('%')).toEqual(refused(404, 'This trader does not exist.'));
    expect(await profile('')).toEqual(refused(400, 'username is required'));
    expect(await t.post(TRADERS, { type: 'profile' }, { token: ann.token })).toEqual(refused(400, 'username is required'));
  });

  it('needs a session', async () => {
    expect(await t.post(TRADERS, { type: 'profile', username: seller.username })).toEqual(refused(401, 'Session expired'));
  });
});
