import { jwtVerify } from 'jose';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { loadConfig } from '../../server/src/config.ts';
import { beamsTokens, loadVapidKeys, PushKeyError, VAPID_KEYS_FILE, vapidSubjectOf } from '../../server/src/push/keys.ts';
import { TEST_APP_SECRET, TestClock } from '../support/server.ts';

/** The configuration as the app runs with it (ServerConfig): APP_SECRET is always set here. */
const configOf = (env: Record<string, string>) => {
  const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: 'memory://', APP_SECRET: TEST_APP_SECRET, ...env });
  return { ...config, appSecret: config.appSecret ?? TEST_APP_SECRET };
};

describe('VAPID keys', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('takes VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY when set, and refuses a pair that is not P-256', async () => {
    const pair = webpush.generateVAPIDKeys();
    const keys = await loadVapidKeys(configOf({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey, NODE_ENV: 'production' }));
    expect(keys).toMatchObject({ publicKey: pair.publicKey, privateKey: pair.privateKey, source: 'VAPID_PUBLIC_KEY' });
    await expect(loadVapidKeys(configOf({ VAPID_PUBLIC_KEY: 'short', VAPID_PRIVATE_KEY: pair.privateKey }))).rejects.toThrow(PushKeyError);
  });

  it('refuses to start in production without a pair, naming the variables', async () => {
    await expect(loadVapidKeys(configOf({ NODE_ENV: 'production' }))).rejects.toThrow(/VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY.*BEAMS_INSTANCE_ID and BEAMS_SECRET_KEY/s);
  });

  it('generates a pair once into DATA_DIR (mode 0600) and every later start reads the same', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'peerex-vapid-'));
    dirs.push(dataDir);
    const [first, second] = await Promise.all([loadVapidKeys(configOf({ DATA_DIR: dataDir })), loadVapidKeys(configOf({ DATA_DIR: dataDir }))]);
    expect(second?.publicKey).toBe(first?.publicKey);
    expect((await stat(join(dataDir, VAPID_KEYS_FILE))).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(join(dataDir, VAPID_KEYS_FILE), 'utf8'))).toEqual({ publicKey: first?.publicKey, privateKey: first?.privateKey });
    expect((await loadVapidKeys(configOf({ DATA_DIR: dataDir }))).publicKey).toBe(first?.publicKey);
  });

  it('derives the pair from APP_SECRET with DATA_DIR=memory://, a different one for another secret', async () => {
    const one = await loadVapidKeys(configOf({}));
    expect((await loadVapidKeys(configOf({}))).publicKey).toBe(one.publicKey);
    expect((await loadVapidKeys(configOf({ APP_SECRET: 'another-secret-of-at-least-16' }))).publicKey).not.toBe(one.publicKey);
    // web-push accepts it as a VAPID pair.
    expect(() => webpush.getVapidHeaders('https://fcm.googleapis.com', 'mailto:a@b.example', one.publicKey, one.privateKey, 'aes128gcm')).not.toThrow();
  });

  it('names VAPID_SUBJECT, else the address of MAIL_FROM, as the contact', () => {
    expect(vapidSubjectOf(configOf({ MAIL_FROM: 'Peerex <no-reply@peerex.example>' }))).toBe('mailto:no-reply@peerex.example');
    expect(vapidSubjectOf(configOf({ MAIL_FROM: 'ops@peerex.example' }))).toBe('mailto:ops@peerex.example');
    expect(vapidSubjectOf(configOf({ VAPID_SUBJECT: 'https://peerex.example/contact' }))).toBe('https://peerex.example/contact');
  });
});

describe('Beams tokens', () => {
  it('issues HS256 tokens with the Beams claims and verifies only its own, unexpired ones', async () => {
    const clock = new TestClock();
    const tokens = beamsTokens(configOf({}), clock.now);
    const token = await tokens.issue('alice', '42');
    expect(await tokens.verify(token)).toBe('alice');
    // The session it was issued to is named in it (`sid`), and a token naming none binds nothing.
    expect(await tokens.verifyIssued(token)).toEqual({ username: 'alice', issuedAt: new Date(Math.floor(clock.now().getTime() / 1000) * 1000), sessionId: '42' });
    expect(await tokens.verifyIssued(await tokens.issue('alice', ''))).toBeUndefined();
    expect(await beamsTokens(configOf({ APP_SECRET: 'another-secret-of-at-least-16' }), clock.now).verify(token)).toBeUndefined();
    expect(await tokens.verify(`${token}x`)).toBeUndefined();
    expect(await tokens.verify('not.a.jwt')).toBeUndefined();
    clock.advance(24 * 3_600_000 + 1_000);
    expect(await tokens.verify(token)).toBeUndefined();
  });

  it('with hosted Beams, signs with BEAMS_SECRET_KEY through the server SDK', async () => {
    const tokens = beamsTokens(configOf({ BEAMS_INSTANCE_ID: 'inst', BEAMS_SECRET_KEY: 'beams-secret' }), () => new Date());
    const { payload } = await jwtVerify(await tokens.issue('bob', '42'), new TextEncoder().encode('beams-secret'), { issuer: 'https://inst.pushnotifications.pusher.com' });
    expect(payload.sub).toBe('bob');
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(24 * 3600);
  });
});
