import type { BeamsWeb } from './store.ts';

/**
 * What a Beams `web` publish becomes on the way to a browser (docs/pusher-and-beams.md "Push payload"): the notification with its
 * deep link made absolute (the service worker opens it as it is, away from any page), and `data.pusher`,
 * without which the Beams service worker shows nothing.
 */

/** Push services take 4096 encrypted bytes; aes128gcm's header, padding delimiter and tag leave this much JSON (docs/pusher-and-beams.md "Web push delivery"). */
export const MAX_PAYLOAD_BYTES = 3993;
/** Beams' default and maximum time to live: four weeks. */
export const MAX_TTL_SECONDS = 2_419_200;
const ELLIPSIS = '…';

export interface PusherMetadata {
  instanceId: string;
  publishId: string;
  hasDisplayableContent: boolean;
  hasData: boolean;
}

export interface PushPayload {
  notification?: NonNullable<BeamsWeb['notification']>;
  data: Record<string, unknown> & { pusher: PusherMetadata };
}

/**
 * A path of the web app (`/chat?channel=…`) on PUBLIC_URL; an absolute link stays as it is. A "path" that
 * the URL parser would take to another host (`/\\evil.example`) becomes the home page instead.
 */
export function absoluteLink(link: string, publicUrl: string): string {
  if (!link.startsWith('/')) return link;
  const home = new URL('/', publicUrl);
  const resolved = new URL(link, home);
  return resolved.origin === home.origin ? resolved.toString() : home.toString();
}

/** The `web` body with its deep link absolute, as both the built-in service and hosted Beams take it. */
export function withAbsoluteLink(web: BeamsWeb, publicUrl: string): BeamsWeb {
  const link = web.notification?.deep_link;
  if (!web.notification || link === undefined) return web;
  return { ...web, notification: { ...web.notification, deep_link: absoluteLink(link, publicUrl) } };
}

const bytesOf = (payload: unknown) => Buffer.byteLength(JSON.stringify(payload), 'utf8');

/**
 * The 6.4 payload of a publish, at most MAX_PAYLOAD_BYTES as JSON: a body too long for it is cut (by code
 * points, with an ellipsis); undefined when even an empty body does not fit (a `data` too big), which the
 * caller drops with a log line rather than sending something every push service refuses.
 */
export function pushPayload(web: BeamsWeb, metadata: { instanceId: string; publishId: string; publicUrl: string }): PushPayload | undefined {
  const absolute = withAbsoluteLink(web, metadata.publicUrl);
  const payload: PushPayload = {
    ...(absolute.notification ? { notification: absolute.notification } : {}),
    data: {
      ...(absolute.data ?? {}),
      pusher: {
        instanceId: metadata.instanceId,
        publishId: metadata.publishId,
        hasDisplayableContent: absolute.notification !== undefined,
        hasData: absolute.data !== undefined,
      },
    },
  };
  if (bytesOf(payload) <= MAX_PAYLOAD_BYTES) return payload;
  const notification = payload.notification;
  const body = notification?.body;
  if (!notification || !body) return undefined;
  const characters = Array.from(body);
  // Halving down to the longest body that fits: a few JSON encodings instead of one per character.
  let low = 0;
  let high = characters.length - 1;
  const withBody = (length: number): PushPayload => ({ ...payload, notification: { ...notification, body: characters.slice(0, length).join('') + ELLIPSIS } });
  if (bytesOf(withBody(0)) > MAX_PAYLOAD_BYTES) return undefined;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (bytesOf(withBody(middle)) <= MAX_PAYLOAD_BYTES) low = middle;
    else high = middle - 1;
  }
  return withBody(low);
}

/** A publish's time to live: `web.time_to_live`, bounded as Beams bounds it. */
export const ttlOf = (web: BeamsWeb): number => {
  const ttl = web.time_to_live;
  return typeof ttl === 'number' && Number.isInteger(ttl) && ttl >= 0 ? Math.min(ttl, MAX_TTL_SECONDS) : MAX_TTL_SECONDS;
};
