import { parse as legacyParse } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notify } from '../../server/src/notifications/notify.ts';
import { isAllowedEndpoint, isSubscriptionProblem, parseDeviceToken } from '../../packages/push-service/index.ts';
import { LEASE_MS } from '../../packages/push-service/index.ts';
import { pushRepository } from '../../server/src/push/push.repository.ts';
import { lastCodeFor, login, signUp } from '../support/server-flows.ts';
import { createTestApp, dbTargets, MINUTE, type TestApp } from '../support/server.ts';
import { beamsSdk, browserSubscription, localPushService } from '../support/push.ts';

/**
 * Review of web push as an attacker. web-push sends with Node's legacy `url.parse(endpoint)` (node_modules/
 * web-push/src/web-push-lib.js, sendNotification), while the allow-list reads the endpoint with WHATWG `URL`.
 * Wherever the two disagree on the host, the check passes a push service's name and web-push connects to
 * another host: server-side request forgery.
 */

/** Where web-push would connect for this stored endpoint: legacy url.parse, port 443 when none. */
const webPushTarget = (endpoint: string) => {
  const parts = legacyParse(endpoint);
  return `${parts.hostname}:${parts.port ?? '443'}`;
};

/** Endpoints whose WHATWG host ends in a push service's domain, but whose legacy host is the attacker's. */
const PARSER_DIFFERENTIALS = [
  'https://127.0.0.1;.push.apple.com/x',
  'https://evil.example;.updates.push.services.mozilla.com/x',
  'https://evil.example{.notify.windows.com/x',
  'https://evil.example`.push.apple.com/x',
  'https://evil.example".push.apple.com/x',
  "https://evil.example'.push.apple.com/x",
  'https://evil.example%3B.push.apple.com/x',
  'https://evil.example%2e.push.apple.com/x',
  'https://evil.example%2E%2E.push.apple.com/x',
];

describe('push endpoint allow-list against URL parser differentials', () => {
  it.each(PARSER_DIFFERENTIALS)('refuses %s, whose host web-push reads differently', (endpoint) => {
    expect(isAllowedEndpoint(endpoint, [])).toBe(false);
  });

  it('stores an endpoint web-push connects to exactly the host and port the check allowed', () => {
    const subscriptions = [
      'https://fcm.googleapis.com/fcm/send/abc:APA91b',
      'https://FCM.googleapis.com:443/fcm/send/abc',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
      'https://web.push.apple.com/QGuQ',
      'https://wns2-par02p.notify.windows.com/w/?token=BQYAAA%2b',
      ' https://web.push.apple.com\t/x',
      'https://web.push.apple.com\\x',
      'https://push.test.example:8443/p/1',
      ...PARSER_DIFFERENTIALS,
    ].map((endpoint) => browserSubscription(endpoint));
    let accepted = 0;
    for (const subscription of subscriptions) {
      const parts = parseDeviceToken(subscription.token, ['push.test.example:8443']);
      if (isSubscriptionProblem(parts)) continue;
      accepted += 1;
      const allowed = new URL(parts.endpoint);
      expect(webPushTarget(parts.endpoint), subscription.endpoint).toBe(`${allowed.hostname}:${allowed.port || '443'}`);
      expect(isAllowedEndpoint(parts.endpoint, ['push.test.example:8443'])).toBe(true);
    }
    // The eight genuine endpoints above, and none of the differentials.
    expect(accepted).toBe(8);
  });
});

describe.each(dbTargets)('the device API against parser differentials on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(PARSER_DIFFERENTIALS)('answers 400 to a registration with the endpoint %s and stores nothing', async (endpoint) => {
    const answer = await beamsSdk(t.app).registerDevice(browserSubscription(endpoint).token);
    expect(answer.status).toBe(400);
    expect(await t.app.db.one<{ n: number }>('SELECT count(*)::integer AS n FROM push_devices')).toEqual({ n: 0 });
  });
});

