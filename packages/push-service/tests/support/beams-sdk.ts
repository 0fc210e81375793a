import { createECDH, randomBytes, type ECDH } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

/**
 * A browser as the device API meets it: its push subscription (keys kept here, as the browser keeps them) and
 * the Beams web SDK's requests. Used by the package's own tests and by the product's (tests/support/push.ts).
 */

/** The device API's base for the instance `peerex` (Peerex's built-in one), which the Beams web SDK prefixes every path with. */
export const DEVICE_API = '/push/device_api/v1/instances/peerex';
/** An FCM endpoint, as Chrome's subscriptions have. */
export const FCM = 'https://fcm.googleapis.com/fcm/send/abc123:APA91bH';
/** The version the Beams web SDK 2.1.0 sends in `metadata.sdkVersion`. */
export const SDK_VERSION = '2.1.0';
export const BROWSER_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

/** A browser's push subscription: its keys stay here, as they stay in the browser, so the test can decrypt. */
export interface BrowserSubscription {
  endpoint: string;
  ecdh: ECDH;
  p256dh: string;
  auth: string;
  /** What the Beams SDK sends: `btoa(JSON.stringify(subscription))`. */
  token: string;
}

/** Subscribes like a browser: a fresh P-256 key pair and a 16-byte authentication secret (RFC 8291). */
export function browserSubscription(endpoint: string): BrowserSubscription {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const p256dh = ecdh.getPublicKey().toString('base64url');
  const auth = randomBytes(16).toString('base64url');
  const token = Buffer.from(JSON.stringify({ endpoint, expirationTime: null, keys: { p256dh, auth } })).toString('base64');
  return { endpoint, ecdh, p256dh, auth, token };
}

/** A token whose subscription is exactly `subscription` (for the refusal cases). */
export const tokenOf = (subscription: unknown) => Buffer.from(JSON.stringify(subscription)).toString('base64');

// ---- the Beams web SDK's requests (node_modules/@pusher/push-notifications-web/src/push-notifications.js) ----

interface SdkAnswer<T> {
  status: number;
  body: T;
}

/** Replays the SDK's calls: same paths, methods, headers and bodies (do-request.js). */
export function beamsSdk(app: FastifyInstance, options: { ip?: string; instance?: string } = {}) {
  const base = options.instance === undefined ? DEVICE_API : `/push/device_api/v1/instances/${encodeURIComponent(options.instance)}`;
  const request = async <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<SdkAnswer<T>> => {
    const response = await app.inject({
      method,
      url: `${base}${path}`,
      headers: { 'user-agent': BROWSER_USER_AGENT, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      ...(options.ip ? { remoteAddress: options.ip } : {}),
    });
    let parsed: unknown = null;
    try {
      parsed = response.json();
    } catch {
      parsed = null;
    }
    return { status: response.statusCode, body: parsed as T };
  };
  return {
    vapidPublicKey: () => request<{ vapidPublicKey: string }>('GET', '/web-vapid-public-key'),
    registerDevice: (token: string) => request<{ id: string }>('POST', '/devices/web', { token, metadata: { sdkVersion: SDK_VERSION } }),
    addInterest: (deviceId: string, interest: string) => request('POST', `/devices/web/${deviceId}/interests/${encodeURIComponent(interest)}`),
    removeInterest: (deviceId: string, interest: string) => request('DELETE', `/devices/web/${deviceId}/interests/${encodeURIComponent(interest)}`),
    interests: (deviceId: string, limit = 100, cursor: string | null = null) =>
      request<{ interests: string[]; responseMetadata: { next_cursor: string | null } }>(
        'GET',
        `/devices/web/${deviceId}/interests?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      ),
    setInterests: (deviceId: string, interests: unknown[]) => request('PUT', `/devices/web/${deviceId}/interests`, { interests }),
    setUserId: (deviceId: string, beamsToken: string) => request('PUT', `/devices/web/${deviceId}/user`, undefined, { Authorization: `Bearer ${beamsToken}` }),
    deleteDevice: (deviceId: string) => request('DELETE', `/devices/web/${encodeURIComponent(deviceId)}`),
    updateMetadata: (deviceId: string) => request('PUT', `/devices/web/${deviceId}/metadata`, { sdkVersion: SDK_VERSION }),
    request,
  };
}

/** A browser on FCM (a subscription of its own) registered through the SDK's calls; the test fails unless the API took it. */
export async function registeredBrowser(app: FastifyInstance, options: { ip?: string } = {}) {
  const sdk = beamsSdk(app, options);
  const device = await sdk.registerDevice(browserSubscription(`${FCM}${Math.random()}`).token);
  expect(device.status, JSON.stringify(device.body)).toBe(200);
  return { sdk, id: device.body.id };
}
