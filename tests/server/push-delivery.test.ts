import { jwtVerify } from 'jose';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/src/app.ts';
import { notify } from '../../server/src/notifications/notify.ts';
import { MAX_PAYLOAD_BYTES } from '../../packages/push-service/index.ts';
import { backoffMs, LEASE_MS } from '../../packages/push-service/index.ts';
import { pushRepository } from '../../server/src/push/push.repository.ts';
import { signUp } from '../support/server-flows.ts';
import { insertUser } from '../support/server-money.ts';
import { createTestApp, dbTargets, TEST_ARGON2, type TestApp } from '../support/server.ts';
import { openTrade, sellOffer, trader } from '../support/server-trades.ts';
import { beamsSdk, browserSubscription, decryptPush, fakeBeams, localPushService, type BrowserSubscription, type LocalPushService } from '../support/push.ts';

const PUBLIC_URL = 'https://peerex.test.example';

interface Pushed {
  notification: { title: string; body: string; deep_link?: string };
  data: Record<string, unknown> & { pusher: { instanceId: string; publishId: string; hasDisplayableContent: boolean; hasData: boolean } };
}

/** A browser of `username` subscribed on the local push service and bound through beams-auth, as the web app does it. */
async function boundBrowser(t: TestApp, service: LocalPushService, who: { username: string; token: string }): Promise<{ id: string; subscription: BrowserSubscription }> {
  const subscription = browserSubscription(service.endpoint());
  const sdk = beamsSdk(t.app);
  const device = await sdk.registerDevice(subscription.token);
  expect(device.status, JSON.stringify(device.body)).toBe(200);
  const auth = await t.app.inject({ method: 'GET', url: `/api/push/beams-auth/?user_id=${who.username}`, headers: { authorization: `Bearer ${who.token}` } });
  expect(auth.statusCode).toBe(200);
  expect((await sdk.setUserId(device.body.id, auth.json<{ token: string }>().token)).status).toBe(200);
  return { id: device.body.id, subscription };
}

const deviceExists = async (t: TestApp, id: string) => (await t.app.db.query('SELECT 1 FROM push_devices WHERE id = $1', [id])).length === 1;

