import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LoginResponse } from '../../contracts/security.ts';
import { createTestApp, dbTargets, MINUTE, type TestApp } from '../support/server.ts';
import { codeAt, lastCodeFor, login, newTrader, otherCode, signUp, signUpWithTwoFactor } from '../support/server-flows.ts';

const HOUR = 60 * MINUTE;
const sent = (email: string) => `If an account exists for ${email}, a password reset code has been sent to it.`;

describe.each(dbTargets)('POST /api/security/reset_password/ on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    t.clock.advance(2 * HOUR);
  });

  const requestCode = async (email: string) => {
    const answer = await t.post('/api/security/reset_password/', { type: 'request', email });
    await t.app.mailer.settled();
    return answer;
  };
  const reset = (email: string, code: string, password = 'brand-new-pass-1') =>
    t.post('/api/security/reset_password/', { type: 'reset', email, code, password, confirmPassword: password });

  it('answers known and unknown addresses alike, and mails only the known one', async () => {
    const trader = await signUp(t);
    const stranger = newTrader().email;
    const known = await requestCode(trader.email);
    const unknown = await requestCode(stranger);
    expect(known).toEqual({ status: 200, body: { success: true, info: sent(trader.email) } });
    expect(unknown).toEqual({ status: 200, body: { success: true, info: sent(stranger) } });
    const resetMails = t.outbox.recent().filter((mail) => mail.subject === 'Your Peerex password reset code');
    expect(resetMails.filter((mail) => mail.to === trader.email)).toHaveLength(1);
    expect(t.outbox.recent().filter((mail) => mail.to === stranger)).toHaveLength(0);
    expect(resetMails[0]?.text).toContain(lastCodeFor(t, trader.email));
  });

  it('applies the resend limits to unknown addresses too, with the same answers', async () => {
    const trader = await signUp(t);
    const stranger = newTrader().email;
    for (const email of [trader.email, stranger]) {
      expect((await requestCode(email)).status).toBe(200);
      expect(await requestCode(email)).toEqual({
        status: 429,
        body: { success: false, info: 'Please wait a minute before requesting another code.' },
      });
    }
    for (let minute = 1; minute <= 2; minute += 1) {
      t.clock.advance(MINUTE);
      expect((await requestCode(trader.email)).status).toBe(200);
      expect((await requestCode(stranger)).status).toBe(200);
    }
    t.clock.advance(MINUTE);
    const [known, unknown] = [await requestCode(trader.email), await requestCode(stranger)];
    expect(known).toEqual({
      status: 429,
      body: { success: false, info: 'Too many codes were requested for this email. Please try again in an hour.' },
    });
    expect(unknown).toEqual(known);
  });

  it('sends at most 3 reset codes an hour (15 guesses at most), counting from the first', async () => {
    const trader = await signUp(t);
    for (let code = 1; code <= 3; code += 1) {
      expect((await requestCode(trader.email)).status, `code ${code}`).toBe(200);
      t.clock.advance(MINUTE);
    }
    expect((await requestCode(trader.email)).status).toBe(429);
    expect(t.outbox.recent().filter((mail) => mail.to === trader.email && mail.subject === 'Your Peerex password reset code')).toHaveLength(3);
    // The first code's request leaves the hour 60 minutes after it was made.
    t.clock.advance(HOUR - 3 * MINUTE);
    expect((await requestCode(trader.email)).status).toBe(200);
  });

  it('answers a wrong code alike for known and unknown addresses', async () => {
    const trader = await signUp(t);
    const stranger = newTrader().email;
    await requestCode(trader.email);
    await requestCode(stranger);
    const code = lastCodeFor(t, trader.email);
    const known = [];
    const unknown = [];
    for (let attempt = 1; attempt <= 6; attempt += 1) {
      known.push(await reset(trader.email, otherCode(code)));
      unknown.push(await reset(stranger, otherCode(code)));
    }
    expect(unknown).toEqual(known);
    expect(known.map((answer) => answer.body.info)).toEqual([
      'Invalid verification code.',
      'Invalid verification code.',
      'Invalid verification code.',
      'Invalid verification code.',
      'Too many wrong codes. Please request a new one.',
      'This verification code has expired. Please request a new one.',
    ]);
  });

  it('sets the new password with the mailed code and spends the code', async () => {
    const trader = await signUp(t);
    await requestCode(trader.email);
    const code = lastCodeFor(t, trader.email);
    expect(await reset(trader.email, code, 'brand-new-pass-1')).toEqual({
      status: 200,
      body: { success: true, info: 'Password reset successful' },
    });
    expect((await login(t, trader.username, trader.password)).status).toBe(400);
    expect((await login(t, trader.username, 'brand-new-pass-1')).status).toBe(200);
    expect((await reset(trader.email, code, 'another-pass-2')).body.info).toBe(
      'This verification code has expired. Please request a new one.',
    );
  });

  it('keeps a reset code for 10 minutes', async () => {
    const trader = await signUp(t);
    await requestCode(trader.email);
    t.clock.advance(10 * MINUTE);
    expect((await reset(trader.email, lastCodeFor(t, trader.email))).status).toBe(400);
  });

  it('ends every session of the user, and no one else\'s', async () => {
    const trader = await signUp(t);
    const other = await signUp(t);
    const second = (await login(t, trader.username, trader.password)).body.info as LoginResponse;
    await requestCode(trader.email);
    expect((await reset(trader.email, lastCodeFor(t, trader.email))).status).toBe(200);
    for (const token of [trader.token, second.token]) {
      expect(await t.post('/api/user/overview/', {}, { token })).toEqual({
        status: 401,
        body: { success: false, info: 'Session expired' },
      });
    }
    expect((await t.post('/api/user/overview/', {}, { token: other.token })).status).toBe(200);
  });

  it('ends a two-factor sign-in that was halfway through', async () => {
    const trader = await signUpWithTwoFactor(t);
    const interim = (await login(t, trader.username, trader.password)).body.info as LoginResponse;
    await requestCode(trader.email);
    expect((await reset(trader.email, lastCodeFor(t, trader.email))).status).toBe(200);
    const answer = await t.post('/api/security/two_factor_login/', {
      token: interim.token,
      code: await codeAt(t, trader.secret),
    });
    expect(answer).toEqual({
      status: 409,
      body: { success: false, info: 'This sign-in has expired. Please enter your username and password again.' },
    });
  });

  it('lifts a sign-in lockout: the owner proved control of the mailbox', async () => {
    const trader = await signUp(t);
    for (let attempt = 1; attempt <= 10; attempt += 1) await login(t, trader.username, 'wrong-pass');
    expect((await login(t, trader.username, trader.password)).status).toBe(429);
    await requestCode(trader.email);
    expect((await reset(trader.email, lastCodeFor(t, trader.email), 'unlocked-pass-1')).status).toBe(200);
    expect((await login(t, trader.username, 'unlocked-pass-1')).status).toBe(200);
  });

  it('checks the new password like signup does', async () => {
    const trader = await signUp(t);
    await requestCode(trader.email);
    const code = lastCodeFor(t, trader.email);
    const short = await t.post('/api/security/reset_password/', {
      type: 'reset',
      email: trader.email,
      code,
      password: '123',
      confirmPassword: '123',
    });
    expect(short).toEqual({ status: 400, body: { success: false, info: 'Password must be at least 6 characters' } });
    const mismatch = await t.post('/api/security/reset_password/', {
      type: 'reset',
      email: trader.email,
      code,
      password: '123456',
      confirmPassword: '1234567',
    });
    expect(mismatch.body.info).toBe('confirmPassword: Passwords do not match');
    // Refused bodies never reach the code: it is still good.
    expect((await reset(trader.email, code)).status).toBe(200);
  });
});
