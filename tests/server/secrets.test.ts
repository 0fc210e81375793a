/**
 * Secrets (docs/rules.md "Secrets"): nothing written in the source signs anything. Without APP_SECRET the server
 * makes a random secret once into DATA_DIR and keeps it; the values anyone could compute from the development
 * secret earlier versions published (in their source) are refused everywhere they used to open a door.
 */
import { SignJWT } from 'jose';
import { createHash, createHmac, hkdfSync } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beamsIssuer, BUILT_IN_PUSH_INSTANCE } from '../../server/src/push/instance.ts';
import { BUILT_IN_APP_ID, BUILT_IN_KEY } from '../../server/src/infra/realtime/settings.ts';
import { APP_SECRET_FILE, AppSecretError, deriveKeys, loadAppSecret } from '../../server/src/infra/secrets.ts';
import { beamsSdk, browserSubscription } from '../support/push.ts';
import { RawClient } from '../../packages/realtime/tests/support/clients.ts';
import { codeAt, login, signUp, signUpWithTwoFactor } from '../support/server-flows.ts';
import { listeningPort } from '../support/server-trades.ts';
import { createScratchDatabase, createTestApp, dbTargets, type DbTarget, type ScratchDatabase, type TestApp } from '../support/server.ts';

/** What earlier versions signed with when APP_SECRET was unset; anyone could read it in their source. */
const PUBLISHED_SECRET = 'peerex-development-secret-do-not-use-in-production';
/** The values those versions derived from it, exactly as they derived them. */
const PUBLISHED = {
  realtimeSecret: Buffer.from(hkdfSync('sha256', PUBLISHED_SECRET, 'peerex', 'realtime-secret', 32)).toString('hex'),
  beamsKey: new Uint8Array(hkdfSync('sha256', PUBLISHED_SECRET, 'peerex', 'beams token secret', 32)),
};
/** No APP_SECRET at all (an empty variable counts as unset). */
const NO_APP_SECRET = { APP_SECRET: '' };
const FCM = 'https://fcm.googleapis.com/fcm/send/secrets-test:APA91bH';

const sign = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');

/** A trigger-API request signed as the `pusher` SDK signs it (docs/pusher-and-beams.md "Request signing"), with the secret given. */
function signedTriggerUrl(secret: string, method: 'GET' | 'POST', path: string, body: string, params: Record<string, string> = {}) {
  const query: Record<string, string> = {
    auth_key: BUILT_IN_KEY,
    auth_timestamp: String(Math.floor(Date.now() / 1000)),
    auth_version: '1.0',
    ...params,
    ...(body === '' ? {} : { body_md5: createHash('md5').update(body).digest('hex') }),
  };
  const sorted = Object.keys(query)
    .sort()
    .map((key) => `${key}=${query[key]}`)
    .join('&');
  return `${path}?${sorted}&auth_signature=${sign(secret, `${method}\n${path}\n${sorted}`)}`;
}

/** A Beams token for `username`, as the built-in instance signs one, with the key given. */
const beamsToken = (username: string, key: Uint8Array) =>
  new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(username)
    .setIssuer(beamsIssuer(BUILT_IN_PUSH_INSTANCE))
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(key);

