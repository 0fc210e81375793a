import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overview } from '../../contracts/user.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { publishOffer, signUp } from '../support/server-flows.ts';

describe.each(dbTargets)('POST /api/user/overview/ on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  it('answers the dashboard figures of a new trader: nothing held, offered or traded yet', async () => {
    const trader = await signUp(t);
    const answer = await t.post('/api/user/overview/', {}, { token: trader.token });
    expect(answer).toEqual({
      status: 200,
      body: {
        success: true,
        info: { total_balance: '0.00', active_offers: 0, completed_trades: 0, open_chats: 0, recent_trades: [] },
      },
    });
    expect(overview.safeParse(answer.body.info).success).toBe(true);
  });

  it('counts active_offers: the caller\'s own live offers, not paused ones, not others\'', async () => {
    const trader = await signUp(t);
    const other = await signUp(t);
    const activeOffers = async () =>
      (await t.post<{ active_offers: number }>('/api/user/overview/', {}, { token: trader.token })).body.info.active_offers;
    const first = await publishOffer(t, trader.token);
    await publishOffer(t, trader.token);
    await publishOffer(t, other.token);
    expect(await activeOffers()).toBe(2);
    await t.post('/api/market/offers/', { type: 'toggle', id: first }, { token: trader.token });
    expect(await activeOffers()).toBe(1);
  });

  it('accepts no body at all, as the spec sends it', async () => {
    const trader = await signUp(t);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/overview/',
      headers: { authorization: `Bearer ${trader.token}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: true, info: { total_balance: '0.00' } });
  });

  it('needs a session', async () => {
    expect(await t.post('/api/user/overview/', {})).toEqual({
      status: 401,
      body: { success: false, info: 'Session expired' },
    });
  });
});
