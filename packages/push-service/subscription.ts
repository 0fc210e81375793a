import { createECDH } from 'node:crypto';
import { isIP } from 'node:net';
import { parse as legacyUrlParse } from 'node:url';

/**
 * A browser's PushSubscription as the Beams SDK sends it (`btoa(JSON.stringify(subscription))`,
 * docs/pusher-and-beams.md "Web push delivery"), checked before it is stored: the server later POSTs to its endpoint, so an endpoint
 * must be one of the browsers' push services (or a host the operator listed), never an address of the
 * sender's choosing; and its keys must be usable, or every delivery would fail.
 */
export interface PushSubscriptionParts {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** The push services of the browsers that support web push; subdomains of each suffix, or the exact host. */
const PUSH_SERVICE_HOSTS: readonly { host: string; subdomains: boolean }[] = [
  { host: 'fcm.googleapis.com', subdomains: false }, // Chrome, Edge (Chromium), Opera, Brave
  { host: 'push.services.mozilla.com', subdomains: true }, // Firefox (autopush)
  { host: 'push.apple.com', subdomains: true }, // Safari (web.push.apple.com)
  { host: 'notify.windows.com', subdomains: true }, // legacy Edge (WNS)
];

/** The longest endpoint stored: the services' are about 200 characters, Apple's and WNS's under 500. */
export const ENDPOINT_MAX_LENGTH = 1024;
/** RFC 8291: the subscriber's P-256 public key (uncompressed point) and its 16-byte authentication secret. */
const P256DH_BYTES = 65;
const AUTH_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

export type SubscriptionProblem = { field: 'token' | 'endpoint' | 'p256dh' | 'auth'; description: string };

const isKnownPushService = (hostname: string) =>
  PUSH_SERVICE_HOSTS.some(({ host, subdomains }) => hostname === host || (subdomains && hostname.endsWith(`.${host}`)));

/** A DNS name as push services have them: letters, digits and hyphens in non-empty labels (no `;`, `{`, quotes…). */
const DNS_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * web-push sends with Node's legacy `url.parse(endpoint)` (web-push-lib.js), not WHATWG `URL`. The two read
 * some hosts differently: WHATWG keeps `;`, `{`, quotes and backticks in a host and decodes `%2e`, where the
 * legacy parser ends the host there, so `https://127.0.0.1;.push.apple.com/` passed as Apple's and was sent to
 * 127.0.0.1. Whether the host and port web-push will connect to are the ones WHATWG checked.
 */
function sendsWhereChecked(url: URL): boolean {
  const legacy = legacyUrlParse(url.href);
  return legacy.hostname === url.hostname.replace(/^\[|\]$/g, '') && (legacy.port ?? '') === url.port;
}

/**
 * Whether the server may POST to this endpoint: `https:` without userinfo, on port 443 of a browser push
 * service, or on a `host[:port]` of PUSH_ALLOWED_HOSTS (its port: the one listed, else 443). The host must be
 * a plain DNS name (or an IP literal PUSH_ALLOWED_HOSTS lists), and the server sends to the endpoint as
 * `canonicalEndpoint` writes it, which web-push's parser reads as the same host and port.
 */
export function isAllowedEndpoint(endpoint: string, allowedHosts: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return false;
  if (!sendsWhereChecked(url)) return false;
  const hostname = url.hostname.toLowerCase();
  const isIpLiteral = isIP(hostname.replace(/^\[|\]$/g, '')) !== 0;
  if (!isIpLiteral && !DNS_NAME.test(hostname)) return false;
  // URL keeps IPv6 literals in brackets; the listed form is `[::1]:port` too.
  const port = url.port === '' ? '443' : url.port;
  const listed = allowedHosts.some((entry) => {
    const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry);
    if (!match) return false;
    return match[1] === hostname && (match[2] ?? '443') === port;
  });
  if (listed) return true;
  if (isIpLiteral) return false;
  return port === '443' && isKnownPushService(hostname);
}

/** The endpoint as WHATWG serializes it: what is stored and sent, so the host sent to is the host checked. */
export const canonicalEndpoint = (endpoint: string): string => new URL(endpoint).href;

/** Whether the bytes are a point on P-256 (web-push's ECDH would otherwise fail at every delivery). */
function isP256Point(point: Buffer): boolean {
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    ecdh.computeSecret(point);
    return true;
  } catch {
    return false;
  }
}

const keyOf = (value: unknown, bytes: number): string | undefined => {
  if (typeof value !== 'string' || !BASE64URL.test(value)) return undefined;
  return Buffer.from(value, 'base64url').length === bytes ? value : undefined;
};

/** The subscription inside a Beams device token, or what is wrong with it (in the SDK's `description` words). */
export function parseDeviceToken(token: string, allowedHosts: readonly string[]): PushSubscriptionParts | SubscriptionProblem {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  } catch {
    return { field: 'token', description: 'token must be the base64 of a JSON PushSubscription' };
  }
  if (typeof decoded !== 'object' || decoded === null) return { field: 'token', description: 'token must be the base64 of a JSON PushSubscription' };
  const { endpoint, keys } = decoded as { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } | null };
  if (typeof endpoint !== 'string' || endpoint.length > ENDPOINT_MAX_LENGTH) {
    return { field: 'endpoint', description: `the subscription's endpoint must be a URL of at most ${ENDPOINT_MAX_LENGTH} characters` };
  }
  if (!isAllowedEndpoint(endpoint, allowedHosts)) {
    return { field: 'endpoint', description: "the subscription's endpoint is not on a browser push service this server sends to" };
  }
  const p256dh = keyOf(keys?.p256dh, P256DH_BYTES);
  if (!p256dh || Buffer.from(p256dh, 'base64url')[0] !== 0x04 || !isP256Point(Buffer.from(p256dh, 'base64url'))) {
    return { field: 'p256dh', description: "the subscription's p256dh key must be an uncompressed P-256 point (65 bytes, base64url)" };
  }
  const auth = keyOf(keys?.auth, AUTH_BYTES);
  if (!auth) return { field: 'auth', description: "the subscription's auth secret must be 16 bytes, base64url" };
  return { endpoint: canonicalEndpoint(endpoint), p256dh, auth };
}

export const isSubscriptionProblem = (value: PushSubscriptionParts | SubscriptionProblem): value is SubscriptionProblem => 'field' in value;
