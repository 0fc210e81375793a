import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AntiPhishingStatus, SignInHistory, SignOutOthersResponse } from '../../contracts/account-protections.ts';
import type { LoginResponse, SessionResponse } from '../../contracts/security.ts';
import { securityMail, type SecurityEvent } from '../../server/src/accounts/account-mails.ts';
import { codeMail, noticeMail, type SentMail } from '../../server/src/infra/mail.ts';
import { createTestApp, dbTargets, MINUTE, type TestApp } from '../support/server.ts';
import { codeAt, lastCodeFor, login, signUp, signUpWithTwoFactor } from '../support/server-flows.ts';

/**
 * The account protections of /settings/security (docs/rules.md "Account protections"), first part: the sign-in
 * history with "Sign out everywhere else", and the anti-phishing code every mail carries. The withdrawal
 * allowlist is in account-protections-allowlist.test.ts.
 */

const DAY = 24 * 60 * MINUTE;
const WRONG_PASSWORD = { status: 400, body: { success: false, info: 'The password is not correct.' } };
const SESSION_EXPIRED = { status: 401, body: { success: false, info: 'Session expired' } };

type Member = Awaited<ReturnType<typeof signUp>> & { id: string };

async function member(t: TestApp, two = false): Promise<Member & { secret?: string }> {
  const session = two ? await signUpWithTwoFactor(t) : await signUp(t);
  const { id } = await t.app.db.one<{ id: string }>('SELECT id FROM users WHERE username = $1', [session.username]);
  return { ...session, id };
}

/** Signs `who` in again, from `ip` with `device`: another session of theirs. */
async function signInAgain(t: TestApp, who: { username: string; password: string }, ip: string, device = 'Firefox on Linux (desktop)') {
  const answer = await t.post<LoginResponse>('/api/security/login/', { username: who.username, password: who.password, device }, { ip });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body.info as SessionResponse).token;
}

const sessionsCall = <T>(t: TestApp, token: string, body: unknown, ip?: string) =>
  t.post<T>('/api/security/sessions/', body, { token, ...(ip ? { ip } : {}) });
const history = async (t: TestApp, token: string) => {
  const answer = await sessionsCall<SignInHistory>(t, token, { type: 'list' });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.info.sessions;
};
const antiPhishing = <T = AntiPhishingStatus>(t: TestApp, token: string, body: unknown, ip?: string) =>
  t.post<T>('/api/security/anti_phishing/', body, { token, ...(ip ? { ip } : {}) });

/** The user's notifications after `since` (an id), as [kind, title, body], oldest first. */
const notificationsOf = (t: TestApp, who: { id: string }, since = '0') =>
  t.app.db
    .query<{ kind: string; title: string; body: string; link: string | null }>(
      'SELECT kind, title, body, link FROM notifications WHERE user_id = $1 AND id > $2 ORDER BY id',
      [who.id, since],
    );
const lastNotificationId = async (t: TestApp) =>
  (await t.app.db.one<{ id: string | null }>('SELECT max(id)::text AS id FROM notifications')).id ?? '0';

