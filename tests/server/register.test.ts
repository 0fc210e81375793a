import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionResponse } from '../../contracts/security.ts';
import { createTestApp, dbTargets, MINUTE, type TestApp } from '../support/server.ts';
import { lastCodeFor, login, newTrader, signUp } from '../support/server-flows.ts';

describe.each(dbTargets)('POST /api/security/register/ on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());

  async function verifyEmail(email: string) {
    await t.post('/api/security/validate_email/', { type: 'request', email });
    const answer = await t.post('/api/security/validate_email/', { type: 'verify', email, code: lastCodeFor(t, email) });
    expect(answer.status).toBe(200);
  }

  const register = (trader: { email: string; username: string; password: string }) =>
    t.post<SessionResponse | string>('/api/security/register/', {
      email: trader.email,
      username: trader.username,
      password: trader.password,
      confirmPassword: trader.password,
      device: 'Firefox on Linux (desktop)',
    });

  it('creates the account on a verified email and signs it in', async () => {
    const trader = newTrader();
    await verifyEmail(trader.email);
    const answer = await register(trader);
    expect(answer).toEqual({
      status: 200,
      body: {
        success: true,
        info: {
          token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          user: { username: trader.username, email: trader.email, websocket_token: expect.any(String), role: 'trader' },
        },
      },
    });
    const { token } = answer.body.info as SessionResponse;
    expect((await t.post('/api/user/overview/', {}, { token })).status).toBe(200);
    expect((await login(t, trader.username, trader.password)).status).toBe(200);
  });

  it('stores the password as an argon2id hash only', async () => {
    const trader = await signUp(t);
    const { password_hash } = await t.app.db.one<{ password_hash: string }>(
      'SELECT password_hash FROM users WHERE username = $1',
      [trader.username],
    );
    expect(password_hash).toMatch(/^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
    expect(password_hash).not.toContain(trader.password);
  });

  it('needs an email verified through validate_email', async () => {
    const trader = newTrader();
    expect(await register(trader)).toEqual({
      status: 403,
      body: { success: false, info: 'Please verify your email address first.' },
    });
    // A code that was only requested is not a verification.
    await t.post('/api/security/validate_email/', { type: 'request', email: trader.email });
    expect((await register(trader)).status).toBe(403);
  });

  it('needs the verification to be at most 30 minutes old', async () => {
    const fresh = newTrader();
    await verifyEmail(fresh.email);
    t.clock.advance(30 * MINUTE - 1000);
    expect((await register(fresh)).status).toBe(200);

    const stale = newTrader();
    await verifyEmail(stale.email);
    t.clock.advance(30 * MINUTE);
    expect((await register(stale)).status).toBe(403);
  });

  it('uses a verification once', async () => {
    const trader = newTrader();
    await verifyEmail(trader.email);
    expect((await register(trader)).status).toBe(200);
    expect((await register({ ...trader, username: `${trader.username.slice(0, 25)}_two` })).status).toBe(403);
  });

  it('refuses a username that exists in any letter case', async () => {
    const first = await signUp(t, { ...newTrader(), username: `Case_${Date.now() % 1e6}` });
    const second = newTrader();
    await verifyEmail(second.email);
    expect(await register({ ...second, username: first.username.toUpperCase() })).toEqual({
      status: 409,
      body: { success: false, info: 'This username is already taken.' },
    });
    expect(await register({ ...second, username: first.username.toLowerCase() })).toMatchObject({ status: 409 });
    // The verification survives the refusal: the trader just picks another name.
    expect((await register(second)).status).toBe(200);
  });

  it('refuses an email that has an account, even with a verification on record', async () => {
    const existing = await signUp(t);
    await t.app.db.query('INSERT INTO email_verifications (email, verified_at) VALUES ($1, $2)', [
      existing.email,
      t.clock.now(),
    ]);
    expect(await register({ ...newTrader(), email: existing.email })).toEqual({
      status: 409,
      body: { success: false, info: 'An account with this email already exists.' },
    });
  });

  it('lets the unique indexes settle two registrations racing for one username', async () => {
    const [a, b] = [newTrader(), newTrader()];
    await verifyEmail(a.email);
    await verifyEmail(b.email);
    const username = `race_${Date.now() % 1e6}`;
    const answers = await Promise.all([register({ ...a, username }), register({ ...b, username })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)?.body.info).toBe('This username is already taken.');
  });
});
