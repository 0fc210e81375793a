import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { codeAt, login, otherCode, signUp, signUpWithTwoFactor } from '../support/server-flows.ts';

const STEP = 30_000;

describe.each(dbTargets)('POST /api/security/two_factor/ on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());

  const call = <T = unknown>(token: string, body: object) => t.post<T>('/api/security/two_factor/', body, { token });

  it('reports whether two-factor is on', async () => {
    const trader = await signUp(t);
    expect(await call(trader.token, { type: 'status' })).toEqual({ status: 200, body: { success: true, info: { enabled: false } } });
  });

  it('sets up a pending secret with an otpauth URL for the issuer Peerex and the username', async () => {
    const trader = await signUp(t);
    const answer = await call<{ secret: string; otpauth_url: string }>(trader.token, { type: 'setup' });
    expect(answer.status).toBe(200);
    const { secret, otpauth_url } = answer.body.info;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(otpauth_url);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe(`/Peerex:${trader.username}`);
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('issuer')).toBe('Peerex');
    // Pending is not on.
    expect((await call(trader.token, { type: 'status' })).body.info).toEqual({ enabled: false });
  });

  it('turns on only with a valid code for the pending secret', async () => {
    const trader = await signUp(t);
    expect(await call(trader.token, { type: 'enable', code: '123456' })).toEqual({
      status: 409,
      body: { success: false, info: 'Start the two-factor setup first.' },
    });
    const { secret } = (await call<{ secret: string }>(trader.token, { type: 'setup' })).body.info;
    expect(await call(trader.token, { type: 'enable', code: otherCode(await codeAt(t, secret)) })).toEqual({
      status: 400,
      body: { success: false, info: 'Invalid authentication code.' },
    });
    expect(await call(trader.token, { type: 'enable', code: await codeAt(t, secret) })).toEqual({
      status: 200,
      body: { success: true, info: 'Two-factor authentication is now on.' },
    });
    expect((await call(trader.token, { type: 'status' })).body.info).toEqual({ enabled: true });
    expect(await call(trader.token, { type: 'setup' })).toEqual({
      status: 409,
      body: { success: false, info: 'Two-factor authentication is already on.' },
    });
    expect((await login(t, trader.username, trader.password)).body.info).toMatchObject({ two_factor: true });
  });

  it('keeps the secret sealed in the database', async () => {
    const trader = await signUpWithTwoFactor(t);
    const row = await t.app.db.one<{ totp_secret: string }>('SELECT totp_secret FROM users WHERE username = $1', [
      trader.username,
    ]);
    expect(row.totp_secret).not.toContain(trader.secret);
    expect(row.totp_secret.startsWith('v1:')).toBe(true);
    expect(t.app.keys.open(row.totp_secret)).toBe(trader.secret);
  });

  it('turns off only with a valid, unused code', async () => {
    const trader = await signUpWithTwoFactor(t);
    expect(await call(trader.token, { type: 'disable', code: otherCode(await codeAt(t, trader.secret)) })).toEqual({
      status: 400,
      body: { success: false, info: 'Invalid authentication code.' },
    });
    const code = await codeAt(t, trader.secret);
    expect(await call(trader.token, { type: 'disable', code })).toEqual({
      status: 200,
      body: { success: true, info: 'Two-factor authentication is now off.' },
    });
    expect((await call(trader.token, { type: 'status' })).body.info).toEqual({ enabled: false });
    expect(await call(trader.token, { type: 'disable', code })).toEqual({
      status: 409,
      body: { success: false, info: 'Two-factor authentication is not on.' },
    });
    expect((await login(t, trader.username, trader.password)).body.info).toMatchObject({ two_factor: false });
  });

  it('refuses to turn off with the code that turned it on (a code is accepted once)', async () => {
    const trader = await signUp(t);
    const { secret } = (await call<{ secret: string }>(trader.token, { type: 'setup' })).body.info;
    const code = await codeAt(t, secret);
    expect((await call(trader.token, { type: 'enable', code })).status).toBe(200);
    expect((await call(trader.token, { type: 'disable', code })).body.info).toBe(
      'This authentication code has already been used. Please wait for the next one.',
    );
    t.clock.advance(STEP);
    expect((await call(trader.token, { type: 'disable', code: await codeAt(t, secret) })).status).toBe(200);
  });

  it('counts wrong codes towards the lockout, so a stolen session cannot grind codes', async () => {
    const trader = await signUpWithTwoFactor(t);
    const wrong = otherCode(await codeAt(t, trader.secret));
    for (let attempt = 1; attempt <= 10; attempt += 1) await call(trader.token, { type: 'disable', code: wrong });
    const locked = await call(trader.token, { type: 'disable', code: await codeAt(t, trader.secret) });
    expect(locked.status).toBe(429);
    expect((await call(trader.token, { type: 'status' })).body.info).toEqual({ enabled: true });
  });

  it('needs a session', async () => {
    expect(await t.post('/api/security/two_factor/', { type: 'status' })).toEqual({
      status: 401,
      body: { success: false, info: 'Session expired' },
    });
  });
});
