import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_RATINGS_LIMIT, traderProfile, type TraderProfile } from '../../contracts/traders.ts';
import { createTestApp, dbTargets, MINUTE, type TestApp } from '../support/server.ts';
import { listOffers, signUpWithTwoFactor } from '../support/server-flows.ts';
import { completedTrade, rated } from '../support/server-reputation.ts';
import { sellOffer, trader, type Trader } from '../support/server-trades.ts';

const TRADERS = '/api/market/traders/';
const DAY = 24 * 60 * MINUTE;
const refused = (status: number, info: string) => ({ status, body: { success: false, info } });

describe.each(dbTargets)('POST /api/market/traders/ {type:"profile"} on %s', (target) => {
  let t: TestApp;
  let seller: Trader;
  let ann: Trader;
  let ben: Trader;
  let offers: number[];
  /** Each rater's latest rating, oldest first, as the profile should show them. */
  const latest: Array<{ score: number; comment: string; rater: string; created: string }> = [];
  beforeAll(async () => {
    t = await createTestApp(target);
    seller = await trader(t, { BTC: '1' });
    ann = await trader(t);
    ben = await trader(t);
    const first = await sellOffer(t, seller);
    /** A completed trade with `buyer`, rated by them a minute later. */
    const rateAfterTrade = async (buyer: Trader, score: number, comment: string) => {
      const channel = await completedTrade(t, seller, buyer, first);
      t.clock.advance(MINUTE);
      await rated(t, buyer, channel, score, comment);
      return { score, comment, rater: buyer.username, created: t.clock.now().toISOString() };
    };
    // One more rater than a profile shows (ann first, ben last), a minute apart; scores 1,2,3,4,5,1,2,3,4,5,1 = 31.
    const raters = [ann, ...(await Promise.all(Array.from({ length: PROFILE_RATINGS_LIMIT - 1 }, () => trader(t)))), ben];
    for (const [i, buyer] of raters.entries()) latest.push(await rateAfterTrade(buyer, 1 + (i % 5), i % 3 === 0 ? '' : `Trade number ${i}`));
    // Ann trades again and rates 5: her latest replaces her 1 in the average and moves to the top of the list.
    latest.shift();
    latest.push(await rateAfterTrade(ann, 5, 'Better this time'));
    const paused = await sellOffer(t, seller, { currency: 'USD' });
    expect((await t.post(`/api/market/offers/`, { type: 'toggle', id: paused }, { token: seller.token })).status).toBe(200);
    const last = await sellOffer(t, seller, { currency: 'GBP' });
    offers = [last, first];
  });
  afterAll(() => t.close());

  const profile = (username: unknown, who: Trader = ann) => t.post<TraderProfile>(TRADERS, { type: 'profile', username }, { token: who.token });

  it('answers the trader\'s record, each rater\'s latest rating newest first, and their live offers as Browse Offers shows them', async () => {
    const answer = await profile(seller.username.toUpperCase());
    expect(answer.status).toBe(200);
    expect(traderProfile.safeParse(answer.body.info).success).toBe(true);
    const { created_at: joined } = await t.app.db.one<{ created_at: Date }>('SELECT created_at FROM users WHERE id = $1', [seller.id]);
    // 12 completed (12 concluded, each as it completed); 12 ratings from 11 raters, whose latest scores are
    // 5 (ann's second), 2,3,4,5,1,2,3,4,5,1 = 35 over 11 = 3.1818… → 3.18.
    expect({ ...answer.body.info, ratings: undefined, offers: undefined }).toEqual({
      username: seller.username,
      joined: joined.toISOString(),
      account_age_days: 0,
      trades_count: 12,
      completion_rate: '100.00',
      rating: '3.18',
      ratings_count: 12,
      rated_by: 11,
      ratings: undefined,
      offers: undefined,
    });
    expect(answer.body.info.ratings).toEqual(latest.slice(1).reverse());
    expect(answer.body.info.ratings).toHaveLength(PROFILE_RATINGS_LIMIT);

    // The same items, figures and order as Browse Offers filtered to the trader (the paused offer in neither).
    const browse = await listOffers(t, ben.token, { user__username__icontains: seller.username });
    expect(browse.body.info.offers.map((offer) => offer.id)).toEqual(offers);
    expect(answer.body.info.offers).toEqual(browse.body.info.offers);
  });

  it('answers the account\'s age in whole days since it was made', async () => {
    const { created_at: joined } = await t.app.db.one<{ created_at: Date }>('SELECT created_at FROM users WHERE id = $1', [seller.id]);
    t.clock.set(new Date(joined.getTime() + 30 * DAY - 1));
    expect((await profile(seller.username)).body.info.account_age_days).toBe(29);
    t.clock.set(new Date(joined.getTime() + 30 * DAY));
    expect((await profile(seller.username)).body.info.account_age_days).toBe(30);
  });

  it('answers a trader nobody has traded with, and a buyer from their side', async () => {
    const newcomer = await trader(t);
    expect((await profile(newcomer.username)).body.info).toMatchObject({
      account_age_days: 0,
      trades_count: 0,
      completion_rate: null,
      rating: '0.00',
      ratings_count: 0,
      rated_by: 0,
      ratings: [],
      offers: [],
    });
    // Ann bought twice and was never rated.
    expect((await profile(ann.username, ben)).body.info).toMatchObject({ trades_count: 2, completion_rate: '100.00', rating: '0.00', rated_by: 0, ratings: [] });
  });

  it('shows a moderator like anyone else', async () => {
    await t.app.db.query(`UPDATE users SET role = 'moderator' WHERE id = $1`, [ben.id]);
    try {
      expect((await profile(ben.username)).body.info).toMatchObject({ username: ben.username, trades_count: 1 });
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

describe.each(dbTargets)('POST /api/market/traders/ {type:"standing"} on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());

  const standing = (who: Trader) => t.post(TRADERS, { type: 'standing' }, { token: who.token });

  it('answers the caller\'s own completed trades as reputation counts them, account age and two-factor', async () => {
    const seller = await trader(t, { BTC: '1' });
    const buyer = await trader(t);
    expect(await standing(buyer)).toEqual({ status: 200, body: { success: true, info: { completed_trades: 0, account_age_days: 0, two_factor: false } } });
    await completedTrade(t, seller, buyer, await sellOffer(t, seller));
    t.clock.advance(3 * DAY);
    expect((await standing(buyer)).body.info).toEqual({ completed_trades: 1, account_age_days: 3, two_factor: false });
    const secured = await signUpWithTwoFactor(t);
    expect((await standing({ ...buyer, token: secured.token })).body.info).toEqual({ completed_trades: 0, account_age_days: 0, two_factor: true });
  });

  it('needs a session', async () => {
    expect(await t.post(TRADERS, { type: 'standing' })).toEqual(refused(401, 'Session expired'));
  });
});