describe.each(dbTargets)('a password reset and the browsers bound to the account before it on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(async () => {
    await t?.close();
  });

  const beamsTokenOf = async (sessionToken: string, username: string) => {
    const answer = await t.app.inject({
      method: 'GET',
      url: `/api/push/beams-auth/?user_id=${encodeURIComponent(username)}`,
      headers: { authorization: `Bearer ${sessionToken}` },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return (answer.json() as { token: string }).token;
  };
  const deviceUser = async (id: string) => (await t.app.db.maybe<{ user_id: string | null }>('SELECT user_id FROM push_devices WHERE id = $1', [id]))?.user_id;

  it('unbinds them ("every device was signed out") and refuses Beams tokens issued before it', async () => {
    const owner = await signUp(t);
    const ownerId = (await t.app.db.one<{ id: string }>('SELECT id FROM users WHERE username = $1', [owner.username])).id;
    // Whoever held the password bound their own browser with a Beams token while their session lasted.
    const stolen = await beamsTokenOf(owner.token, owner.username);
    const intruder = beamsSdk(t.app, { ip: '203.0.113.7' });
    const bound = await intruder.registerDevice(browserSubscription('https://fcm.googleapis.com/fcm/send/intruder').token);
    expect((await intruder.setUserId(bound.body.id, stolen)).status).toBe(200);
    expect(await deviceUser(bound.body.id)).toBe(ownerId);

    t.clock.advance(MINUTE);
    await t.post('/api/security/reset_password/', { type: 'request', email: owner.email });
    await t.app.mailer.settled();
    const reset = await t.post('/api/security/reset_password/', {
      type: 'reset',
      email: owner.email,
      code: lastCodeFor(t, owner.email),
      password: 'brand-new-pass-1',
      confirmPassword: 'brand-new-pass-1',
    });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);

    // The intruder's browser no longer receives the owner's pushes, and the day-long token binds nothing more.
    expect(await deviceUser(bound.body.id)).toBeNull();
    expect((await intruder.setUserId(bound.body.id, stolen)).status).toBe(401);
    // The owner, signed in again, binds a browser with a fresh token.
    t.clock.advance(MINUTE);
    const again = await login(t, owner.username, 'brand-new-pass-1');
    expect(again.status).toBe(200);
    const fresh = await beamsTokenOf((again.body.info as { token: string }).token, owner.username);
    const mine = beamsSdk(t.app, { ip: '198.51.100.20' });
    const device = await mine.registerDevice(browserSubscription('https://fcm.googleapis.com/fcm/send/owner').token);
    expect((await mine.setUserId(device.body.id, fresh)).status).toBe(200);
    expect(await deviceUser(device.body.id)).toBe(ownerId);
  });
});

describe.each(dbTargets)('the push worker and its lease on %s', (target) => {
  it('starts no send once the lease of its claim may have run out, so a row another process claimed since is sent once', async () => {
    const service = await localPushService();
    const t = await createTestApp(target, { env: { PUSH_ALLOWED_HOSTS: service.host }, push: { agent: service.agent } });
    try {
      const who = await signUp(t);
      const { id: userId } = await t.app.db.one<{ id: string }>('SELECT id FROM users WHERE username = $1', [who.username]);
      const auth = await t.app.inject({ method: 'GET', url: `/api/push/beams-auth/?user_id=${who.username}`, headers: { authorization: `Bearer ${who.token}` } });
      // Nine browsers: one more than the worker sends at once (SEND_CONCURRENCY).
      for (let n = 0; n < 9; n += 1) {
        const sdk = beamsSdk(t.app);
        const device = await sdk.registerDevice(browserSubscription(service.endpoint(`/device-${n}`)).token);
        expect((await sdk.setUserId(device.body.id, auth.json<{ token: string }>().token)).status).toBe(200);
      }
      await notify(t.app.db, [{ userId, kind: 'sign_in', title: 'New sign-in', body: 'b', link: null }], t.clock.now());
      // The push service holds the first eight sends; the round's lease runs out while they hang.
      service.answers.push(...Array.from({ length: 8 }, () => 'hold' as const));
      const round = t.app.push.drain();
      while (service.held < 8) await new Promise((resolve) => setTimeout(resolve, 20));
      t.clock.advance(LEASE_MS);
      // Another process's round claims what the lease no longer protects, the ninth delivery (not yet sent) among them.
      const taken = await pushRepository(t.app.db).claimDeliveries(t.clock.now(), LEASE_MS, 100);
      const unsent = taken.map((row) => new URL(row.endpoint).pathname).filter((path) => !service.received.some((push) => push.path === path));
      expect(unsent).toHaveLength(1);
      const ninth = unsent[0]!;
      await round;
      // This round did not send it as well: the other process does, once.
      expect(service.received.filter((push) => push.path === ninth)).toHaveLength(0);
    } finally {
      await service.close();
      await t.close();
    }
  }, 60_000);
});
