/**
 * Device labels (docs/rules.md "Sessions"): the `device` a sign-in names is free text the client writes, and it is
 * quoted to the account's owner in the sign-in history, the "New sign-in" notification and its web push. Control
 * characters (CR and LF included) would let it forge lines there ("— this is you, no action needed"); they are
 * stripped, and the label cut to 100 characters, before anything stores it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceLabel, DEVICE_LABEL_MAX_LENGTH } from '../../contracts/common.ts';
import type { LoginResponse, SessionResponse } from '../../contracts/security.ts';
import { codeAt, lastCodeFor, newTrader, signUp, signUpWithTwoFactor } from '../support/server-flows.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';

const FORGED = 'Chrome on Windows\r\n\u2028— this is you, no action needed.\u0007\u202e\t\u0085';
const CLEAN = 'Chrome on Windows — this is you, no action needed.';
/** A control and a long tail (200 UTF-16 units, the most a label may be sent with; 104 characters): cut to 100, never half an emoji. */
const LONG = `Firefox\n${'🦊'.repeat(96)}`;

type Session = { device: string; current: boolean };
type Notification = { title: string; body: string };

describe.each(dbTargets)('device labels on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t?.close());

  /** What the owner sees of the session `token` signed in as: its history row, its "New sign-in" notification and push. */
  async function shown(token: string, username: string) {
    const history = await t.post<{ sessions: Session[] }>('/api/security/sessions/', { type: 'list' }, { token });
    const notifications = await t.post<{ items: Notification[] }>('/api/user/notifications/', { type: 'list' }, { token });
    const pushes = await t.app.db.query<{ web: unknown }>('SELECT web FROM push_publishes WHERE $1 = ANY (users) ORDER BY id DESC LIMIT 1', [username]);
    return {
      device: history.body.info.sessions.find((session) => session.current)?.device,
      signIn: notifications.body.info.items.find((item) => item.title === 'New sign-in')?.body ?? '',
      push: JSON.stringify(pushes[0]?.web ?? ''),
    };
  }

  it('strips control characters from the label a sign-in gives, everywhere it is shown', async () => {
    const owner = await signUp(t);
    const signedIn = await t.post<LoginResponse>('/api/security/login/', { username: owner.username, password: owner.password, device: FORGED });
    expect(signedIn.status).toBe(200);
    const seen = await shown((signedIn.body.info as { token: string }).token, owner.username);
    expect(seen.device).toBe(CLEAN);
    expect(seen.signIn).toContain(`signed in from ${CLEAN} at `);
    expect(seen.signIn).not.toMatch(/[\r\n\u2028\u0007\u202e\u0085]/);
    expect(seen.push).toContain(CLEAN);
    expect(seen.push).not.toMatch(/\\r|\\n|\\u2028|\\u0007|\\u202e|\\u0085/);
  });

  it('cuts it to 100 characters at register and at the second factor too', async () => {
    const details = newTrader();
    await t.post('/api/security/validate_email/', { type: 'request', email: details.email });
    await t.post('/api/security/validate_email/', { type: 'verify', email: details.email, code: lastCodeFor(t, details.email) });
    const registered = await t.post<SessionResponse>('/api/security/register/', {
      ...details,
      confirmPassword: details.password,
      device: LONG,
    });
    expect(registered.status).toBe(200);
    const label = (await shown(registered.body.info.token, details.username)).device ?? '';
    expect(Array.from(label)).toHaveLength(DEVICE_LABEL_MAX_LENGTH);
    expect(label).toBe(`Firefox ${'🦊'.repeat(DEVICE_LABEL_MAX_LENGTH - 'Firefox '.length)}`);

    const owner = await signUpWithTwoFactor(t);
    const first = await t.post<LoginResponse>('/api/security/login/', { username: owner.username, password: owner.password, device: 'ignored' });
    const interim = (first.body.info as { token: string }).token;
    const second = await t.post<SessionResponse>('/api/security/two_factor_login/', { token: interim, code: await codeAt(t, owner.secret), device: FORGED });
    expect(second.status).toBe(200);
    const seen = await shown(second.body.info.token, owner.username);
    expect(seen.device).toBe(CLEAN);
    expect(seen.signIn).toContain(`signed in from ${CLEAN} at `);
  });

  it('keeps an ordinary label as it is', async () => {
    const owner = await signUp(t);
    const signedIn = await t.post<LoginResponse>('/api/security/login/', { username: owner.username, password: owner.password, device: ' Safari on iPhone (Zoë’s) ' });
    expect((await shown((signedIn.body.info as { token: string }).token, owner.username)).device).toBe('Safari on iPhone (Zoë’s)');
  });
});

describe('deviceLabel', () => {
  it('turns runs of controls and spaces into one space, trims, and never splits a character', () => {
    expect(deviceLabel('\r\n  a\u0000\u001f\u007f\u009fb  \t')).toBe('a b');
    expect(deviceLabel('a\u2066b\u2069c\u200ed')).toBe('a b c d');
    expect(deviceLabel('')).toBe('');
    expect(deviceLabel(`${'x'.repeat(99)}😀😀`)).toBe(`${'x'.repeat(99)}😀`);
  });
});
