import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LoginResponse } from '../../contracts/security.ts';
import { createPasswordHasher } from '../../server/src/infra/passwords.ts';
import { hashToken } from '../../server/src/infra/secrets.ts';
import { createTestApp, dbTargets, MINUTE, TEST_ARGON2, type TestApp } from '../support/server.ts';
import { login, newTrader, signUp } from '../support/server-flows.ts';

const INVALID = { success: false, info: 'Invalid username or password.' };

describe.each(dbTargets)('POST /api/security/login/ on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());

  it('signs in with the username and answers token and user', async () => {
    const trader = await signUp(t);
    const answer = await login(t, trader.username, trader.password);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      info: {
        two_factor: false,
        token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        user: { username: trader.username, email: trader.email, websocket_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), role: 'trader' },
      },
    });
  });

  it('accepts the email instead of the username, and either in any case', async () => {
    const trader = await signUp(t);
    for (const name of [trader.email, trader.email.toUpperCase(), ` ${trader.username.toUpperCase()} `]) {
      const answer = await login(t, name, trader.password);
      expect(answer.status, name).toBe(200);
    }
  });

  it('gives every session its own token and websocket token, stored only as hashes', async () => {
    const trader = await signUp(t);
    const first = (await login(t, trader.username, trader.password)).body.info as LoginResponse & { two_factor: false };
    const second = (await login(t, trader.username, trader.password)).body.info as LoginResponse & { two_factor: false };
    expect(new Set([first.token, second.token, first.user.websocket_token, second.user.websocket_token]).size).toBe(4);

    const rows = await t.app.db.query<{ token_hash: string; websocket_token_hash: string; device: string }>(
      `SELECT token_hash, websocket_token_hash, device FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE u.username = $1`,
      [trader.username],
    );
    const stored = rows.flatMap((row) => [row.token_hash, row.websocket_token_hash]);
    for (const secret of [first.token, second.token, first.user.websocket_token, second.user.websocket_token]) {
      expect(stored).not.toContain(secret);
      expect(stored).toContain(hashToken(secret));
    }
    expect(rows.map((row) => row.device)).toContain('vitest');
  });

  it('answers an unknown user and a wrong password alike, after the same password work', async () => {
    const trader = await signUp(t);
    const verify = vi.spyOn(t.app.passwords, 'verify');
    const unknown = await login(t, 'nobody_at_all', 'whatever-1');
    const wrong = await login(t, trader.username, 'whatever-1');
    expect(unknown).toEqual({ status: 400, body: INVALID });
    expect(wrong).toEqual({ status: 400, body: INVALID });
    // The unknown name is still checked against a (dummy) argon2 hash, so timing does not tell them apart.
    expect(verify).toHaveBeenCalledTimes(2);
    expect(verify.mock.calls[0]?.[0]).toBeUndefined();
    verify.mockRestore();
  });

  it('upgrades a hash made with older parameters on the next successful login', async () => {
    const trader = await signUp(t);
    const weaker = createPasswordHasher({ ...TEST_ARGON2, timeCost: TEST_ARGON2.timeCost + 1 });
    await t.app.db.query('UPDATE users SET password_hash = $2 WHERE username = $1', [
      trader.username,
      await weaker.hash(trader.password),
    ]);
    expect((await login(t, trader.username, trader.password)).status).toBe(200);
    const { password_hash } = await t.app.db.one<{ password_hash: string }>(
      'SELECT password_hash FROM users WHERE username = $1',
      [trader.username],
    );
    expect(t.app.passwords.needsRehash(password_hash)).toBe(false);
    expect((await login(t, trader.username, trader.password)).status).toBe(200);
  });
});