describe.each(dbTargets)('web push delivery on %s', (target) => {
  let service: LocalPushService;
  let t: TestApp;
  beforeAll(async () => {
    service = await localPushService();
    t = await createTestApp(target, { env: { PUSH_ALLOWED_HOSTS: service.host, PUBLIC_URL }, push: { agent: service.agent } });
  });
  afterAll(async () => {
    await service?.close();
    await t?.close();
  });

  it("delivers a notification to its user's device, encrypted (aes128gcm) for the subscription's keys, VAPID-signed", async () => {
    const who = await signUp(t);
    const browser = await boundBrowser(t, service, who);
    const { id: userId } = await t.app.db.one<{ id: string }>('SELECT id FROM users WHERE username = $1', [who.username]);
    const [notified] = await notify(t.app.db, [{ userId, kind: 'trade_opened', title: 'New trade', body: 'alice opened a trade on your offer', link: '/chat?channel=abc' }], t.clock.now());
    const received = service.received.length;

    const report = await t.app.push.drain();
    expect(report).toMatchObject({ published: 1, delivered: 1 });
    expect(service.received.length).toBe(received + 1);
    const push = service.received.at(-1)!;
    expect(push.path).toBe(new URL(browser.subscription.endpoint).pathname);
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(push.headers.urgency).toBe('high');
    expect(push.headers.ttl).toBe('2419200');
    expect(push.headers.authorization).toMatch(new RegExp(`^vapid t=[^,]+, k=${t.app.push.vapid!.publicKey}$`));
    expect(push.body.length).toBeLessThanOrEqual(4096);

    const payload = decryptPush(push.body, browser.subscription) as Pushed;
    expect(payload.notification).toEqual({ title: 'New trade', body: 'alice opened a trade on your offer', deep_link: `${PUBLIC_URL}/chat?channel=abc` });
    expect(payload.data).toEqual({
      notification_id: Number(notified!.id),
      pusher: { instanceId: 'peerex', publishId: `notification-${notified!.id}`, hasDisplayableContent: true, hasData: true },
    });
    expect(await t.app.db.query('SELECT 1 FROM push_publishes UNION ALL SELECT 1 FROM push_deliveries')).toEqual([]);
  });

  it('delivers to the devices subscribed to an interest, normal urgency, the body cut to fit 3993 bytes', async () => {
    const subscription = browserSubscription(service.endpoint());
    const sdk = beamsSdk(t.app);
    const { body: device } = await sdk.registerDevice(subscription.token);
    await sdk.addInterest(device.id, 'general');
    await t.app.push.publish({ interests: ['general'] }, { notification: { title: 'Maintenance', body: 'é'.repeat(5000), deep_link: '/' } });
    const report = await t.app.push.drain();
    expect(report.delivered).toBeGreaterThanOrEqual(1);
    const push = service.received.find((p) => p.path === new URL(subscription.endpoint).pathname)!;
    expect(push.headers.urgency).toBe('normal');
    const payload = decryptPush(push.body, subscription) as Pushed;
    expect(Buffer.byteLength(JSON.stringify(payload))).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    expect(payload.notification.body).toMatch(/^é+…$/);
    expect(payload.notification.body.length).toBeGreaterThan(1000);
    expect(payload.data.pusher).toMatchObject({ hasDisplayableContent: true, hasData: false });
  });

  it('removes the device when the push service answers 410 Gone', async () => {
    const who = await signUp(t);
    const browser = await boundBrowser(t, service, who);
    await t.app.push.publish({ users: [who.username] }, { notification: { title: 'x', body: 'y' } });
    service.answers.push({ status: 410 });
    const report = await t.app.push.drain();
    expect(report.gone).toBe(1);
    expect(await deviceExists(t, browser.id)).toBe(false);
  });

  it('retries a 500 with backoff and delivers once the push service recovers; honours Retry-After on 429', async () => {
    const who = await signUp(t);
    const browser = await boundBrowser(t, service, who);
    await t.app.push.publish({ users: [who.username] }, { notification: { title: 'Coins released', body: 'z' } });
    service.answers.push({ status: 500 });
    const first = await t.app.push.drain();
    expect(first).toMatchObject({ delivered: 0, retried: 1 });
    const queued = await t.app.db.one<{ attempts: number; next_attempt_at: Date; last_error: string }>(
      'SELECT attempts, next_attempt_at, last_error FROM push_deliveries WHERE device_id = $1',
      [browser.id],
    );
    expect(queued.attempts).toBe(1);
    expect(queued.last_error).toBe('HTTP 500');
    expect(queued.next_attempt_at.getTime()).toBe(t.clock.now().getTime() + backoffMs(1));
    // Not due yet: nothing is sent.
    const sent = service.received.length;
    expect(await t.app.push.drain()).toMatchObject({ delivered: 0, retried: 0 });
    expect(service.received.length).toBe(sent);

    t.clock.advance(backoffMs(1));
    service.answers.push({ status: 429, headers: { 'retry-after': '120' } });
    expect(await t.app.push.drain()).toMatchObject({ retried: 1 });
    const limited = await t.app.db.one<{ next_attempt_at: Date }>('SELECT next_attempt_at FROM push_deliveries WHERE device_id = $1', [browser.id]);
    expect(limited.next_attempt_at.getTime()).toBe(t.clock.now().getTime() + 120_000);

    t.clock.advance(120_000);
    expect(await t.app.push.drain()).toMatchObject({ delivered: 1 });
    const payload = decryptPush(service.received.at(-1)!.body, browser.subscription) as Pushed;
    expect(payload.notification.title).toBe('Coins released');
    expect(await t.app.db.query('SELECT 1 FROM push_deliveries WHERE device_id = $1', [browser.id])).toEqual([]);
    expect(await deviceExists(t, browser.id)).toBe(true);
  });

  it('drops a delivery the push service refuses as malformed (400), keeping the device', async () => {
    const who = await signUp(t);
    const browser = await boundBrowser(t, service, who);
    await t.app.push.publish({ users: [who.username] }, { notification: { title: 'a', body: 'b' } });
    service.answers.push({ status: 400 });
    expect(await t.app.push.drain()).toMatchObject({ dropped: 1 });
    expect(await t.app.db.query('SELECT 1 FROM push_deliveries WHERE device_id = $1', [browser.id])).toEqual([]);
    expect(await deviceExists(t, browser.id)).toBe(true);
  });

  it('leaves a row claimed by another round alone until its lease runs out, then delivers it (a crashed process)', async () => {
    const who = await signUp(t);
    const browser = await boundBrowser(t, service, who);
    await t.app.push.publish({ users: [who.username] }, { notification: { title: 'Leased', body: 'by a process that died' } });
    // Another process claimed it and died before settling it.
    expect(await pushRepository(t.app.db).claimPublishes(t.clock.now(), LEASE_MS, 10)).toHaveLength(1);
    expect(await t.app.push.drain()).toMatchObject({ published: 0, delivered: 0 });
    t.clock.advance(LEASE_MS);
    expect(await t.app.push.drain()).toMatchObject({ published: 1, delivered: 1 });
    expect((decryptPush(service.received.at(-1)!.body, browser.subscription) as Pushed).notification.title).toBe('Leased');
  });

  it('a publish to a user without devices is consumed without sending', async () => {
    const user = await insertUser(t.app.db);
    const sent = service.received.length;
    await t.app.push.publish({ users: [user.username] }, { notification: { title: 'a', body: 'b' } });
    expect(await t.app.push.drain()).toMatchObject({ published: 1, delivered: 0 });
    expect(service.received.length).toBe(sent);
    expect(await t.app.db.query('SELECT 1 FROM push_publishes')).toEqual([]);
  });
});

