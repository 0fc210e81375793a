import Fastify, { type FastifyInstance, type onRequestAsyncHookHandler } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createDeviceApi,
  DEVICE_API_BASE_PATH,
  DEVICE_API_CALLS_PER_MINUTE,
  DEVICE_BODY_LIMIT_BYTES,
  DEVICE_REGISTRATIONS_PER_HOUR,
  deviceApiCalls,
  INTEREST_MAX_LENGTH,
  INTERESTS_PER_DEVICE,
  type BeamsTokenClaims,
  type DeviceApiLimit,
} from '../index.ts';
import { BROWSER_USER_AGENT, FCM, SDK_VERSION, beamsSdk, browserSubscription, registeredBrowser, tokenOf } from './support/beams-sdk.ts';
import { memoryDeviceStore } from './support/memory-device-store.ts';

/**
 * The device API on its own: a bare Fastify app, the store in memory, and host options the tests choose (a
 * token verifier over a table, a rate limit that counts per client address and refuses with an error of its own).
 */

const VAPID_PUBLIC_KEY = 'BPublicKeyOfTheTests';
const NOW = new Date('2030-01-02T03:04:05Z');

/** What the host's rate limit throws: its own error, which only `refusalOf` can word. */
class HostRefusal extends Error {}

interface Harness {
  app: FastifyInstance;
  memory: ReturnType<typeof memoryDeviceStore>;
  /** The Beams tokens the host issued, with what they say. */
  tokens: Map<string, BeamsTokenClaims>;
  /** The limits the API asked its host for, and how many requests each counted. */
  limits: Array<DeviceApiLimit & { counted: number }>;
  /** The host's clock. */
  clock: { now: Date };
}

async function harness(): Promise<Harness> {
  const memory = memoryDeviceStore();
  const tokens = new Map<string, BeamsTokenClaims>();
  const limits: Harness['limits'] = [];
  const clock = { now: NOW };
  const app = Fastify();
  await app.register(
    createDeviceApi({
      store: memory.store,
      instanceId: 'peerex',
      vapidPublicKey: VAPID_PUBLIC_KEY,
      allowedHosts: ['push.test.example:8443'],
      now: () => clock.now,
      verifyToken: async (token) => tokens.get(token),
      rateLimit(limit): onRequestAsyncHookHandler {
        const counted = { ...limit, counted: 0 };
        limits.push(counted);
        const perAddress = new Map<string, number>();
        return async (request) => {
          counted.counted += 1;
          const count = (perAddress.get(request.ip) ?? 0) + 1;
          perAddress.set(request.ip, count);
          if (count > limit.max) throw new HostRefusal(`Too many ${limit.kind} from this address`);
        };
      },
      refusalOf: (error) => (error instanceof HostRefusal ? { status: 429, description: error.message } : undefined),
      badText: (body) => (JSON.stringify(body ?? null).includes('\\u0000') ? 'No text may hold U+0000' : undefined),
    }),
  );
  await app.ready();
  return { app, memory, tokens, limits, clock };
}