describe.each(dbTargets)('login lockout on %s', (target) => {
  let t: TestApp;
  const FAILURES = 10;
  const LOCK_MINUTES = 15;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    t.clock.advance(24 * 60 * MINUTE);
  });

  const lockedSentence = (minutes: number) =>
    `Too many failed sign-in attempts. Please try again in ${minutes} minutes.`;

  it(`locks an account after ${FAILURES} failures in ${LOCK_MINUTES} minutes, the right password included`, async () => {
    const trader = await signUp(t);
    for (let attempt = 1; attempt <= FAILURES; attempt += 1) {
      expect((await login(t, trader.username, `wrong-${attempt}`)).body).toEqual(INVALID);
    }
    expect(await login(t, trader.username, trader.password)).toEqual({
      status: 429,
      body: { success: false, info: lockedSentence(LOCK_MINUTES) },
    });
    // By email too: the lock is on the account, not on what was typed.
    expect((await login(t, trader.email, trader.password)).status).toBe(429);

    t.clock.advance(LOCK_MINUTES * MINUTE - MINUTE);
    expect((await login(t, trader.username, trader.password)).body.info).toBe(
      'Too many failed sign-in attempts. Please try again in 1 minute.',
    );
    t.clock.advance(MINUTE);
    expect((await login(t, trader.username, trader.password)).status).toBe(200);
  });

  it('counts only the failures inside the window', async () => {
    const trader = await signUp(t);
    for (let attempt = 1; attempt < FAILURES; attempt += 1) await login(t, trader.username, 'wrong-pass');
    t.clock.advance(LOCK_MINUTES * MINUTE + 1);
    expect((await login(t, trader.username, 'wrong-pass')).status).toBe(400);
    expect((await login(t, trader.username, trader.password)).status).toBe(200);
  });

  it('forgives earlier failures after a successful login', async () => {
    const trader = await signUp(t);
    for (let attempt = 1; attempt < FAILURES; attempt += 1) await login(t, trader.username, 'wrong-pass');
    expect((await login(t, trader.username, trader.password)).status).toBe(200);
    for (let attempt = 1; attempt < FAILURES; attempt += 1) await login(t, trader.username, 'wrong-pass');
    expect((await login(t, trader.username, trader.password)).status).toBe(200);
  });

  it('locks a name that matches no account exactly like a real one, so the lock reveals nothing', async () => {
    const ghost = newTrader('ghost');
    for (let attempt = 1; attempt <= FAILURES; attempt += 1) {
      expect((await login(t, ghost.username, 'wrong-pass')).body).toEqual(INVALID);
    }
    expect(await login(t, ghost.username, 'anything')).toEqual({
      status: 429,
      body: { success: false, info: lockedSentence(LOCK_MINUTES) },
    });
  });

  it('locks only the address the failures came from: the owner signing in from elsewhere is not locked out', async () => {
    const trader = await signUp(t);
    const attacker = { ip: '203.0.113.66' };
    for (let attempt = 1; attempt <= FAILURES; attempt += 1) await login(t, trader.username, `guess-${attempt}`, attacker);
    expect((await login(t, trader.username, trader.password, attacker)).status).toBe(429);
    expect((await login(t, trader.username, trader.password, { ip: '198.51.100.4' })).status).toBe(200);
    // The owner's sign-in forgives only the owner's address: the attacker's stays locked.
    expect((await login(t, trader.username, trader.password, attacker)).status).toBe(429);
  });

  it('counts an IPv6 /64 as one address, so rotating addresses inside it gains nothing', async () => {
    const trader = await signUp(t);
    for (let attempt = 1; attempt <= FAILURES; attempt += 1) {
      await login(t, trader.username, 'wrong-pass', { ip: `2001:db8:1:2::${attempt.toString(16)}` });
    }
    expect((await login(t, trader.username, trader.password, { ip: '2001:db8:1:2:ffff::1' })).status).toBe(429);
    expect((await login(t, trader.username, trader.password, { ip: '2001:db8:1:3::1' })).status).toBe(200);
  });

  it('leaves other accounts alone', async () => {
    const [victim, bystander] = [await signUp(t), await signUp(t)];
    for (let attempt = 1; attempt <= FAILURES; attempt += 1) await login(t, victim.username, 'wrong-pass');
    expect((await login(t, victim.username, victim.password)).status).toBe(429);
    expect((await login(t, bystander.username, bystander.password)).status).toBe(200);
  });
});

