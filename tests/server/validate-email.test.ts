import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, dbTargets, MINUTE, type TestApp } from '../support/server.ts';
import { lastCodeFor, newTrader, otherCode, signUp } from '../support/server-flows.ts';

const HOUR = 60 * MINUTE;

describe.each(dbTargets)('POST /api/security/validate_email/ on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    t.clock.advance(2 * HOUR);
  });

  const request = (email: string) => t.post('/api/security/validate_email/', { type: 'request', email });
  const verify = (email: string, code: string) => t.post('/api/security/validate_email/', { type: 'verify', email, code });
  const verifiedAt = async (email: string) =>
    (await t.app.db.maybe<{ verified_at: Date }>('SELECT verified_at FROM email_verifications WHERE email = $1', [email]))
      ?.verified_at;

  it('mails a 6-digit code and says where it went', async () => {
    const { email } = newTrader();
    expect(await request(email)).toEqual({
      status: 200,
      body: { success: true, info: `A verification code has been sent to ${email}` },
    });
    const code = lastCodeFor(t, email);
    expect(code).toMatch(/^\d{6}$/);
    const [mail] = t.outbox.recent();
    expect(mail).toMatchObject({ to: email, subject: `Your Peerex verification code: ${code}` });
    expect(mail?.text).toContain(code);
  });

  it('normalises the address: trimmed and lower-cased', async () => {
    const { email } = newTrader();
    expect((await request(`  ${email.toUpperCase()} `)).body.info).toBe(`A verification code has been sent to ${email}`);
    expect((await verify(email.toUpperCase(), lastCodeFor(t, email))).status).toBe(200);
  });

  it('stores the code only as an HMAC', async () => {
    const { email } = newTrader();
    await request(email);
    const code = lastCodeFor(t, email);
    const row = await t.app.db.one<{ code_hash: string }>('SELECT code_hash FROM email_codes WHERE email = $1', [email]);
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.code_hash).not.toContain(code);
    expect(row.code_hash).toBe(t.app.keys.hashEmailCode('signup', email, code));
  });

  it('verifies the address with the right code, once', async () => {
    const { email } = newTrader();
    await request(email);
    const code = lastCodeFor(t, email);
    expect(await verify(email, code)).toEqual({
      status: 200,
      body: { success: true, info: 'Email has been verified successfully' },
    });
    expect(await verifiedAt(email)).toEqual(t.clock.now());
    expect(await verify(email, code)).toEqual({
      status: 400,
      body: { success: false, info: 'This verification code has expired. Please request a new one.' },
    });
  });

  it('keeps a code for 10 minutes', async () => {
    const { email } = newTrader();
    await request(email);
    t.clock.advance(10 * MINUTE - 1000);
    expect((await verify(email, lastCodeFor(t, email))).status).toBe(200);

    const late = newTrader().email;
    await request(late);
    t.clock.advance(10 * MINUTE);
    expect((await verify(late, lastCodeFor(t, late))).body.info).toBe(
      'This verification code has expired. Please request a new one.',
    );
    expect(await verifiedAt(late)).toBeUndefined();
  });

  it('kills a code after 5 wrong tries', async () => {
    const { email } = newTrader();
    await request(email);
    const code = lastCodeFor(t, email);
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      expect(await verify(email, otherCode(code))).toEqual({
        status: 400,
        body: { success: false, info: 'Invalid verification code.' },
      });
    }
    expect((await verify(email, otherCode(code))).body.info).toBe('Too many wrong codes. Please request a new one.');
    expect((await verify(email, code)).body.info).toBe('This verification code has expired. Please request a new one.');
  });

  it('replaces the live code with a new request, and its tries start afresh', async () => {
    const { email } = newTrader();
    await request(email);
    const first = lastCodeFor(t, email);
    for (let attempt = 1; attempt <= 4; attempt += 1) await verify(email, otherCode(first));
    t.clock.advance(MINUTE);
    await request(email);
    const second = lastCodeFor(t, email);
    if (first !== second) expect((await verify(email, first)).body.info).toBe('Invalid verification code.');
    expect((await verify(email, second)).status).toBe(200);
  });

  it('sends a new code at most once a minute', async () => {
    const { email } = newTrader();
    expect((await request(email)).status).toBe(200);
    t.clock.advance(MINUTE - 1000);
    expect(await request(email)).toEqual({
      status: 429,
      body: { success: false, info: 'Please wait a minute before requesting another code.' },
    });
    t.clock.advance(1000);
    expect((await request(email)).status).toBe(200);
    expect(t.outbox.recent().filter((mail) => mail.to === email)).toHaveLength(2);
  });

  it('sends at most 10 codes an hour', async () => {
    const { email } = newTrader();
    for (let sent = 1; sent <= 10; sent += 1) {
      expect((await request(email)).status, `code ${sent}`).toBe(200);
      t.clock.advance(MINUTE);
    }
    expect(await request(email)).toEqual({
      status: 429,
      body: { success: false, info: 'Too many codes were requested for this email. Please try again in an hour.' },
    });
    // The first of the ten leaves the hour 60 minutes after it was sent.
    t.clock.advance(HOUR - 10 * MINUTE);
    expect((await request(email)).status).toBe(200);
  });

  it('refuses a code for an address that already has an account', async () => {
    const trader = await signUp(t);
    expect(await request(trader.email)).toEqual({
      status: 409,
      body: { success: false, info: 'An account with this email already exists.' },
    });
  });

  it('keeps signup and reset codes apart', async () => {
    const { email } = newTrader();
    await request(email);
    const answer = await t.post('/api/security/reset_password/', {
      type: 'reset',
      email,
      code: lastCodeFor(t, email),
      password: 'new-password-1',
      confirmPassword: 'new-password-1',
    });
    expect(answer.body).toEqual({ success: false, info: 'This verification code has expired. Please request a new one.' });
    expect((await verify(email, lastCodeFor(t, email))).status).toBe(200);
  });
});
