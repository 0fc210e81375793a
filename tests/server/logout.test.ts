import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginResponse } from '../../contracts/security.ts';
import { hashToken } from '../../server/src/infra/secrets.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { login, signUp } from '../support/server-flows.ts';

const EXPIRED = { status: 401, body: { success: false, info: 'Session expired' } };

describe.each(dbTargets)('POST /api/security/logout/ on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());

  const logout = (token: string) => t.post('/api/security/logout/', { device: 'Chrome on Linux (desktop)' }, { token });
  const overview = (token: string) => t.post('/api/user/overview/', {}, { token });

  it('ends the calling session only', async () => {
    const trader = await signUp(t);
    const laptop = (await login(t, trader.username, trader.password)).body.info as LoginResponse;
    expect(await logout(trader.token)).toEqual({ status: 200, body: { success: true, info: 'You have been logged out.' } });
    expect(await overview(trader.token)).toEqual(EXPIRED);
    expect((await overview(laptop.token)).status).toBe(200);

    const { revoked_at } = await t.app.db.one<{ revoked_at: Date | null }>(
      'SELECT revoked_at FROM sessions WHERE token_hash = $1',
      [hashToken(trader.token)],
    );
    expect(revoked_at).toEqual(t.clock.now());
  });

  it('answers 401 without a live session, so a repeated logout is harmless', async () => {
    const trader = await signUp(t);
    expect((await logout(trader.token)).status).toBe(200);
    expect(await logout(trader.token)).toEqual(EXPIRED);
    expect(await t.post('/api/security/logout/', { device: 'x' })).toEqual(EXPIRED);
  });
});