describe('the Beams-compatible device API (over a store in memory)', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(async () => {
    await h.app.close();
  });

  describe('GET web-vapid-public-key', () => {
    it("answers the host's VAPID public key, not to be kept by any cache", async () => {
      const answer = await h.app.inject({ method: 'GET', url: `${DEVICE_API_BASE_PATH}/device_api/v1/instances/peerex/web-vapid-public-key` });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ vapidPublicKey: VAPID_PUBLIC_KEY });
      expect(answer.headers['cache-control']).toBe('no-store');
    });

    it('answers 404 in the SDK error shape for an unknown instance', async () => {
      const answer = await beamsSdk(h.app, { instance: 'someone-else' }).vapidPublicKey();
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: 'Not Found', description: 'Instance not found' });
    });
  });

  describe('POST devices/web', () => {
    it('stores the subscription parsed from the token, the SDK version and the user agent, as web-<uuid>, seen now', async () => {
      const subscription = browserSubscription(`${FCM}-keep`);
      const answer = await beamsSdk(h.app).registerDevice(subscription.token);
      expect(answer.status).toBe(200);
      expect(answer.body.id).toMatch(/^web-[0-9a-f-]{36}$/);
      expect(h.memory.devices.get(answer.body.id)).toMatchObject({
        instanceId: 'peerex',
        token: subscription.token,
        endpoint: `${FCM}-keep`,
        p256dh: subscription.p256dh,
        auth: subscription.auth,
        sdkVersion: SDK_VERSION,
        userAgent: BROWSER_USER_AGENT,
        lastSeenAt: NOW,
        username: null,
      });
    });

    it.each([
      ['Mozilla autopush', 'https://updates.push.services.mozilla.com/wpush/v2/gAAAAA'],
      ['Apple', 'https://web.push.apple.com/QGuQyavXutnMH'],
      ['Windows', 'https://wns2-par02p.notify.windows.com/w/?token=BQYAAA'],
      ['an allowed host of the host', 'https://push.test.example:8443/p/1'],
    ])('accepts an endpoint on %s', async (_name, endpoint) => {
      expect((await beamsSdk(h.app).registerDevice(browserSubscription(endpoint).token)).status).toBe(200);
    });

    it.each([
      ['plain http', 'http://fcm.googleapis.com/fcm/send/x'],
      ['a loopback address', 'https://127.0.0.1/push'],
      ['an IPv6 literal', 'https://[::1]/push'],
      ['an unknown host', 'https://evil.example/push'],
      ['a push service on another port', 'https://fcm.googleapis.com:8443/fcm/send/x'],
      ['userinfo', 'https://user:pass@fcm.googleapis.com/fcm/send/x'],
      ['a look-alike host', 'https://fcm.googleapis.com.evil.example/x'],
      ['a suffix without the dot', 'https://evilpush.apple.com/x'],
      ['an allowed host on the wrong port', 'https://push.test.example/p/1'],
      ['no URL at all', 'not a url'],
    ])('refuses %s with 400, storing nothing', async (_name, endpoint) => {
      const answer = await beamsSdk(h.app).registerDevice(browserSubscription(endpoint).token);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error: 'Bad Request' });
      expect(h.memory.devices.size).toBe(0);
    });

    it('refuses keys that are not a P-256 point and a 16-byte secret, a token that is not a subscription, and no token', async () => {
      const good = browserSubscription(FCM);
      const sdk = beamsSdk(h.app);
      const broken = [
        tokenOf({ endpoint: FCM, keys: { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: good.auth } }),
        tokenOf({ endpoint: FCM, keys: { p256dh: good.p256dh.slice(0, 40), auth: good.auth } }),
        tokenOf({ endpoint: FCM, keys: { p256dh: good.p256dh, auth: Buffer.alloc(8).toString('base64url') } }),
        tokenOf({ endpoint: FCM }),
        Buffer.from('not json').toString('base64'),
      ];
      for (const token of broken) expect((await sdk.registerDevice(token)).status, token).toBe(400);
      const noToken = await sdk.request('POST', '/devices/web', { metadata: {} });
      expect(noToken.status).toBe(400);
      expect(noToken.body).toMatchObject({ description: expect.stringContaining('The body must be {"token"') });
      expect(h.memory.devices.size).toBe(0);
    });

    it(`refuses a body over ${DEVICE_BODY_LIMIT_BYTES} bytes with 413, and one that is not JSON with 400`, async () => {
      const large = await beamsSdk(h.app).request('POST', '/devices/web', { token: 'A'.repeat(DEVICE_BODY_LIMIT_BYTES), metadata: {} });
      expect(large.status).toBe(413);
      expect(large.body).toEqual({ error: 'Payload Too Large', description: 'The body is too large' });
      const notJson = await h.app.inject({
        method: 'POST',
        url: `${DEVICE_API_BASE_PATH}/device_api/v1/instances/peerex/devices/web`,
        headers: { 'content-type': 'application/json' },
        payload: '{"token":',
      });
      expect(notJson.statusCode).toBe(400);
      expect(notJson.json()).toEqual({ error: 'Bad Request', description: 'The body must be JSON' });
    });

    it("refuses text the host's store cannot keep with the host's sentence", async () => {
      const answer = await beamsSdk(h.app).request('POST', '/devices/web', { token: browserSubscription(FCM).token, metadata: { sdkVersion: '2.1.0\u0000' } });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: 'Bad Request', description: 'No text may hold U+0000' });
      expect(h.memory.devices.size).toBe(0);
    });
  });

  describe('rate limits', () => {
    it(`asks the host for ${DEVICE_API_CALLS_PER_MINUTE} calls a minute and ${DEVICE_REGISTRATIONS_PER_HOUR} registrations an hour, counting each call by one`, async () => {
      expect(h.limits.map(({ kind, max, timeWindowMs }) => ({ kind, max, timeWindowMs }))).toEqual([
        { kind: 'calls', max: DEVICE_API_CALLS_PER_MINUTE, timeWindowMs: 60_000 },
        { kind: 'registrations', max: DEVICE_REGISTRATIONS_PER_HOUR, timeWindowMs: 3_600_000 },
      ]);
      const { sdk, id } = await registeredBrowser(h.app);
      await sdk.interests(id);
      await sdk.vapidPublicKey();
      await h.app.inject({ method: 'GET', url: `${DEVICE_API_BASE_PATH}/device_api/v1/instances/peerex/nothing-here` });
      expect(h.limits.map(({ kind, counted }) => ({ kind, counted }))).toEqual([
        { kind: 'calls', counted: 3 },
        { kind: 'registrations', counted: 1 },
      ]);
    });

    it("answers the host limit's refusal in the SDK error shape, worded by the host", async () => {
      const sdk = beamsSdk(h.app, { ip: '203.0.113.77' });
      for (let i = 0; i < DEVICE_REGISTRATIONS_PER_HOUR; i += 1) {
        expect((await sdk.registerDevice(browserSubscription(`${FCM}-limit${i}`).token)).status).toBe(200);
      }
      const refused = await sdk.registerDevice(browserSubscription(`${FCM}-over`).token);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: 'Too Many Requests', description: 'Too many registrations from this address' });
      // Registrations have their own budget: the address still calls the rest of the API.
      expect((await sdk.vapidPublicKey()).status).toBe(200);
    });
  });

  describe('interests', () => {
    it('pages in name order with an opaque cursor, and checks the page size', async () => {
      const { sdk, id } = await registeredBrowser(h.app);
      expect((await sdk.setInterests(id, ['c', 'a', 'b', 'a'])).status).toBe(200);
      const first = await sdk.interests(id, 2);
      expect(first.body).toEqual({ interests: ['a', 'b'], responseMetadata: { next_cursor: expect.any(String) } });
      expect(first.body.responseMetadata.next_cursor).not.toContain('b');
      const second = await sdk.interests(id, 2, first.body.responseMetadata.next_cursor);
      expect(second.body).toEqual({ interests: ['c'], responseMetadata: { next_cursor: null } });
      for (const limit of [0, 1001, 1.5]) {
        const refused = await sdk.interests(id, limit);
        expect(refused.status, String(limit)).toBe(400);
        expect(refused.body).toEqual({ error: 'Bad Request', description: 'limit must be a whole number from 1 to 1000' });
      }
    });

    it(`refuses bad characters, ${INTEREST_MAX_LENGTH + 1} characters, and more than ${INTERESTS_PER_DEVICE}, naming the problem`, async () => {
      const { sdk, id } = await registeredBrowser(h.app);
      const badChar = await sdk.addInterest(id, 'no spaces');
      expect(badChar.status).toBe(400);
      expect(badChar.body).toMatchObject({ description: expect.stringContaining('forbidden character') });
      expect((await sdk.addInterest(id, 'semi;colon')).status).toBe(400);
      const long = await sdk.addInterest(id, 'x'.repeat(INTEREST_MAX_LENGTH + 1));
      expect(long.status).toBe(400);
      expect(long.body).toMatchObject({ description: expect.stringContaining(String(INTEREST_MAX_LENGTH)) });
      expect((await sdk.addInterest(id, 'x'.repeat(INTEREST_MAX_LENGTH))).status).toBe(200);
      expect((await sdk.setInterests(id, ['ok', 'bad/slash'])).status).toBe(400);
      expect((await sdk.setInterests(id, ['ok', 'y'.repeat(INTEREST_MAX_LENGTH + 1)])).status).toBe(400);
      expect((await sdk.setInterests(id, [42])).status).toBe(400);
      const many = Array.from({ length: INTERESTS_PER_DEVICE + 1 }, (_, i) => `i${i}`);
      const tooMany = await sdk.setInterests(id, many);
      expect(tooMany.status).toBe(400);
      expect(tooMany.body).toMatchObject({ description: expect.stringContaining(String(INTERESTS_PER_DEVICE)) });
      // Duplicates count once.
      expect((await sdk.setInterests(id, [...many.slice(0, INTERESTS_PER_DEVICE), 'i0'])).status).toBe(200);
      expect(h.memory.devices.get(id)?.interests.size).toBe(INTERESTS_PER_DEVICE);
      const oneMore = await sdk.addInterest(id, 'one-more');
      expect(oneMore.status).toBe(400);
      expect(oneMore.body).toMatchObject({ description: `A device may have at most ${INTERESTS_PER_DEVICE} interests` });
    });

    it('reads an interest longer than a path parameter may be (a wildcard), percent-encoded', async () => {
      const { sdk, id } = await registeredBrowser(h.app);
      const longest = `${'=@,.'.repeat(40)}abcd`;
      expect(longest).toHaveLength(INTEREST_MAX_LENGTH);
      expect((await sdk.addInterest(id, longest)).status).toBe(200);
      expect((await sdk.interests(id)).body.interests).toEqual([longest]);
      expect((await sdk.removeInterest(id, longest)).status).toBe(200);
      expect((await sdk.interests(id)).body.interests).toEqual([]);
    });
  });

  describe('PUT devices/web/{id}/user', () => {
    const claims = (username: string, sessionId: string): BeamsTokenClaims => ({ username, sessionId, issuedAt: NOW });

    it('binds the device to the user of a token the host verified; refuses any other token with 401', async () => {
      h.memory.users.add('alice');
      h.memory.liveSessions.set('1', 'alice');
      h.tokens.set('alice-token', claims('alice', '1'));
      const { sdk, id } = await registeredBrowser(h.app);
      for (const token of ['not-issued-here', '']) {
        const refused = await sdk.setUserId(id, token);
        expect(refused.status).toBe(401);
        expect(refused.body).toEqual({ error: 'Unauthorized', description: 'The Beams token is missing, expired or not valid for this instance' });
      }
      expect((await sdk.request('PUT', `/devices/web/${id}/user`)).status).toBe(401);
      expect(h.memory.devices.get(id)?.username).toBeNull();
      expect((await sdk.setUserId(id, 'alice-token')).status).toBe(200);
      expect(h.memory.devices.get(id)).toMatchObject({ username: 'alice', sessionId: '1' });
    });

    it("answers the store's refusals: a user it binds nothing to (401), an ended session (401), another user's device (409)", async () => {
      h.memory.users.add('alice');
      h.memory.users.add('bob');
      h.memory.liveSessions.set('1', 'alice');
      h.memory.liveSessions.set('2', 'bob');
      h.tokens.set('alice', claims('alice', '1'));
      h.tokens.set('bob', claims('bob', '2'));
      h.tokens.set('carol', claims('carol', '3'));
      h.tokens.set('alice-ended', claims('alice', '9'));
      const { sdk, id } = await registeredBrowser(h.app);
      expect((await sdk.setUserId(id, 'carol')).status).toBe(401);
      const ended = await sdk.setUserId(id, 'alice-ended');
      expect(ended.status).toBe(401);
      expect(ended.body).toEqual({ error: 'Unauthorized', description: 'The session this Beams token was issued to has ended; sign in again' });
      expect((await sdk.setUserId(id, 'alice')).status).toBe(200);
      const taken = await sdk.setUserId(id, 'bob');
      expect(taken.status).toBe(409);
      expect(taken.body).toMatchObject({ error: 'Conflict' });
      expect(h.memory.devices.get(id)?.username).toBe('alice');
    });
  });

  describe('metadata, deletion, reporting and unknown devices', () => {
    it('keeps the SDK version cut short and the user agent; forgets a deleted device, 404 on every call afterwards', async () => {
      const { sdk, id } = await registeredBrowser(h.app);
      expect((await sdk.request('PUT', `/devices/web/${id}/metadata`, { sdkVersion: 'v'.repeat(100) })).status).toBe(200);
      expect(h.memory.devices.get(id)).toMatchObject({ sdkVersion: 'v'.repeat(32), userAgent: BROWSER_USER_AGENT });
      expect((await sdk.deleteDevice(id)).status).toBe(200);
      expect(h.memory.devices.has(id)).toBe(false);
      for (const answer of [await sdk.deleteDevice(id), await sdk.addInterest(id, 'general'), await sdk.interests(id), await sdk.setInterests(id, []), await sdk.updateMetadata(id)]) {
        expect(answer.status).toBe(404);
        expect(answer.body).toEqual({ error: 'Not Found', description: 'Device not found' });
      }
    });

    it('marks a device seen on each call; answers 404 for a device id holding U+0000 without asking the store', async () => {
      const { sdk, id } = await registeredBrowser(h.app);
      h.clock.now = new Date(NOW.getTime() + 60_000);
      expect((await sdk.interests(id)).status).toBe(200);
      expect(h.memory.devices.get(id)?.lastSeenAt).toEqual(h.clock.now);
      const asked: string[] = [];
      const touch = h.memory.store.touchDevice;
      h.memory.store.touchDevice = async (instanceId, deviceId, at) => {
        asked.push(deviceId);
        return touch(instanceId, deviceId, at);
      };
      const nul = await sdk.interests(`${id}%00`);
      expect(nul.status).toBe(404);
      expect(nul.body).toEqual({ error: 'Not Found', description: 'Device not found' });
      expect(asked).toEqual([]);
      expect((await sdk.interests(id)).status).toBe(200);
      expect(asked).toEqual([id]);
    });

    it('answers the service worker reports with 204 and unknown paths under the base path in the SDK error shape', async () => {
      const report = await h.app.inject({
        method: 'POST',
        url: `${DEVICE_API_BASE_PATH}/reporting_api/v2/instances/peerex/events`,
        headers: { 'content-type': 'application/json' },
        payload: { publishId: 'p', event: 'delivery', deviceId: 'web-x', userId: null, timestampSecs: 1, appInBackground: true, hasDisplayableContent: true, hasData: false },
      });
      expect(report.statusCode).toBe(204);
      const unknown = await h.app.inject({ method: 'GET', url: `${DEVICE_API_BASE_PATH}/device_api/v1/instances/peerex/nothing-here` });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ error: 'Not Found', description: 'No such call' });
    });
  });
});

describe('the list of calls (deviceApiCalls)', () => {
  it('is what the API serves: each method and path a route of its own, under the base path', async () => {
    const h = await harness();
    try {
      for (const call of deviceApiCalls) {
        expect(call.path.startsWith(`${DEVICE_API_BASE_PATH}/`), call.path).toBe(true);
        const url = call.path.replace('{instanceId}', 'peerex').replace('{deviceId}', 'web-unknown').replace('{interest}', 'general');
        const answer = await h.app.inject({ method: call.method.toUpperCase() as Uppercase<typeof call.method>, url });
        // Refused by the call itself (an unknown device, a missing body), never by the not-found handler.
        expect(answer.body === '' ? '' : answer.json<{ description: string }>().description, `${call.method} ${call.path}`).not.toBe('No such call');
      }
      expect(new Set(deviceApiCalls.map((call) => `${call.method} ${call.path}`)).size).toBe(deviceApiCalls.length);
    } finally {
      await h.app.close();
    }
  });
});
