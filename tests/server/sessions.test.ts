import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginResponse } from '../../contracts/security.ts';
import { hashToken } from '../../server/src/infra/secrets.ts';
import { createTestApp, dbTargets, MINUTE, type TestApp } from '../support/server.ts';
import { login, signUp, signUpWithTwoFactor } from '../support/server-flows.ts';

const EXPIRED = { status: 401, body: { success: false, info: 'Session expired' } };
const DAY = 24 * 60 * MINUTE;

describe.each(dbTargets)('sessions on the private calls on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());

  const overview = (headers: Record<string, string>) => t.post('/api/user/overview/', {}, { headers });

  it('answers 401 "Session expired" to every missing or unusable token', async () => {
    const trader = await signUp(t);
    const twoFactorTrader = await signUpWithTwoFactor(t);
    const interim = (await login(t, twoFactorTrader.username, twoFactorTrader.password)).body.info as LoginResponse;
    const cases: Record<string, Record<string, string>> = {
      'no header': {},
      'an empty bearer': { authorization: 'Bearer ' },
      'another scheme': { authorization: `Basic ${trader.token}` },
      'a token with junk': { authorization: `Bearer ${trader.token} extra` },
      'an unknown token': { authorization: 'Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
      'the token hash itself': { authorization: `Bearer ${hashToken(trader.token)}` },
      'the websocket token': { authorization: `Bearer ${trader.user.websocket_token}` },
      'an interim two-factor token': { authorization: `Bearer ${interim.token}` },
      'a huge header': { authorization: `Bearer ${'x'.repeat(10_000)}` },
    };
    for (const [name, headers] of Object.entries(cases)) {
      expect(await overview(headers), name).toEqual(EXPIRED);
    }
    // The scheme is case-insensitive, as HTTP says.
    expect((await overview({ authorization: `bearer ${trader.token}` })).status).toBe(200);
  });

  it('expires a session after 30 idle days and keeps a used one alive', async () => {
    const idle = await signUp(t);
    const busy = await signUp(t);
    for (let day = 0; day < 3; day += 1) {
      t.clock.advance(15 * DAY);
      expect((await overview({ authorization: `Bearer ${busy.token}` })).status).toBe(200);
    }
    expect(await overview({ authorization: `Bearer ${idle.token}` })).toEqual(EXPIRED);
  });

  it('writes the last use at most once a minute', async () => {
    const trader = await signUp(t);
    const lastUsed = async () =>
      (
        await t.app.db.one<{ last_used_at: Date }>('SELECT last_used_at FROM sessions WHERE token_hash = $1', [
          hashToken(trader.token),
        ])
      ).last_used_at;
    const created = await lastUsed();
    t.clock.advance(30_000);
    await overview({ authorization: `Bearer ${trader.token}` });
    expect(await lastUsed()).toEqual(created);
    t.clock.advance(30_000);
    await overview({ authorization: `Bearer ${trader.token}` });
    expect(await lastUsed()).toEqual(t.clock.now());
  });

  it('follows SESSION_IDLE_DAYS', async () => {
    const short = await createTestApp(target, { env: { SESSION_IDLE_DAYS: '1' } });
    try {
      const trader = await signUp(short);
      short.clock.advance(DAY);
      expect(await short.post('/api/user/overview/', {}, { token: trader.token })).toEqual(EXPIRED);
    } finally {
      await short.close();
    }
  });
});