describe.each(dbTargets)('account protections on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());

  describe('POST /api/security/sessions/', () => {
    it('answers 401 without a session', async () => {
      expect(await t.post('/api/security/sessions/', { type: 'list' })).toEqual(SESSION_EXPIRED);
      expect(await t.post('/api/security/sessions/', { type: 'sign_out_others' }, { token: 'not-a-token' })).toEqual(SESSION_EXPIRED);
    });

    it('lists the sign-ins newest first with device, address and "this is you", and only the caller\'s own', async () => {
      const owner = await member(t);
      const other = await member(t);
      t.clock.advance(MINUTE);
      const second = await signInAgain(t, owner, '203.0.113.7');
      await signInAgain(t, other, '198.51.100.9');

      const sessions = await history(t, second);
      expect(sessions).toEqual([
        {
          id: expect.any(Number),
          created: t.clock.now().toISOString(),
          last_used: t.clock.now().toISOString(),
          device: 'Firefox on Linux (desktop)',
          ip: '203.0.113.7',
          current: true,
          active: true,
        },
        {
          id: expect.any(Number),
          created: new Date(t.clock.now().getTime() - MINUTE).toISOString(),
          last_used: expect.any(String),
          device: 'vitest',
          // Register opens a session too, from the address the request came from (inject's default).
          ip: '127.0.0.1',
          current: false,
          active: true,
        },
      ]);
      // The first session sees the same two, itself marked.
      expect((await history(t, owner.token)).map((entry) => entry.current)).toEqual([false, true]);
    });

    it('records the address of a two-factor sign-in', async () => {
      const owner = await member(t, true);
      const password = await t.post<LoginResponse>('/api/security/login/', { username: owner.username, password: owner.password, device: 'x' }, { ip: '192.0.2.44' });
      const interim = (password.body.info as { token: string }).token;
      const second = await t.post<SessionResponse>(
        '/api/security/two_factor_login/',
        { token: interim, code: await codeAt(t, owner.secret ?? ''), device: 'Safari on iOS (phone)' },
        { ip: '192.0.2.44' },
      );
      expect(second.status, JSON.stringify(second.body)).toBe(200);
      const [newest] = await history(t, second.body.info.token);
      expect(newest).toMatchObject({ device: 'Safari on iOS (phone)', ip: '192.0.2.44', current: true, active: true });
    });

    it(`shows at most ${20} sign-ins`, async () => {
      const owner = await member(t);
      let token = owner.token;
      for (let index = 0; index < 21; index += 1) {
        t.clock.advance(1000);
        token = await signInAgain(t, owner, `198.51.100.${index + 1}`);
      }
      const sessions = await history(t, token);
      expect(sessions).toHaveLength(20);
      expect(sessions[0]).toMatchObject({ ip: '198.51.100.21', current: true });
      expect(sessions.at(-1)).toMatchObject({ ip: '198.51.100.2' });
    });

    it('sign_out_others ends every other session of the account and keeps the caller\'s and everybody else\'s', async () => {
      const owner = await member(t);
      const bystander = await member(t);
      const laptop = await signInAgain(t, owner, '203.0.113.1');
      const phone = await signInAgain(t, owner, '203.0.113.2');
      const since = await lastNotificationId(t);

      const answer = await sessionsCall<SignOutOthersResponse>(t, laptop, { type: 'sign_out_others' });
      expect(answer).toEqual({
        status: 200,
        body: { success: true, info: { message: 'Signed out 2 other sessions. Only this device is signed in now.', signed_out: 2 } },
      });
      for (const ended of [owner.token, phone]) {
        expect(await sessionsCall(t, ended, { type: 'list' })).toEqual(SESSION_EXPIRED);
        expect(await t.post('/api/user/overview/', {}, { token: ended })).toEqual(SESSION_EXPIRED);
      }
      expect((await history(t, laptop)).map((entry) => [entry.ip, entry.current, entry.active])).toEqual([
        ['203.0.113.2', false, false],
        ['203.0.113.1', true, true],
        ['127.0.0.1', false, false],
      ]);
      // Another account's session is not touched.
      expect((await sessionsCall(t, bystander.token, { type: 'list' })).status).toBe(200);
      expect(await notificationsOf(t, owner, since)).toEqual([
        {
          kind: 'signed_out_elsewhere',
          title: 'Signed out everywhere else',
          body:
            '2 other sessions were signed out; only the device that asked is still signed in. ' +
            'If this was not you, reset your password now and turn on two-factor authentication.',
          link: '/settings/security',
        },
      ]);

      // Nothing left to end: said so, and nobody is told.
      const again = await sessionsCall<SignOutOthersResponse>(t, laptop, { type: 'sign_out_others' });
      expect(again.body.info).toEqual({ message: 'No other device was signed in. Only this one is.', signed_out: 0 });
      expect(await notificationsOf(t, owner, since)).toHaveLength(1);
    });

    it('shows an idle-expired session as ended and does not count it as signed out now', async () => {
      const owner = await member(t);
      const kept = await signInAgain(t, owner, '203.0.113.5');
      t.clock.advance(29 * DAY);
      await history(t, kept);
      t.clock.advance(2 * DAY);
      const sessions = await history(t, kept);
      expect(sessions.map((entry) => [entry.current, entry.active])).toEqual([
        [true, true],
        [false, false],
      ]);
      const answer = await sessionsCall<SignOutOthersResponse>(t, kept, { type: 'sign_out_others' });
      expect(answer.body.info.signed_out).toBe(0);
    });

    it('refuses an unknown type with a sentence', async () => {
      const owner = await member(t);
      const answer = await sessionsCall<string>(t, owner.token, { type: 'revoke', id: 1 });
      expect(answer.status).toBe(400);
      expect(answer.body.success).toBe(false);
      expect(answer.body.info).toEqual(expect.any(String));
    });
  });

  describe('POST /api/security/anti_phishing/', () => {
    it('answers 401 without a session', async () => {
      expect(await t.post('/api/security/anti_phishing/', { type: 'status' })).toEqual(SESSION_EXPIRED);
    });

    it('sets the code with the password, and refuses a wrong password, leaving nothing changed', async () => {
      const owner = await member(t);
      expect((await antiPhishing(t, owner.token, { type: 'status' })).body).toEqual({ success: true, info: { anti_phishing_code: null } });
      const since = await lastNotificationId(t);

      expect(await antiPhishing(t, owner.token, { type: 'set', anti_phishing_code: 'Blue Heron 42', password: 'not-it' })).toEqual(WRONG_PASSWORD);
      expect((await antiPhishing(t, owner.token, { type: 'status' })).body.info).toEqual({ anti_phishing_code: null });
      expect(await notificationsOf(t, owner, since)).toEqual([]);

      const set = await antiPhishing(t, owner.token, { type: 'set', anti_phishing_code: '  Blue Heron 42 ', password: owner.password });
      expect(set).toEqual({ status: 200, body: { success: true, info: { anti_phishing_code: 'Blue Heron 42' } } });
      expect((await antiPhishing(t, owner.token, { type: 'status' })).body.info).toEqual({ anti_phishing_code: 'Blue Heron 42' });
      expect(await notificationsOf(t, owner, since)).toEqual([
        {
          kind: 'anti_phishing_code_changed',
          title: 'Anti-phishing code set',
          body:
            'Every email from Peerex now starts with your anti-phishing code. An email without it is not from us: do not click its links. ' +
            'If this was not you, reset your password now and turn on two-factor authentication.',
          link: '/settings/security',
        },
      ]);
    });

    it('refuses a code outside the contract\'s alphabet or length with its sentence', async () => {
      const owner = await member(t);
      const cases: Array<[string, string]> = [
        ['<b>hi</b>', 'Your anti-phishing code may use letters, digits, spaces, - and _ only'],
        ['abc', 'Your anti-phishing code needs at least 4 characters'],
        ['x'.repeat(21), 'Your anti-phishing code can have at most 20 characters'],
      ];
      for (const [code, sentence] of cases) {
        const answer = await antiPhishing<string>(t, owner.token, { type: 'set', anti_phishing_code: code, password: owner.password });
        expect(answer).toEqual({ status: 400, body: { success: false, info: `anti_phishing_code: ${sentence}` } });
      }
      expect((await antiPhishing(t, owner.token, { type: 'status' })).body.info).toEqual({ anti_phishing_code: null });
    });

    it('clears the code with the password; clearing none tells nobody', async () => {
      const owner = await member(t);
      await antiPhishing(t, owner.token, { type: 'set', anti_phishing_code: 'kestrel', password: owner.password });
      const since = await lastNotificationId(t);
      expect(await antiPhishing(t, owner.token, { type: 'clear', password: 'wrong-one' })).toEqual(WRONG_PASSWORD);
      expect((await antiPhishing(t, owner.token, { type: 'status' })).body.info).toEqual({ anti_phishing_code: 'kestrel' });

      expect((await antiPhishing(t, owner.token, { type: 'clear', password: owner.password })).body).toEqual({
        success: true,
        info: { anti_phishing_code: null },
      });
      expect((await antiPhishing(t, owner.token, { type: 'clear', password: owner.password })).body.info).toEqual({ anti_phishing_code: null });
      expect((await notificationsOf(t, owner, since)).map((row) => [row.kind, row.title])).toEqual([
        ['anti_phishing_code_changed', 'Anti-phishing code removed'],
      ]);
    });

    it('mails the owner when the code is set or removed: a stolen session can mark the bell read, not the inbox', async () => {
      const owner = await member(t);
      const mailsTo = () => t.outbox.recent().filter((mail) => mail.to === owner.email);
      const before = mailsTo().length;

      expect(await antiPhishing(t, owner.token, { type: 'set', anti_phishing_code: 'Wrong Pass', password: 'not-it' })).toEqual(WRONG_PASSWORD);
      expect((await antiPhishing(t, owner.token, { type: 'set', anti_phishing_code: 'Grey Wagtail', password: owner.password })).status).toBe(200);
      await t.app.mailer.settled();
      const [set] = mailsTo();
      expect(mailsTo()).toHaveLength(before + 1);
      expect(set?.subject).toBe('Your anti-phishing code was set');
      // Sent after the change: it carries the new code on top, as every mail from now on will.
      expect(set?.text.startsWith('Your anti-phishing code: Grey Wagtail\n\n'), set?.text).toBe(true);

      expect((await antiPhishing(t, owner.token, { type: 'clear', password: owner.password })).status).toBe(200);
      await t.app.mailer.settled();
      const [cleared] = mailsTo();
      expect(mailsTo()).toHaveLength(before + 2);
      expect(cleared?.subject).toBe('Your anti-phishing code was removed');
      expect(cleared?.text).not.toContain('Grey Wagtail');

      // Clearing none changes nothing: no mail.
      expect((await antiPhishing(t, owner.token, { type: 'clear', password: owner.password })).status).toBe(200);
      await t.app.mailer.settled();
      expect(mailsTo()).toHaveLength(before + 2);
    });

    it('counts wrong passwords towards the sign-in lockout, as two-factor does', async () => {
      const owner = await member(t);
      const ip = '203.0.113.99';
      for (let attempt = 0; attempt < t.config.loginLockoutFailures; attempt += 1) {
        expect(await antiPhishing(t, owner.token, { type: 'clear', password: 'guess' }, ip)).toEqual(WRONG_PASSWORD);
      }
      const locked = await antiPhishing<string>(t, owner.token, { type: 'set', anti_phishing_code: 'mine', password: owner.password }, ip);
      expect(locked).toEqual({ status: 429, body: { success: false, info: 'Too many failed sign-in attempts. Please try again in 15 minutes.' } });
      expect((await antiPhishing(t, owner.token, { type: 'status' })).body.info).toEqual({ anti_phishing_code: null });
      expect((await login(t, owner.username, owner.password, { ip })).status).toBe(429);
    });

    describe('every mail to the account carries the code near the top', () => {
      const CODE = 'Otter-7';
      const LINE = `Your anti-phishing code: ${CODE}`;
      let owner: Member & { secret?: string };
      beforeAll(async () => {
        owner = await member(t, true);
        const set = await antiPhishing(t, owner.token, { type: 'set', anti_phishing_code: CODE, password: owner.password });
        expect(set.status).toBe(200);
      });

      const newestTo = (email: string): SentMail => {
        const mail = t.outbox.recent().find((entry) => entry.to === email);
        if (!mail) throw new Error(`No mail to ${email}`);
        return mail;
      };
      const expectStamped = (mail: SentMail) => {
        expect(mail.text.startsWith(`${LINE}\n\n`), mail.text).toBe(true);
        const body = /<body[^>]*>([\s\S]*)<\/body>/.exec(mail.html)?.[1] ?? '';
        expect(body.startsWith('<p'), mail.html).toBe(true);
        expect(body.slice(0, body.indexOf('</p>'))).toContain(LINE);
      };

      it('the password reset code mail', async () => {
        await t.post('/api/security/reset_password/', { type: 'request', email: owner.email });
        await t.app.mailer.settled();
        const mail = newestTo(owner.email);
        expect(mail.subject).toBe('Your Peerex password reset code');
        expectStamped(mail);
        expect(lastCodeFor(t, owner.email)).toMatch(/^\d{6}$/);
      });

      it('a security mail the API sends (new recovery codes)', async () => {
        const renewed = await t.post(
          '/api/security/two_factor/',
          { type: 'recovery_codes', code: await codeAt(t, owner.secret ?? ''), password: owner.password },
          { token: owner.token },
        );
        expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
        await t.app.mailer.settled();
        const mail = newestTo(owner.email);
        expect(mail.subject).toBe('New recovery codes for your Peerex account');
        expectStamped(mail);
      });

      const events: SecurityEvent[] = [
        { kind: 'twoFactorOn' },
        { kind: 'twoFactorOff' },
        { kind: 'recoveryCodesRenewed' },
        { kind: 'recoveryCodeUsed', left: 3 },
        { kind: 'signInsPaused', failures: 100 },
        { kind: 'withdrawalAddressAdded', network: 'Bitcoin', address: 'bc1qexample', usableFrom: '2030-01-02 03:04 UTC' },
        { kind: 'withdrawalAllowlistOff', enforcedUntil: '2030-01-02 03:04 UTC' },
        { kind: 'antiPhishingCodeSet' },
        { kind: 'antiPhishingCodeRemoved' },
      ];
      it.each(events)('every security mail kind through the mailer ($kind), sent or in the background', async (event) => {
        await t.app.mailer.send(securityMail(owner, event, t.clock.now()));
        expectStamped(newestTo(owner.email));
        t.app.mailer.sendInBackground(securityMail(owner, event, t.clock.now()));
        await t.app.mailer.settled();
        expectStamped(newestTo(owner.email));
      });

      it('any notice and code mail, built by whoever, and nothing for an address without a code', async () => {
        await t.app.mailer.send(noticeMail(owner.email, 'A notice', ['Hello.']));
        expectStamped(newestTo(owner.email));
        await t.app.mailer.send(codeMail('reset', owner.email, '123456', 10));
        expectStamped(newestTo(owner.email));

        const plain = await member(t);
        await t.app.mailer.send(noticeMail(plain.email, 'A notice', ['Hello.']));
        const mail = newestTo(plain.email);
        expect(mail.text).toBe('Hello.\n');
        expect(mail.html).not.toContain('anti-phishing');
      });

      it('stops once the code is cleared', async () => {
        const cleared = await antiPhishing(t, owner.token, { type: 'clear', password: owner.password });
        expect(cleared.status).toBe(200);
        await t.app.mailer.send(noticeMail(owner.email, 'A notice', ['Hello.']));
        expect(newestTo(owner.email).text).toBe('Hello.\n');
      });
    });
  });
});