describe.each(dbTargets)('the per-account ceiling on failed sign-ins on %s', (target) => {
  let t: TestApp;
  const CEILING = 100;
  const PER_ADDRESS = 5;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    t.clock.advance(24 * 60 * MINUTE);
  });

  /** Guesses spread over many addresses, each staying under the per-address lock. */
  async function distributedGuessing(username: string, count: number) {
    for (let attempt = 0; attempt < count; attempt += 1) {
      const address = `192.0.2.${Math.floor(attempt / PER_ADDRESS) + 1}`;
      expect((await login(t, username, `guess-${attempt}`, { ip: address })).status, `guess ${attempt}`).toBe(400);
    }
  }
  const pausedMails = (email: string) =>
    t.outbox.recent().filter((mail) => mail.to === email && mail.subject === 'Sign-ins to your Peerex account are paused');

  it(`locks the account for an hour after ${CEILING} failures from any addresses, and mails the owner once`, async () => {
    const trader = await signUp(t);
    await distributedGuessing(trader.username, CEILING - 1);
    expect((await login(t, trader.username, trader.password, { ip: '198.51.100.9' })).status).toBe(200);
    // A success does not reset the account's hourly count: the next failure reaches the ceiling.
    expect((await login(t, trader.username, 'guess-last', { ip: '192.0.2.250' })).status).toBe(400);
    expect(await login(t, trader.username, trader.password, { ip: '198.51.100.9' })).toEqual({
      status: 429,
      body: { success: false, info: 'Too many failed sign-in attempts. Please try again in 60 minutes.' },
    });
    await t.app.mailer.settled();
    const mails = pausedMails(trader.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain(`there were ${CEILING} failed attempts`);
    expect(mails[0]?.text).toContain('Forgot password?');
    // Guesses during the lock are refused before they are counted or mailed about.
    expect((await login(t, trader.username, 'guess-more', { ip: '192.0.2.251' })).status).toBe(429);
    await t.app.mailer.settled();
    expect(pausedMails(trader.email)).toHaveLength(1);

    t.clock.advance(60 * MINUTE);
    expect((await login(t, trader.username, trader.password, { ip: '198.51.100.9' })).status).toBe(200);
  });

  it('is lifted by a password reset, which proves the owner holds the mailbox', async () => {
    const trader = await signUp(t);
    await distributedGuessing(trader.username, CEILING);
    expect((await login(t, trader.username, trader.password)).status).toBe(429);
    t.clock.advance(2 * MINUTE);
    await t.post('/api/security/reset_password/', { type: 'request', email: trader.email });
    await t.app.mailer.settled();
    const code = /\b(\d{6})\b/.exec(t.outbox.recent().find((mail) => mail.to === trader.email)?.text ?? '')?.[1];
    const reset = await t.post('/api/security/reset_password/', {
      type: 'reset',
      email: trader.email,
      code,
      password: 'brand-new-pass',
      confirmPassword: 'brand-new-pass',
    });
    expect(reset.status).toBe(200);
    expect((await login(t, trader.username, 'brand-new-pass')).status).toBe(200);
  });

  it('treats a name that matches no account alike, and mails nobody', async () => {
    const ghost = newTrader('ghost');
    const before = t.outbox.recent().length;
    await distributedGuessing(ghost.username, CEILING);
    expect((await login(t, ghost.username, 'anything', { ip: '198.51.100.10' })).status).toBe(429);
    await t.app.mailer.settled();
    expect(t.outbox.recent().length).toBe(before);
  });
});

describe('login lockout configuration', () => {
  it('follows LOGIN_LOCKOUT_FAILURES and LOGIN_LOCKOUT_MINUTES', async () => {
    const t = await createTestApp('pglite', { env: { LOGIN_LOCKOUT_FAILURES: '3', LOGIN_LOCKOUT_MINUTES: '2' } });
    try {
      const trader = await signUp(t);
      for (let attempt = 1; attempt <= 3; attempt += 1) await login(t, trader.username, 'wrong-pass');
      expect((await login(t, trader.username, trader.password)).body.info).toBe(
        'Too many failed sign-in attempts. Please try again in 2 minutes.',
      );
      t.clock.advance(2 * MINUTE);
      expect((await login(t, trader.username, trader.password)).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('follows LOGIN_ACCOUNT_FAILURES_PER_HOUR', async () => {
    const t = await createTestApp('pglite', { env: { LOGIN_ACCOUNT_FAILURES_PER_HOUR: '4' } });
    try {
      const trader = await signUp(t);
      for (let attempt = 1; attempt <= 4; attempt += 1) await login(t, trader.username, 'wrong-pass', { ip: `192.0.2.${attempt}` });
      expect((await login(t, trader.username, trader.password, { ip: '192.0.2.99' })).status).toBe(429);
    } finally {
      await t.close();
    }
  });
});
