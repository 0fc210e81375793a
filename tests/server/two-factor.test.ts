import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import type { LoginResponse, SessionResponse } from '../../contracts/security.ts';
import { codeAt, login, otherCode, signUp, signUpWithTwoFactor } from '../support/server-flows.ts';

const RECOVERY_CODE = /^[abcdefghijkmnpqrstuvwxyz23456789]{5}-[abcdefghijkmnpqrstuvwxyz23456789]{5}$/;

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
    expect(await call(trader.token, { type: 'status' })).toEqual({ status: 200, body: { success: true, info: { enabled: false, recovery_codes_left: 0 } } });
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
    expect((await call(trader.token, { type: 'status' })).body.info).toEqual({ enabled: false, recovery_codes_left: 0 });
  });

  it('turns on only with a valid code for the pending secret', async () => {
    const trader = await signUp(t);
    expect(await call(trader.token, { type: 'enable', code: '123456', password: trader.password })).toEqual({
      status: 409,
      body: { success: false, info: 'Start the two-factor setup first.' },
    });
    const { secret } = (await call<{ secret: string }>(trader.token, { type: 'setup' })).body.info;
    expect(await call(trader.token, { type: 'enable', code: otherCode(await codeAt(t, secret)), password: trader.password })).toEqual({
      status: 400,
      body: { success: false, info: 'Invalid authentication code.' },
    });
    expect(await call(trader.token, { type: 'enable', code: await codeAt(t, secret), password: trader.password })).toEqual({
      status: 200,
      body: { success: true, info: { message: 'Two-factor authentication is now on.', recovery_codes: expect.any(Array) } },
    });
    expect((await call(trader.token, { type: 'status' })).body.info).toMatchObject({ enabled: true });
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
    expect(await call(trader.token, { type: 'disable', code: otherCode(await codeAt(t, trader.secret)), password: trader.password })).toEqual({
      status: 400,
      body: { success: false, info: 'Invalid authentication code.' },
    });
    const code = await codeAt(t, trader.secret);
    expect(await call(trader.token, { type: 'disable', code, password: trader.password })).toEqual({
      status: 200,
      body: { success: true, info: 'Two-factor authentication is now off.' },
    });
    expect((await call(trader.token, { type: 'status' })).body.info).toEqual({ enabled: false, recovery_codes_left: 0 });
    expect(await call(trader.token, { type: 'disable', code, password: trader.password })).toEqual({
      status: 409,
      body: { success: false, info: 'Two-factor authentication is not on.' },
    });
    expect((await login(t, trader.username, trader.password)).body.info).toMatchObject({ two_factor: false });
  });

  it('refuses to turn off with the code that turned it on (a code is accepted once)', async () => {
    const trader = await signUp(t);
    const { secret } = (await call<{ secret: string }>(trader.token, { type: 'setup' })).body.info;
    const code = await codeAt(t, secret);
    expect((await call(trader.token, { type: 'enable', code, password: trader.password })).status).toBe(200);
    expect((await call(trader.token, { type: 'disable', code, password: trader.password })).body.info).toBe(
      'This authentication code has already been used. Please wait for the next one.',
    );
    t.clock.advance(STEP);
    expect((await call(trader.token, { type: 'disable', code: await codeAt(t, secret), password: trader.password })).status).toBe(200);
  });

  it('counts wrong codes towards the lockout, so a stolen session cannot grind codes', async () => {
    const trader = await signUpWithTwoFactor(t);
    const wrong = otherCode(await codeAt(t, trader.secret));
    for (let attempt = 1; attempt <= 10; attempt += 1) await call(trader.token, { type: 'disable', code: wrong, password: trader.password });
    const locked = await call(trader.token, { type: 'disable', code: await codeAt(t, trader.secret), password: trader.password });
    expect(locked.status).toBe(429);
    expect((await call(trader.token, { type: 'status' })).body.info).toMatchObject({ enabled: true });
  });

  describe('a stolen session alone (no password) changes nothing', () => {
    it('cannot turn two-factor on with the thief’s secret: the account’s password is asked again', async () => {
      const owner = await signUp(t);
      // The thief holds only the session token.
      const { secret } = (await call<{ secret: string }>(owner.token, { type: 'setup' })).body.info;
      expect(await call(owner.token, { type: 'enable', code: await codeAt(t, secret) })).toEqual({
        status: 400,
        body: { success: false, info: 'password: Please enter your password' },
      });
      expect(await call(owner.token, { type: 'enable', code: await codeAt(t, secret), password: 'a-guessed-password' })).toEqual({
        status: 400,
        body: { success: false, info: 'The password is not correct.' },
      });
      expect((await call(owner.token, { type: 'status' })).body.info).toEqual({ enabled: false, recovery_codes_left: 0 });
      // The owner still signs in with the password alone.
      expect((await login(t, owner.username, owner.password)).body.info).toMatchObject({ two_factor: false });
    });

    it('cannot turn it off or renew the recovery codes without the password, and a wrong password spends no code', async () => {
      const owner = await signUpWithTwoFactor(t);
      const code = await codeAt(t, owner.secret);
      expect((await call(owner.token, { type: 'disable', code })).status).toBe(400);
      expect(await call(owner.token, { type: 'disable', code, password: 'wrong-password' })).toEqual({
        status: 400,
        body: { success: false, info: 'The password is not correct.' },
      });
      expect((await call(owner.token, { type: 'recovery_codes', code, password: 'wrong-password' })).status).toBe(400);
      expect((await call(owner.token, { type: 'status' })).body.info).toEqual({ enabled: true, recovery_codes_left: 10 });
      // The code was not spent by the refused calls: the owner can still use it.
      expect((await call(owner.token, { type: 'disable', code, password: owner.password })).status).toBe(200);
    });

    it('counts wrong passwords towards the sign-in lockout', async () => {
      const owner = await signUpWithTwoFactor(t);
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        await call(owner.token, { type: 'disable', code: await codeAt(t, owner.secret), password: `guess-${attempt}` });
      }
      expect((await call(owner.token, { type: 'disable', code: await codeAt(t, owner.secret), password: owner.password })).status).toBe(429);
    });
  });

  describe('mails to the owner', () => {
    const mailsTo = (email: string, subject: string) => t.outbox.recent().filter((mail) => mail.to === email && mail.subject === subject);

    it('tell of every change: on, new recovery codes, off', async () => {
      const owner = await signUpWithTwoFactor(t);
      await t.app.mailer.settled();
      expect(mailsTo(owner.email, 'Two-factor authentication is on')).toHaveLength(1);
      expect(mailsTo(owner.email, 'Two-factor authentication is on')[0]?.text).toContain('Forgot password?');

      expect((await call(owner.token, { type: 'recovery_codes', code: await codeAt(t, owner.secret), password: owner.password })).status).toBe(200);
      t.clock.advance(2 * STEP);
      expect((await call(owner.token, { type: 'disable', code: await codeAt(t, owner.secret), password: owner.password })).status).toBe(200);
      await t.app.mailer.settled();
      expect(mailsTo(owner.email, 'New recovery codes for your Peerex account')).toHaveLength(1);
      expect(mailsTo(owner.email, 'Two-factor authentication is off')).toHaveLength(1);
    });

    it('are not sent for a refused change', async () => {
      const owner = await signUpWithTwoFactor(t);
      await t.app.mailer.settled();
      const before = t.outbox.recent().length;
      await call(owner.token, { type: 'disable', code: await codeAt(t, owner.secret), password: 'wrong-password' });
      await call(owner.token, { type: 'disable', code: otherCode(await codeAt(t, owner.secret)), password: owner.password });
      await t.app.mailer.settled();
      expect(t.outbox.recent().length).toBe(before);
    });
  });

  describe('recovery codes', () => {
    const interimToken = async (trader: { username: string; password: string }) =>
      ((await login(t, trader.username, trader.password)).body.info as LoginResponse).token;
    const signInWith = (token: string, recovery_code: string) =>
      t.post<SessionResponse | string>('/api/security/two_factor_login/', { token, recovery_code, device: 'laptop' });

    it('are ten distinct one-time codes, shown once at enrolment and stored only as keyed hashes', async () => {
      const owner = await signUpWithTwoFactor(t);
      expect(owner.recoveryCodes).toHaveLength(10);
      expect(new Set(owner.recoveryCodes).size).toBe(10);
      for (const code of owner.recoveryCodes) expect(code).toMatch(RECOVERY_CODE);
      expect((await call(owner.token, { type: 'status' })).body.info).toEqual({ enabled: true, recovery_codes_left: 10 });
      const stored = await t.app.db.query<{ code_hash: string }>(
        'SELECT code_hash FROM two_factor_recovery_codes r JOIN users u ON u.id = r.user_id WHERE u.username = $1',
        [owner.username],
      );
      expect(stored).toHaveLength(10);
      const table = JSON.stringify(stored);
      for (const code of owner.recoveryCodes) {
        expect(table).not.toContain(code);
        expect(table).not.toContain(code.replace('-', ''));
      }
    });

    it('sign in instead of the authenticator, once each, however they are typed; the owner is mailed', async () => {
      const owner = await signUpWithTwoFactor(t);
      const [first = '', second = ''] = owner.recoveryCodes;
      const signedIn = await signInWith(await interimToken(owner), ` ${first.toUpperCase().replace('-', ' ')} `);
      expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
      expect((signedIn.body.info as SessionResponse).user.username).toBe(owner.username);
      expect((await t.post('/api/user/overview/', {}, { token: (signedIn.body.info as SessionResponse).token })).status).toBe(200);

      expect(await signInWith(await interimToken(owner), first)).toEqual({ status: 400, body: { success: false, info: 'Invalid recovery code.' } });
      expect((await signInWith(await interimToken(owner), second)).status).toBe(200);
      expect((await call(owner.token, { type: 'status' })).body.info).toEqual({ enabled: true, recovery_codes_left: 8 });

      await t.app.mailer.settled();
      const used = t.outbox.recent().filter((mail) => mail.to === owner.email && mail.subject === 'A recovery code was used to sign in');
      expect(used.map((mail) => /(\d+) codes are left/.exec(mail.text)?.[1])).toEqual(['8', '9']);
    });

    it('count a wrong one towards the interim token’s tries and the lockout, like a wrong authenticator code', async () => {
      const owner = await signUpWithTwoFactor(t);
      const token = await interimToken(owner);
      for (let attempt = 1; attempt <= 4; attempt += 1) {
        expect((await signInWith(token, 'aaaaa-aaaaa')).body.info).toBe('Invalid recovery code.');
      }
      expect((await signInWith(token, 'aaaaa-aaaaa')).body.info).toBe('Too many wrong codes. Please sign in again.');
      expect((await signInWith(token, owner.recoveryCodes[0] ?? '')).status).toBe(409);
    });

    it('refuse what cannot be a recovery code, and a body with both kinds of code', async () => {
      const owner = await signUpWithTwoFactor(t);
      const token = await interimToken(owner);
      expect(await signInWith(token, 'not-a-code')).toEqual({
        status: 400,
        body: { success: false, info: 'recovery_code: Please enter a recovery code like abcde-fghij' },
      });
      const both = await t.post('/api/security/two_factor_login/', { token, code: '123456', recovery_code: owner.recoveryCodes[0], device: 'x' });
      expect(both).toEqual({ status: 400, body: { success: false, info: 'recovery_code: Send either code or recovery_code, not both' } });
      const neither = await t.post('/api/security/two_factor_login/', { token, device: 'x' });
      expect(neither).toEqual({ status: 400, body: { success: false, info: 'code: Please enter a valid 6-digit verification code' } });
    });

    it('let an owner who lost the phone turn two-factor off with a recovery code and the password', async () => {
      const owner = await signUpWithTwoFactor(t);
      const [code = ''] = owner.recoveryCodes;
      expect(await call(owner.token, { type: 'disable', code, password: owner.password })).toEqual({
        status: 200,
        body: { success: true, info: 'Two-factor authentication is now off.' },
      });
      expect((await login(t, owner.username, owner.password)).body.info).toMatchObject({ two_factor: false });
      // Off means the codes are gone too: turning it on again hands out a new set, and no old code works.
      const { secret } = (await call<{ secret: string }>(owner.token, { type: 'setup' })).body.info;
      const again = await call<{ recovery_codes: string[] }>(owner.token, { type: 'enable', code: await codeAt(t, secret), password: owner.password });
      expect(again.body.info.recovery_codes.some((fresh) => owner.recoveryCodes.includes(fresh))).toBe(false);
      expect((await signInWith(await interimToken(owner), owner.recoveryCodes[1] ?? '')).body.info).toBe('Invalid recovery code.');
    });

    it('can be renewed with a code and the password: the new set works, the old one no longer does', async () => {
      const owner = await signUpWithTwoFactor(t);
      const renewed = await call<{ message: string; recovery_codes: string[] }>(owner.token, {
        type: 'recovery_codes',
        code: await codeAt(t, owner.secret),
        password: owner.password,
      });
      expect(renewed.body).toEqual({
        success: true,
        info: { message: 'New recovery codes are ready. The old ones no longer work.', recovery_codes: expect.any(Array) },
      });
      expect(renewed.body.info.recovery_codes).toHaveLength(10);
      expect((await signInWith(await interimToken(owner), owner.recoveryCodes[0] ?? '')).body.info).toBe('Invalid recovery code.');
      expect((await signInWith(await interimToken(owner), renewed.body.info.recovery_codes[0] ?? '')).status).toBe(200);
    });

    it('spend a code exactly once when two sign-ins race with it', async () => {
      const owner = await signUpWithTwoFactor(t);
      const [code = ''] = owner.recoveryCodes;
      const [a, b] = await Promise.all([interimToken(owner), interimToken(owner)]);
      const answers = await Promise.all([signInWith(a, code), signInWith(b, code)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    });
  });

  it('needs a session', async () => {
    expect(await t.post('/api/security/two_factor/', { type: 'status' })).toEqual({
      status: 401,
      body: { success: false, info: 'Session expired' },
    });
  });
});
