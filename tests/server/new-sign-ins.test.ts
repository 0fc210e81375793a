/**
 * "New sign-in" only for a new device or address (server/src/accounts/README.md "New sign-ins", issue 31): the same
 * browser and address signing in again is told nothing, a new device or a new address is told (the bell and a
 * mail), and the sign-in history keeps every sign-in either way. The device is the random id the browser sends as
 * `device_id`; it is no credential, so a copied one does not hide a new address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginResponse, SessionResponse } from '../../contracts/security.ts';
import { codeAt, lastCodeFor, newTrader, signUpWithTwoFactor } from '../support/server-flows.ts';
import { createTestApp, dbTargets, MINUTE, type TestApp } from '../support/server.ts';

const LAPTOP = 'laptop-device-id-0123456789';
const PHONE = 'phone-device-id-0123456789ab';
const HOME = '203.0.113.10';
const CAFE = '198.51.100.77';
const MAIL_SUBJECT = 'New sign-in to your Peerex account';

type Where = { deviceId?: string; ip: string; label?: string };
type Owner = Awaited<ReturnType<typeof newTrader>> & { token: string; id: string };

describe.each(dbTargets)('new sign-ins on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t?.close());

  const withDevice = ({ deviceId, label = 'Chrome on Linux (desktop)' }: Where) => ({ device: label, ...(deviceId ? { device_id: deviceId } : {}) });

  /** Signup as the web app does it, from one browser (its device id) and address. */
  async function signUpFrom(where: Where): Promise<Owner> {
    const trader = newTrader('newsignin');
    expect((await t.post('/api/security/validate_email/', { type: 'request', email: trader.email }, { ip: where.ip })).status).toBe(200);
    const code = lastCodeFor(t, trader.email);
    expect((await t.post('/api/security/validate_email/', { type: 'verify', email: trader.email, code }, { ip: where.ip })).status).toBe(200);
    const registered = await t.post<SessionResponse>(
      '/api/security/register/',
      { email: trader.email, username: trader.username, password: trader.password, confirmPassword: trader.password, ...withDevice(where) },
      { ip: where.ip },
    );
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    const { id } = await t.app.db.one<{ id: string }>('SELECT id FROM users WHERE username = $1', [trader.username]);
    return { ...trader, token: registered.body.info.token, id };
  }

  async function signIn(owner: Owner, where: Where): Promise<string> {
    const answer = await t.post<LoginResponse>('/api/security/login/', { username: owner.username, password: owner.password, ...withDevice(where) }, { ip: where.ip });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.info.token;
  }

  /** The owner's "New sign-in" notifications, oldest first, as the bell lists them. */
  async function notices(owner: Owner): Promise<string[]> {
    const list = await t.post<{ items: { title: string; body: string }[] }>('/api/user/notifications/', { type: 'list' }, { token: owner.token });
    expect(list.status).toBe(200);
    return list.body.info.items.filter((item) => item.title === 'New sign-in').map((item) => item.body).reverse();
  }
  const mails = (owner: Owner) => t.outbox.recent().filter((mail) => mail.to === owner.email && mail.subject === MAIL_SUBJECT).reverse();
  const history = async (owner: Owner) => {
    const answer = await t.post<{ sessions: { ip: string; device: string }[] }>('/api/security/sessions/', { type: 'list' }, { token: owner.token });
    expect(answer.status).toBe(200);
    return answer.body.info.sessions.map((session) => session.ip);
  };

  it('right after signup, the same browser and address signing in (twice) is told nothing; every sign-in is in the history', async () => {
    const owner = await signUpFrom({ deviceId: LAPTOP, ip: HOME });
    await signIn(owner, { deviceId: LAPTOP, ip: HOME });
    await signIn(owner, { deviceId: LAPTOP, ip: HOME });
    expect(await notices(owner)).toEqual([]);
    expect(mails(owner)).toEqual([]);
    // The signup and both sign-ins.
    expect(await history(owner)).toEqual([HOME, HOME, HOME]);
  });

  it('one device and address signing in twice leaves one notice and one mail', async () => {
    const owner = await signUpFrom({ deviceId: LAPTOP, ip: HOME });
    await signIn(owner, { deviceId: PHONE, ip: CAFE, label: 'Safari on iOS (mobile)' });
    t.clock.advance(MINUTE);
    await signIn(owner, { deviceId: PHONE, ip: CAFE, label: 'Safari on iOS (mobile)' });
    expect(await notices(owner)).toEqual([
      `Your account was signed in from Safari on iOS (mobile) at ${CAFE}. If this was not you, reset your password now and turn on two-factor authentication.`,
    ]);
    const mailed = mails(owner);
    expect(mailed).toHaveLength(1);
    expect(mailed[0]!.text).toContain(`from the address ${CAFE}.`);
    // The device's name is the signer's own words: a genuine Peerex mail does not carry them.
    expect(mailed[0]!.text).not.toContain('Safari on iOS');
    expect(mailed[0]!.text).toContain('If this was not you, someone else has your password');
    expect(await history(owner)).toEqual([CAFE, CAFE, HOME]);
  });

  it('a known device from a new address is told, and so is a new device at a known address', async () => {
    const owner = await signUpFrom({ deviceId: LAPTOP, ip: HOME });
    await signIn(owner, { deviceId: LAPTOP, ip: CAFE });
    expect(await notices(owner)).toHaveLength(1);
    await signIn(owner, { deviceId: PHONE, ip: HOME, label: 'Firefox on Android (mobile)' });
    expect(await notices(owner)).toEqual([
      expect.stringContaining(`from Chrome on Linux (desktop) at ${CAFE}.`),
      expect.stringContaining(`from Firefox on Android (mobile) at ${HOME}.`),
    ]);
    expect(mails(owner)).toHaveLength(2);
    // Both are known now, each with both addresses: nothing more to tell.
    await signIn(owner, { deviceId: PHONE, ip: CAFE });
    await signIn(owner, { deviceId: LAPTOP, ip: HOME });
    expect(await notices(owner)).toHaveLength(2);
    expect(mails(owner)).toHaveLength(2);
    expect(await history(owner)).toHaveLength(5);
  });

  it('the device id is no credential: copied to a new address it is told; without one, every sign-in is told', async () => {
    const owner = await signUpFrom({ deviceId: LAPTOP, ip: HOME });
    // A thief who copied the owner's device id, from their own address.
    await signIn(owner, { deviceId: LAPTOP, ip: '192.0.2.66', label: 'Chrome on Linux (desktop)' });
    expect(await notices(owner)).toEqual([expect.stringContaining('at 192.0.2.66.')]);
    // A client that sends no id (a script, another app) has no device to recognise, even at the owner's address.
    await signIn(owner, { ip: HOME });
    await signIn(owner, { ip: HOME });
    expect(await notices(owner)).toHaveLength(3);
    expect(mails(owner)).toHaveLength(3);
  });

  it('the same device id on another account is that account\'s new device', async () => {
    const first = await signUpFrom({ deviceId: LAPTOP, ip: HOME });
    const second = await signUpFrom({ deviceId: PHONE, ip: HOME });
    await signIn(second, { deviceId: LAPTOP, ip: HOME });
    expect(await notices(second)).toHaveLength(1);
    expect(await notices(first)).toEqual([]);
  });

  it('a two-factor sign-in is judged at its second step, with the password step\'s device id when the second sends none', async () => {
    const owner = await signUpWithTwoFactor(t);
    const { id } = await t.app.db.one<{ id: string }>('SELECT id FROM users WHERE username = $1', [owner.username]);
    const who = { ...owner, id } as Owner;
    const twoStep = async (where: Where, secondDeviceId?: string) => {
      const first = await t.post<LoginResponse>('/api/security/login/', { username: owner.username, password: owner.password, ...withDevice(where) }, { ip: where.ip });
      expect(first.body.info).toMatchObject({ two_factor: true });
      const second = await t.post<SessionResponse>(
        '/api/security/two_factor_login/',
        { token: first.body.info.token, code: await codeAt(t, owner.secret), device: 'phone', ...(secondDeviceId ? { device_id: secondDeviceId } : {}) },
        { ip: where.ip },
      );
      expect(second.status, JSON.stringify(second.body)).toBe(200);
      t.clock.advance(MINUTE);
    };
    // signUpWithTwoFactor signed up without a device id: the first sign-in from this browser is new.
    await twoStep({ deviceId: PHONE, ip: CAFE });
    expect(await notices(who)).toHaveLength(1);
    await twoStep({ deviceId: PHONE, ip: CAFE });
    expect(await notices(who)).toHaveLength(1);
    // The second step's own id counts: another browser finishing the sign-in is a new device.
    await twoStep({ deviceId: PHONE, ip: CAFE }, LAPTOP);
    expect(await notices(who)).toHaveLength(2);
    expect(mails(who)).toHaveLength(2);
  });

  it('after a password reset, a device and address seen before it are told again', async () => {
    const owner = await signUpFrom({ deviceId: LAPTOP, ip: HOME });
    await signIn(owner, { deviceId: LAPTOP, ip: HOME });
    expect(await notices(owner)).toEqual([]);
    t.clock.advance(2 * MINUTE);
    expect((await t.post('/api/security/reset_password/', { type: 'request', email: owner.email })).status).toBe(200);
    const password = 'a-new-password-9';
    const reset = await t.post('/api/security/reset_password/', { type: 'reset', email: owner.email, code: lastCodeFor(t, owner.email), password, confirmPassword: password });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    t.clock.advance(MINUTE);
    const again = { ...owner, password };
    again.token = await signIn(again, { deviceId: LAPTOP, ip: HOME });
    expect(await notices(again)).toHaveLength(1);
    await signIn(again, { deviceId: LAPTOP, ip: HOME });
    expect(await notices(again)).toHaveLength(1);
  });

  it('after the owner signs out everywhere else, the device and address of the sessions they ended are told again', async () => {
    const owner = await signUpFrom({ deviceId: LAPTOP, ip: HOME });
    // A thief with the password signs in from their own browser once: told, as a first sign-in is.
    await signIn(owner, { deviceId: PHONE, ip: CAFE });
    expect(await notices(owner)).toHaveLength(1);
    t.clock.advance(MINUTE);
    // The owner sees it and ends every other session, without a password reset.
    const ended = await t.post<{ signed_out: number }>('/api/security/sessions/', { type: 'sign_out_others' }, { token: owner.token });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    t.clock.advance(MINUTE);
    // The thief's next sign-in from the same browser and address is announced again, not recognised.
    await signIn(owner, { deviceId: PHONE, ip: CAFE });
    expect(await notices(owner)).toHaveLength(2);
    expect(mails(owner)).toHaveLength(2);
    // Seen again from then on: the same browser and address once more is quiet.
    await signIn(owner, { deviceId: PHONE, ip: CAFE });
    expect(await notices(owner)).toHaveLength(2);
  });

  it('refuses a device id that is not one (400, naming the field), and signs nobody in', async () => {
    const owner = await signUpFrom({ deviceId: LAPTOP, ip: HOME });
    for (const deviceId of ['short', 'has spaces in it 0123456789', 'x'.repeat(65)]) {
      const answer = await t.post('/api/security/login/', { username: owner.username, password: owner.password, device: 'd', device_id: deviceId }, { ip: HOME });
      expect(answer.status).toBe(400);
      expect(answer.body.info).toContain('device_id');
    }
    expect(await history(owner)).toEqual([HOME]);
  });
});
