import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginResponse, SessionResponse } from '../../contracts/security.ts';
import { hashToken } from '../../server/src/infra/secrets.ts';
import { createTestApp, dbTargets, MINUTE, type TestApp } from '../support/server.ts';
import { codeAt, login, otherCode, signUpWithTwoFactor } from '../support/server-flows.ts';

const EXPIRED = { success: false, info: 'Session expired' };
/** The sign-in attempt is over (expired, used, out of tries): its own refusal, not "session expired" (which signs out). */
const OVER = { status: 409, body: { success: false, info: 'This sign-in has expired. Please enter your username and password again.' } };
const STEP = 30_000;

describe.each(dbTargets)('POST /api/security/two_factor_login/ on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());

  async function interimToken(trader: { username: string; password: string }): Promise<string> {
    const answer = await login(t, trader.username, trader.password);
    expect(answer.status).toBe(200);
    const info = answer.body.info as LoginResponse;
    expect(info.two_factor).toBe(true);
    return info.token;
  }

  const twoFactorLogin = (token: string, code: string) =>
    t.post<SessionResponse | string>('/api/security/two_factor_login/', { token, code, device: 'phone' });

  it('answers login with two_factor and an interim token carrying only the username', async () => {
    const trader = await signUpWithTwoFactor(t);
    const answer = await login(t, trader.username, trader.password);
    expect(answer.body).toEqual({
      success: true,
      info: { two_factor: true, token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), user: { username: trader.username } },
    });
  });

  it('turns the interim token and a current code into a session', async () => {
    const trader = await signUpWithTwoFactor(t);
    const token = await interimToken(trader);
    const answer = await twoFactorLogin(token, await codeAt(t, trader.secret));
    expect(answer.status).toBe(200);
    const session = answer.body.info as SessionResponse;
    expect(session.user).toEqual({ username: trader.username, email: trader.email, websocket_token: expect.any(String), role: 'trader' });
    expect((await t.post('/api/user/overview/', {}, { token: session.token })).status).toBe(200);
    const { device } = await t.app.db.one<{ device: string }>('SELECT device FROM sessions WHERE token_hash = $1', [
      hashToken(session.token),
    ]);
    expect(device).toBe('phone');
  });

  it('refuses the interim token on product calls with 401', async () => {
    const trader = await signUpWithTwoFactor(t);
    const token = await interimToken(trader);
    for (const path of ['/api/user/overview/', '/api/security/two_factor/', '/api/security/logout/']) {
      expect(await t.post(path, { type: 'status' }, { token }), path).toEqual({ status: 401, body: EXPIRED });
    }
  });

  it('accepts one step of clock drift either way, and not two', async () => {
    for (const [offset, accepted] of [[-1, true], [1, true], [-2, false], [2, false]] as const) {
      const trader = await signUpWithTwoFactor(t);
      const token = await interimToken(trader);
      const answer = await twoFactorLogin(token, await codeAt(t, trader.secret, offset));
      expect(answer.status, `offset ${offset}`).toBe(accepted ? 200 : 400);
      if (!accepted) expect(answer.body.info).toBe('Invalid authentication code.');
    }
  });

  it('accepts a code once: the same code on a second login is refused', async () => {
    const trader = await signUpWithTwoFactor(t);
    const code = await codeAt(t, trader.secret);
    expect((await twoFactorLogin(await interimToken(trader), code)).status).toBe(200);
    const replay = await twoFactorLogin(await interimToken(trader), code);
    expect(replay).toEqual({
      status: 400,
      body: { success: false, info: 'This authentication code has already been used. Please wait for the next one.' },
    });
    // An older step after a newer one is refused too; the next step is fine.
    expect((await twoFactorLogin(await interimToken(trader), await codeAt(t, trader.secret, -1))).status).toBe(400);
    expect((await twoFactorLogin(await interimToken(trader), await codeAt(t, trader.secret, 1))).status).toBe(200);
  });

  it('uses an interim token once', async () => {
    const trader = await signUpWithTwoFactor(t);
    const token = await interimToken(trader);
    expect((await twoFactorLogin(token, await codeAt(t, trader.secret))).status).toBe(200);
    t.clock.advance(STEP);
    expect(await twoFactorLogin(token, await codeAt(t, trader.secret))).toEqual(OVER);
  });

  it('lets an interim token live 5 minutes', async () => {
    const trader = await signUpWithTwoFactor(t);
    const token = await interimToken(trader);
    t.clock.advance(5 * MINUTE - 1000);
    expect((await twoFactorLogin(token, await codeAt(t, trader.secret))).status).toBe(200);

    const late = await interimToken(trader);
    t.clock.advance(5 * MINUTE);
    expect(await twoFactorLogin(late, await codeAt(t, trader.secret))).toEqual(OVER);
  });

  it('allows 5 tries per interim token', async () => {
    const trader = await signUpWithTwoFactor(t);
    const token = await interimToken(trader);
    const wrong = otherCode(await codeAt(t, trader.secret));
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      expect((await twoFactorLogin(token, wrong)).body.info).toBe('Invalid authentication code.');
    }
    expect(await twoFactorLogin(token, wrong)).toEqual({
      status: 409,
      body: { success: false, info: 'Too many wrong codes. Please sign in again.' },
    });
    expect(await twoFactorLogin(token, await codeAt(t, trader.secret))).toEqual(OVER);
    // A new password login gets a new token with fresh tries.
    expect((await twoFactorLogin(await interimToken(trader), await codeAt(t, trader.secret))).status).toBe(200);
  });

  it('counts wrong codes towards the account lockout', async () => {
    const trader = await signUpWithTwoFactor(t);
    const wrong = otherCode(await codeAt(t, trader.secret));
    for (let round = 0; round < 2; round += 1) {
      const token = await interimToken(trader);
      for (let attempt = 1; attempt <= 5; attempt += 1) await twoFactorLogin(token, wrong);
    }
    expect((await login(t, trader.username, trader.password)).status).toBe(429);
  });

  it('answers an unknown token like an expired one (409), never with a session refusal', async () => {
    expect(await twoFactorLogin('not-a-token', '123456')).toEqual(OVER);
  });
});