describe.each(dbTargets)('a server started without APP_SECRET, against values made with the published one (%s)', (target) => {
  let t: TestApp;
  let port: number;
  const clients: RawClient[] = [];
  beforeAll(async () => {
    t = await createTestApp(target, { env: NO_APP_SECRET });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = listeningPort(t);
  });
  afterAll(async () => {
    for (const client of clients) client.ws.terminate();
    await t?.close();
  });

  const socket = async () => {
    const client = RawClient.connect(port, `/app/${BUILT_IN_KEY}?protocol=7&client=js&version=8.6.0&flash=false`);
    clients.push(client);
    const established = await client.next('pusher:connection_established');
    return { client, socketId: (JSON.parse(established.data as string) as { socket_id: string }).socket_id };
  };

  it('runs on a random secret: not the published one, and not what the published one derives', () => {
    expect(t.app.config.appSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(t.app.config.appSecret).not.toBe(PUBLISHED_SECRET);
    expect(t.app.realtime.settings.app.secret).not.toBe(PUBLISHED.realtimeSecret);
    expect(t.app.realtime.settings.app.secret).toBe(deriveKeys(t.app.config.appSecret).realtimeSecret);
  });

  it("refuses a channel signature made with the published secret's realtime secret; the server's own signature subscribes", async () => {
    const victim = await signUp(t);
    const channel = `private-user-${victim.username}`;
    const { client, socketId } = await socket();
    for (const secret of [PUBLISHED.realtimeSecret, PUBLISHED_SECRET]) {
      const from = client.messages.length;
      client.send({ event: 'pusher:subscribe', data: { channel, auth: `${BUILT_IN_KEY}:${sign(secret, `${socketId}:${channel}`)}` } });
      const refused = await client.next('pusher:subscription_error', from);
      expect(refused.channel).toBe(channel);
    }
    // The owner's path: the signature /api/realtime/auth/ gives the victim herself.
    const auth = await t.app.inject({
      method: 'POST',
      url: '/api/realtime/auth/',
      headers: { authorization: `Bearer ${victim.user.websocket_token}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `socket_id=${socketId}&channel_name=${channel}`,
    });
    expect(auth.statusCode).toBe(200);
    const from = client.messages.length;
    // As pusher-js sends it: the auth answer whole (with `channel_data` where the server adds one).
    client.send({ event: 'pusher:subscribe', data: { channel, ...auth.json<{ auth: string; channel_data?: string }>() } });
    expect((await client.next('pusher_internal:subscription_succeeded', from)).channel).toBe(channel);
  });

  it('refuses trigger-API calls (`/apps/peerex/events`, `/apps/peerex/channels`) signed with the published values; its own secret publishes', async () => {
    const victim = await signUp(t);
    const { client, socketId } = await socket();
    const auth = await t.app.inject({
      method: 'POST',
      url: '/api/realtime/auth/',
      headers: { authorization: `Bearer ${victim.user.websocket_token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ socket_id: socketId, channel_name: `private-user-${victim.username}` }),
    });
    client.send({ event: 'pusher:subscribe', data: { channel: `private-user-${victim.username}`, ...auth.json<{ auth: string; channel_data?: string }>() } });
    await client.next('pusher_internal:subscription_succeeded');

    const phishing = JSON.stringify({
      name: 'notification',
      channels: [`private-user-${victim.username}`],
      data: JSON.stringify({ id: 1, title: 'Security alert', body: 'Verify your account at https://phish.example', created: new Date().toISOString(), fresh: true }),
    });
    const events = `/apps/${BUILT_IN_APP_ID}/events`;
    const channels = `/apps/${BUILT_IN_APP_ID}/channels`;
    for (const secret of [PUBLISHED.realtimeSecret, PUBLISHED_SECRET]) {
      const forged = await t.app.inject({ method: 'POST', url: signedTriggerUrl(secret, 'POST', events, phishing), headers: { 'content-type': 'application/json' }, payload: phishing });
      expect(forged.statusCode).toBe(401);
      expect(forged.json()).toEqual({ error: expect.stringContaining('Invalid signature') });
      const listed = await t.app.inject({ method: 'GET', url: signedTriggerUrl(secret, 'GET', channels, '', { filter_by_prefix: 'private-' }) });
      expect(listed.statusCode).toBe(401);
      expect(listed.body).not.toContain(victim.username);
    }
    expect(client.messages.some((message) => message.event === 'notification')).toBe(false);

    // The operator's own integration, signed with the server's secret, still publishes and lists.
    const own = t.app.realtime.settings.app.secret;
    const fair = JSON.stringify({ name: 'ping', channels: [`private-user-${victim.username}`], data: '{"ok":true}' });
    const sent = await t.app.inject({ method: 'POST', url: signedTriggerUrl(own, 'POST', events, fair), headers: { 'content-type': 'application/json' }, payload: fair });
    expect(sent.statusCode).toBe(200);
    expect((await client.next('ping')).channel).toBe(`private-user-${victim.username}`);
    const listed = await t.app.inject({ method: 'GET', url: signedTriggerUrl(own, 'GET', channels, '', { filter_by_prefix: 'private-' }) });
    expect(listed.statusCode).toBe(200);
    expect(Object.keys(listed.json<{ channels: Record<string, unknown> }>().channels)).toContain(`private-user-${victim.username}`);
  });

  it('refuses a Beams token made with the published secret, so nobody binds a device to the victim; her own token binds hers', async () => {
    const victim = await signUp(t);
    const thief = beamsSdk(t.app);
    const device = await thief.registerDevice(browserSubscription(`${FCM}-thief`).token);
    expect(device.status).toBe(200);
    expect((await thief.setUserId(device.body.id, await beamsToken(victim.username, PUBLISHED.beamsKey))).status).toBe(401);
    expect((await thief.setUserId(device.body.id, await beamsToken(victim.username, new TextEncoder().encode(PUBLISHED_SECRET)))).status).toBe(401);
    expect(await t.app.db.one('SELECT user_id FROM push_devices WHERE id = $1', [device.body.id])).toEqual({ user_id: null });

    const own = beamsSdk(t.app);
    const hers = await own.registerDevice(browserSubscription(`${FCM}-victim`).token);
    const issued = await t.app.inject({
      method: 'GET',
      url: `/api/push/beams-auth/?user_id=${victim.username}`,
      headers: { authorization: `Bearer ${victim.token}` },
    });
    expect(issued.statusCode).toBe(200);
    expect((await own.setUserId(hers.body.id, issued.json<{ token: string }>().token)).status).toBe(200);
  });
});

describe('the generated secret', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });
  const freshDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'peerex-secret-'));
    dirs.push(dir);
    return dir;
  };

  it('is made once into DATA_DIR (mode 0600): processes starting together on one DATA_DIR end with the same one', async () => {
    const dataDir = await freshDir();
    const secrets = await Promise.all(Array.from({ length: 8 }, () => loadAppSecret({ appSecret: undefined, dataDir })));
    expect(new Set(secrets.map((secret) => secret.value)).size).toBe(1);
    const file = join(dataDir, APP_SECRET_FILE);
    expect((await readFile(file, 'utf8')).trim()).toBe(secrets[0]?.value);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(secrets[0]?.source).toContain(file);
    // Read again, not made again, on a later start.
    expect((await loadAppSecret({ appSecret: undefined, dataDir })).value).toBe(secrets[0]?.value);
  });

  it('is random per process with DATA_DIR=memory://, and APP_SECRET wins when set', async () => {
    const one = await loadAppSecret({ appSecret: undefined, dataDir: 'memory://' });
    const two = await loadAppSecret({ appSecret: undefined, dataDir: 'memory://' });
    expect(one.value).not.toBe(two.value);
    expect(one.value).toMatch(/^[0-9a-f]{64}$/);
    expect(await loadAppSecret({ appSecret: 'an-operator-chosen-secret', dataDir: await freshDir() })).toEqual({ value: 'an-operator-chosen-secret', source: 'APP_SECRET' });
  });

  it('refuses to start on a secret file that holds no secret, saying what to do', async () => {
    const dataDir = await freshDir();
    await writeFile(join(dataDir, APP_SECRET_FILE), 'short\n');
    await expect(loadAppSecret({ appSecret: undefined, dataDir })).rejects.toThrow(AppSecretError);
    await expect(loadAppSecret({ appSecret: undefined, dataDir })).rejects.toThrow(/does not hold a secret of at least 32 characters. Restore it, or delete it/);
  });
});

