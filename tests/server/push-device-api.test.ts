import { SignJWT, jwtVerify } from 'jose';
import { hkdfSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_REGISTRATIONS_PER_HOUR, INTERESTS_PER_DEVICE, UNBOUND_DEVICE_LIFETIME_MS } from '../../packages/push-service/index.ts';
import { sessionIdOf, signUp } from '../support/server-flows.ts';
import { createTestApp, dbTargets, TEST_APP_SECRET, type TestApp } from '../support/server.ts';
import { BROWSER_USER_AGENT, FCM, SDK_VERSION, beamsSdk, browserSubscription, registeredBrowser } from '../support/push.ts';

const beamsAuth = (t: TestApp, token: string | undefined, userId?: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/push/beams-auth/${userId === undefined ? '' : `?user_id=${encodeURIComponent(userId)}`}`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

/** A Beams token as the built-in instance would sign it, but with claims the test chooses (`sid`: the session it names). */
async function forgedToken(claims: { sub: string; sid?: string; iss?: string; iat?: number; exp?: number }, secret?: Uint8Array) {
  const key = secret ?? new Uint8Array(hkdfSync('sha256', TEST_APP_SECRET, 'peerex', 'beams token secret', 32));
  const iat = claims.iat ?? Math.floor(Date.now() / 1000);
  return new SignJWT(claims.sid === undefined ? {} : { sid: claims.sid })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer(claims.iss ?? 'https://peerex.pushnotifications.pusher.com')
    .setIssuedAt(iat)
    .setExpirationTime(claims.exp ?? iat + 3600)
    .sign(key);
}

describe.each(dbTargets)('the Beams-compatible device API on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { env: { PUSH_ALLOWED_HOSTS: 'push.test.example:8443' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('GET web-vapid-public-key', () => {
    it('answers the VAPID public key, an uncompressed P-256 point in base64url (87 characters)', async () => {
      const answer = await beamsSdk(t.app).vapidPublicKey();
      expect(answer.status).toBe(200);
      expect(answer.body.vapidPublicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
      expect(Buffer.from(answer.body.vapidPublicKey, 'base64url')[0]).toBe(4);
    });

    it('is the same key for every process sharing APP_SECRET (DATA_DIR=memory://)', async () => {
      const other = await createTestApp(target);
      try {
        expect((await beamsSdk(other.app).vapidPublicKey()).body).toEqual((await beamsSdk(t.app).vapidPublicKey()).body);
      } finally {
        await other.close();
      }
    });
  });

  describe('POST devices/web', () => {
    it('registers a browser subscription as web-<uuid>, keeping token, keys, SDK version and user agent', async () => {
      const subscription = browserSubscription(`${FCM}-keep`);
      const answer = await beamsSdk(t.app).registerDevice(subscription.token);
      expect(answer.status).toBe(200);
      expect(answer.body.id).toMatch(/^web-[0-9a-f-]{36}$/);
      const stored = await t.app.db.one<Record<string, unknown>>('SELECT * FROM push_devices WHERE id = $1', [answer.body.id]);
      expect(stored).toMatchObject({
        instance_id: 'peerex',
        token: subscription.token,
        endpoint: `${FCM}-keep`,
        p256dh: subscription.p256dh,
        auth: subscription.auth,
        user_id: null,
        sdk_version: SDK_VERSION,
        user_agent: BROWSER_USER_AGENT,
      });
    });

    it(`limits registrations per client address (${DEVICE_REGISTRATIONS_PER_HOUR} an hour), in the SDK error shape`, async () => {
      const sdk = beamsSdk(t.app, { ip: '203.0.113.77' });
      for (let i = 0; i < DEVICE_REGISTRATIONS_PER_HOUR; i += 1) {
        expect((await sdk.registerDevice(browserSubscription(`${FCM}-limit${i}`).token)).status).toBe(200);
      }
      const refused = await sdk.registerDevice(browserSubscription(`${FCM}-over`).token);
      expect(refused.status).toBe(429);
      // The server's refusal (push.device_api_registrations), in the SDK's shape.
      expect(refused.body).toEqual({ error: 'Too Many Requests', description: 'Too many devices registered from this address; try again later' });
      // Another address is not affected.
      expect((await beamsSdk(t.app, { ip: '203.0.113.78' }).registerDevice(browserSubscription(`${FCM}-other`).token)).status).toBe(200);
    });
  });

  describe('interests', () => {
    it('adds, lists with paging, removes and replaces interests as the SDK calls them', async () => {
      const { sdk, id } = await registeredBrowser(t.app);
      expect((await sdk.addInterest(id, 'general')).status).toBe(200);
      expect((await sdk.addInterest(id, 'debug-x=1@a,b.c_d')).status).toBe(200);
      expect((await sdk.addInterest(id, 'general')).status).toBe(200);
      expect((await sdk.interests(id)).body).toEqual({ interests: ['debug-x=1@a,b.c_d', 'general'], responseMetadata: { next_cursor: null } });
      const first = await sdk.interests(id, 1);
      expect(first.body.interests).toEqual(['debug-x=1@a,b.c_d']);
      const second = await sdk.interests(id, 1, first.body.responseMetadata.next_cursor);
      expect(second.body).toEqual({ interests: ['general'], responseMetadata: { next_cursor: null } });
      expect((await sdk.removeInterest(id, 'general')).status).toBe(200);
      expect((await sdk.interests(id)).body.interests).toEqual(['debug-x=1@a,b.c_d']);
      expect((await sdk.setInterests(id, ['b', 'a', 'b'])).status).toBe(200);
      expect((await sdk.interests(id)).body.interests).toEqual(['a', 'b']);
      expect((await sdk.setInterests(id, [])).status).toBe(200);
      expect((await sdk.interests(id)).body.interests).toEqual([]);
    });

    it('keeps at most INTERESTS_PER_DEVICE interests per device in the database, duplicates counted once', async () => {
      const { sdk, id } = await registeredBrowser(t.app);
      const many = Array.from({ length: INTERESTS_PER_DEVICE }, (_, i) => `i${i}`);
      expect((await sdk.setInterests(id, [...many, 'i0'])).status).toBe(200);
      expect((await t.app.db.one<{ n: string }>('SELECT count(*) AS n FROM push_device_interests WHERE device_id = $1', [id])).n).toBe(String(INTERESTS_PER_DEVICE));
      expect((await sdk.addInterest(id, 'one-more')).status).toBe(400);
      expect((await sdk.setInterests(id, ['a'])).status).toBe(200);
      expect((await sdk.interests(id)).body.interests).toEqual(['a']);
    });
  });

  describe('PUT devices/web/{id}/user and GET /api/push/beams-auth/', () => {
    it('binds a device with the token beams-auth hands out, an HS256 JWT with Beams claims', async () => {
      const trader = await signUp(t);
      const auth = await beamsAuth(t, trader.token, trader.username);
      expect(auth.statusCode).toBe(200);
      const { token } = auth.json<{ token: string }>();
      const { payload, protectedHeader } = await jwtVerify(token, new Uint8Array(hkdfSync('sha256', TEST_APP_SECRET, 'peerex', 'beams token secret', 32)));
      expect(protectedHeader.alg).toBe('HS256');
      expect(payload).toMatchObject({ sub: trader.username, iss: 'https://peerex.pushnotifications.pusher.com', sid: await sessionIdOf(t, trader.token) });
      expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(24 * 3600);

      const { sdk, id } = await registeredBrowser(t.app);
      expect((await sdk.setUserId(id, token)).status).toBe(200);
      // Again with the same user: still theirs.
      expect((await sdk.setUserId(id, token)).status).toBe(200);
      const stored = await t.app.db.one<{ username: string; session_id: string }>(
        'SELECT u.username, d.session_id FROM push_devices d JOIN users u ON u.id = d.user_id WHERE d.id = $1',
        [id],
      );
      expect(stored).toEqual({ username: trader.username, session_id: await sessionIdOf(t, trader.token) });
    });

    it("refuses beams-auth for another user's id (403), without user_id (400), without a session (401)", async () => {
      const trader = await signUp(t);
      const other = await signUp(t);
      const refused = await beamsAuth(t, trader.token, other.username);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ success: false });
      expect((await beamsAuth(t, trader.token)).statusCode).toBe(400);
      expect((await beamsAuth(t, undefined, trader.username)).statusCode).toBe(401);
    });

    it('refuses an expired token, a bad signature, another issuer, an unknown user, no session or another one, and no token with 401', async () => {
      const trader = await signUp(t);
      const other = await signUp(t);
      const sid = await sessionIdOf(t, trader.token);
      const { sdk, id } = await registeredBrowser(t.app);
      const now = Math.floor(Date.now() / 1000);
      const refused = [
        await forgedToken({ sub: trader.username, sid, iat: now - 2 * 86400, exp: now - 86400 }),
        await forgedToken({ sub: trader.username, sid }, new TextEncoder().encode('not-the-secret-of-this-server')),
        await forgedToken({ sub: trader.username, sid, iss: 'https://other.pushnotifications.pusher.com' }),
        await forgedToken({ sub: 'nobody-by-this-name', sid }),
        await forgedToken({ sub: 'x'.repeat(165), sid }),
        // A token that names no session, or another account's, or something that is no session id.
        await forgedToken({ sub: trader.username }),
        await forgedToken({ sub: trader.username, sid: await sessionIdOf(t, other.token) }),
        await forgedToken({ sub: trader.username, sid: '999999999' }),
        await forgedToken({ sub: trader.username, sid: `${sid} OR 1=1` }),
      ];
      for (const token of refused) {
        const answer = await sdk.setUserId(id, token);
        expect(answer.status).toBe(401);
        expect(answer.body).toMatchObject({ error: 'Unauthorized' });
      }
      expect((await sdk.request('PUT', `/devices/web/${id}/user`)).status).toBe(401);
      expect((await t.app.db.one<{ user_id: string | null }>('SELECT user_id FROM push_devices WHERE id = $1', [id])).user_id).toBeNull();
      // The forged token's checks are the only difference: the same claims, well signed, bind.
      expect((await sdk.setUserId(id, await forgedToken({ sub: trader.username, sid }))).status).toBe(200);
    });

    it('refuses to bind a device already bound to another user (409)', async () => {
      const first = await signUp(t);
      const second = await signUp(t);
      const { sdk, id } = await registeredBrowser(t.app);
      expect((await sdk.setUserId(id, await forgedToken({ sub: first.username, sid: await sessionIdOf(t, first.token) }))).status).toBe(200);
      const refused = await sdk.setUserId(id, await forgedToken({ sub: second.username, sid: await sessionIdOf(t, second.token) }));
      expect(refused.status).toBe(409);
      const owner = await t.app.db.one<{ username: string }>('SELECT u.username FROM push_devices d JOIN users u ON u.id = d.user_id WHERE d.id = $1', [id]);
      expect(owner.username).toBe(first.username);
    });
  });

  describe('metadata, deletion, reporting and unknown devices', () => {
    it('updates the SDK version and user agent, deletes the device with its interests, answers 404 afterwards', async () => {
      const { sdk, id } = await registeredBrowser(t.app);
      await t.app.db.query('UPDATE push_devices SET sdk_version = NULL, user_agent = NULL WHERE id = $1', [id]);
      expect((await sdk.updateMetadata(id)).status).toBe(200);
      expect(await t.app.db.one('SELECT sdk_version, user_agent FROM push_devices WHERE id = $1', [id])).toEqual({ sdk_version: SDK_VERSION, user_agent: BROWSER_USER_AGENT });
      await sdk.addInterest(id, 'general');
      expect((await sdk.deleteDevice(id)).status).toBe(200);
      expect((await t.app.db.query('SELECT 1 FROM push_device_interests WHERE device_id = $1', [id])).length).toBe(0);
      for (const answer of [await sdk.deleteDevice(id), await sdk.addInterest(id, 'general'), await sdk.interests(id), await sdk.setInterests(id, []), await sdk.updateMetadata(id)]) {
        expect(answer.status).toBe(404);
        expect(answer.body).toEqual({ error: 'Not Found', description: 'Device not found' });
      }
    });

    it("answers unknown paths under /push in the SDK error shape, not the product's", async () => {
      const unknown = await t.app.inject({ method: 'GET', url: '/push/device_api/v1/instances/peerex/nothing-here' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ error: 'Not Found', description: 'No such call' });
    });
  });
});

describe.each(dbTargets)('devices never bound to a user, on %s', (target) => {
  it('are deleted a day after their last call; bound ones and recent ones stay', async () => {
    const t = await createTestApp(target, { env: { PUSH_ALLOWED_HOSTS: 'push.test.example:8443' } });
    try {
      const sdk = beamsSdk(t.app);
      const register = async (name: string) => (await sdk.registerDevice(browserSubscription(`https://push.test.example:8443/${name}`).token)).body.id;
      const stale = await register('stale');
      const bound = await register('bound');
      const trader = await signUp(t);
      const { token } = (await beamsAuth(t, trader.token, trader.username)).json<{ token: string }>();
      expect((await sdk.setUserId(bound, token)).status).toBe(200);
      t.clock.advance(UNBOUND_DEVICE_LIFETIME_MS + 1000);
      const recent = await register('recent');
      // The worker's rounds do the expiring; drain runs one while something is due.
      await t.app.push.publish({ users: [trader.username] }, { notification: { title: 'a', body: 'round' } });
      await t.app.push.drain();
      const left = await t.app.db.query<{ id: string }>('SELECT id FROM push_devices ORDER BY id');
      expect(left.map((row) => row.id).sort()).toEqual([bound, recent].sort());
      expect(left.map((row) => row.id)).not.toContain(stale);
    } finally {
      await t.close();
    }
  });
});