describe.each(dbTargets)('a push service that never answers, on %s', (target) => {
  it('does not slow the trade call that notifies; the push stays queued', async () => {
    const service = await localPushService();
    const t = await createTestApp(target, { env: { PUSH_ALLOWED_HOSTS: service.host }, push: { agent: service.agent, worker: true } });
    try {
      const seller = await trader(t, { BTC: '1' });
      const buyer = await trader(t);
      await boundBrowser(t, service, seller);
      // The worker's first send to the seller hangs: the push service holds it.
      service.answers.push('hold', 'hold');
      const held = service.nextRequest();
      await t.app.push.publish({ users: [seller.username] }, { notification: { title: 'first', body: 'held' } });
      await held;
      expect(service.held).toBe(1);

      const offer = await sellOffer(t, seller);
      const started = performance.now();
      const channel = await openTrade(t, buyer, offer, '100', 'SEPA');
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(channel).toBeTruthy();
      // The trade's notification for the seller waits in the outbox (or as a delivery) behind the held send.
      const queued = await t.app.db.query(
        `SELECT 1 FROM push_publishes WHERE publish_id LIKE 'notification-%'
         UNION ALL SELECT 1 FROM push_deliveries WHERE payload->'data'->'pusher'->>'publishId' LIKE 'notification-%'`,
      );
      expect(queued.length).toBe(1);
    } finally {
      await service.close();
      await t.close();
    }
  }, 60_000);
});