/**
 * Boots of one install, one after the other: its database (a PGlite under DATA_DIR, or one PostgreSQL database)
 * and its DATA_DIR stay; each boot is a fresh process's app.
 */
async function install(target: DbTarget) {
  const dataDir = await mkdtemp(join(tmpdir(), 'peerex-install-'));
  const scratch: ScratchDatabase | undefined = target === 'postgres' ? await createScratchDatabase() : undefined;
  return {
    dataDir,
    boot: (env: Record<string, string> = {}, logger?: Writable) =>
      createTestApp('pglite', {
        env: { DATA_DIR: dataDir, ...NO_APP_SECRET, ...(scratch ? { DATABASE_URL: scratch.url } : {}), ...env },
        ...(logger ? { logger: { level: 'warn', stream: logger } } : {}),
      }),
    async remove() {
      await scratch?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Signs in with the password, then the authenticator code: the second answer. A later boot's clock starts at the
 * real time again, where the enabling code's step is spent: it moves past it first.
 */
async function signInWithCode(t: TestApp, who: { username: string; password: string; secret: string }) {
  t.clock.advance(3 * 30_000);
  const first = await login(t, who.username, who.password);
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  const interim = (first.body.info as { token: string }).token;
  return t.post('/api/security/two_factor_login/', { token: interim, code: await codeAt(t, who.secret), device: 'vitest' });
}

describe.each(dbTargets)('an install without APP_SECRET, restarted (%s)', (target) => {
  it('keeps its secret: a two-factor secret sealed on the first start still opens on the second', async () => {
    const site = await install(target);
    try {
      const first = await site.boot();
      const owner = await signUpWithTwoFactor(first);
      const secret = first.app.config.appSecret;
      await first.close();

      const second = await site.boot();
      try {
        expect(second.app.config.appSecret).toBe(secret);
        expect((await readFile(join(site.dataDir, APP_SECRET_FILE), 'utf8')).trim()).toBe(secret);
        const signedIn = await signInWithCode(second, owner);
        expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
      } finally {
        await second.close();
      }
    } finally {
      await site.remove();
    }
  }, 120_000);

  it('upgraded from the published secret: a two-factor secret sealed under it is refused with a sentence and a log line, not a 500', async () => {
    const site = await install(target);
    try {
      const first = await site.boot();
      const dave = await signUpWithTwoFactor(first);
      // As earlier versions stored it (the demo's dave was seeded so): sealed under the published secret.
      await first.app.db.query('UPDATE users SET totp_secret = $1 WHERE username = $2', [deriveKeys(PUBLISHED_SECRET).seal(dave.secret), dave.username]);
      await first.close();

      let log = '';
      const second = await site.boot({}, new Writable({ write: (chunk, _encoding, done) => ((log += String(chunk)), done()) }));
      try {
        expect(await signInWithCode(second, dave)).toEqual({
          status: 503,
          body: { success: false, info: "This account's two-factor codes cannot be checked on this server right now. Please contact its operator." },
        });
        expect(log).toContain('A stored two-factor secret does not open with this APP_SECRET');
        expect(log).toContain('README \\"Secrets\\"');
        expect(log).not.toContain('"level":50');
      } finally {
        await second.close();
      }

      // The way back the README gives, taken knowingly: APP_SECRET set to the old value opens it again (with a warning).
      log = '';
      const knowingly = await site.boot({ APP_SECRET: PUBLISHED_SECRET }, new Writable({ write: (chunk, _encoding, done) => ((log += String(chunk)), done()) }));
      try {
        expect(log).toContain('APP_SECRET is the development secret earlier versions published');
        expect((await signInWithCode(knowingly, dave)).status).toBe(200);
      } finally {
        await knowingly.close();
      }
    } finally {
      await site.remove();
    }
  }, 120_000);
});