describe.each(dbTargets)('the outbox across a restart, on %s', (target) => {
  it('delivers after a restart what was queued before it', async () => {
    const service = await localPushService();
    const dataDir = await mkdtemp(join(tmpdir(), 'peerex-push-restart-'));
    const env = { PUSH_ALLOWED_HOSTS: service.host, ...(target === 'pglite' ? { DATA_DIR: dataDir } : {}) };
    const t = await createTestApp(target, { env, push: { agent: service.agent } });
    try {
      const who = await signUp(t);
      const browser = await boundBrowser(t, service, who);
      await t.app.push.publish({ users: [who.username] }, { notification: { title: 'Queued', body: 'before the restart' } });
      const vapidBefore = t.app.push.vapid!.publicKey;
      await t.app.close();

      // The same database (and DATA_DIR, where the generated VAPID pair lives), a new process.
      const again = await buildApp({ config: t.config, now: t.clock.now, argon2: TEST_ARGON2, push: { agent: service.agent } });
      try {
        expect(again.push.vapid!.publicKey).toBe(vapidBefore);
        expect(await again.push.drain()).toMatchObject({ published: 1, delivered: 1 });
        const payload = decryptPush(service.received.at(-1)!.body, browser.subscription) as Pushed;
        expect(payload.notification.title).toBe('Queued');
      } finally {
        await again.close();
      }
    } finally {
      await service.close();
      await t.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.each(dbTargets)('hosted Beams by configuration, on %s', (target) => {
  const INSTANCE = 'hosted-beams-instance';
  const SECRET = 'beams-secret-key-of-the-tests';
  let beams: Awaited<ReturnType<typeof fakeBeams>>;
  let t: TestApp;
  beforeAll(async () => {
    beams = await fakeBeams();
    t = await createTestApp(target, {
      env: { BEAMS_INSTANCE_ID: INSTANCE, BEAMS_SECRET_KEY: SECRET, PUBLIC_URL },
      push: { beamsEndpoint: { host: beams.host, port: beams.port } },
    });
  });
  afterAll(async () => {
    await beams?.close();
    await t?.close();
  });

  it('names the hosted instance in /api/config with no endpoint, and has no device API', async () => {
    const config = await t.get<{ push: unknown }>('/api/config');
    expect(config.body.info.push).toEqual({ instance_id: INSTANCE, endpoint: null });
    expect((await beamsSdk(t.app).vapidPublicKey()).status).toBe(404);
    expect((await beamsSdk(t.app, { instance: INSTANCE }).vapidPublicKey()).status).toBe(404);
  });

  it('hands out Beams tokens signed with BEAMS_SECRET_KEY', async () => {
    const who = await signUp(t);
    const auth = await t.app.inject({ method: 'GET', url: `/api/push/beams-auth/?user_id=${who.username}`, headers: { authorization: `Bearer ${who.token}` } });
    expect(auth.statusCode).toBe(200);
    const { payload } = await jwtVerify(auth.json<{ token: string }>().token, new TextEncoder().encode(SECRET), {
      issuer: `https://${INSTANCE}.pushnotifications.pusher.com`,
    });
    expect(payload.sub).toBe(who.username);
  });

  it("publishes a notification through Beams' publish API, with the secret key and the web body", async () => {
    const user = await insertUser(t.app.db);
    const [notified] = await notify(t.app.db, [{ userId: user.id, kind: 'deposit_credited', title: 'Deposit received', body: '0.1 BTC', link: '/wallets/transactions' }], t.clock.now());
    expect(await t.app.push.drain()).toMatchObject({ published: 1 });
    const request = beams.received.at(-1)!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe(`/publish_api/v1/instances/${INSTANCE}/publishes/users`);
    expect(request.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(request.body).toEqual({
      users: [user.username],
      web: {
        notification: { title: 'Deposit received', body: '0.1 BTC', deep_link: `${PUBLIC_URL}/wallets/transactions` },
        data: { notification_id: Number(notified!.id) },
      },
    });
    expect(await t.app.db.query('SELECT 1 FROM push_publishes')).toEqual([]);
  });

  it('gives up on a Beams that never answers, so the round ends and the publish is retried later', async () => {
    const user = await insertUser(t.app.db);
    await notify(t.app.db, [{ userId: user.id, kind: 'sign_in', title: 'New sign-in', body: 'held', link: null }], t.clock.now());
    beams.holding = true;
    try {
      const received = beams.received.length;
      expect(await t.app.push.drain()).toMatchObject({ published: 0, retried: 1 });
      expect(beams.received.length).toBe(received + 1);
      expect(await t.app.db.query<{ attempts: number }>('SELECT attempts FROM push_publishes')).toEqual([{ attempts: 1 }]);
    } finally {
      beams.holding = false;
    }
  }, 60_000);
});

/** Two processes need one database: only on PostgreSQL. */
const twoProcesses = dbTargets.includes('postgres') ? ['postgres'] : [];

describe.each(twoProcesses)('two server processes emptying one outbox (%s)', () => {
  it('sends each push exactly once when both drain at the same time', async () => {
    const service = await localPushService();
    const env = { PUSH_ALLOWED_HOSTS: service.host };
    const first = await createTestApp('postgres', { env, push: { agent: service.agent } });
    const second = await createTestApp('pglite', { env: { ...env, DATABASE_URL: first.config.databaseUrl ?? '' }, push: { agent: service.agent } });
    try {
      const browsers = [];
      for (let i = 0; i < 12; i += 1) {
        const who = await signUp(first);
        browsers.push(await boundBrowser(first, service, who));
        await first.app.push.publish({ users: [who.username] }, { notification: { title: `to ${i}`, body: 'once' } });
      }
      const before = service.received.length;
      await Promise.all([first.app.push.drain(), second.app.push.drain(), first.app.push.drain()]);
      const paths = service.received.slice(before).map((push) => push.path);
      expect(paths.length).toBe(browsers.length);
      expect(new Set(paths).size).toBe(browsers.length);
    } finally {
      await service.close();
      await second.close();
      await first.close();
    }
  }, 60_000);
});
