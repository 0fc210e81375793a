import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * The Pusher Channels protocol 7 as the built-in server speaks it (docs/pusher-and-beams.md "Pusher Channels protocol"): names, signatures and
 * the frames it sends. Pure functions, shared by the socket server, the Redis bus and the HTTP API.
 */

/** Longest channel name the `pusher` SDK accepts (soketi's default is 100; Pusher's is 200). */
export const MAX_CHANNEL_NAME_LENGTH = 200;
/** Longest event name the HTTP API and `trigger` accept (Pusher's limit). */
export const MAX_EVENT_NAME_LENGTH = 200;
/** Pusher's limit on one event's `data`, in bytes of its JSON string. */
export const MAX_EVENT_DATA_BYTES = 10_240;

const CHANNEL_NAME = /^[A-Za-z0-9_\-=@,.;]+$/;
const SOCKET_ID = /^\d+\.\d+$/;

export const isValidChannelName = (name: unknown): name is string =>
  typeof name === 'string' && name.length <= MAX_CHANNEL_NAME_LENGTH && CHANNEL_NAME.test(name);

export const isValidSocketId = (id: unknown): id is string => typeof id === 'string' && SOCKET_ID.test(id);

export type ChannelKind = 'public' | 'private' | 'presence';

/** `private-encrypted-` is a private channel to the server: it checks the same signature and never decrypts. */
export const channelKind = (name: string): ChannelKind =>
  name.startsWith('presence-') ? 'presence' : name.startsWith('private-') ? 'private' : 'public';

export const isPresenceChannel = (name: string) => name.startsWith('presence-');

/** Two random integers joined by a dot, as soketi makes them; the SDK refuses anything not `^\d+\.\d+$`. */
export const newSocketId = () => `${randomInt(1, 10_000_000_000)}.${randomInt(1, 10_000_000_000)}`;

/** hex HMAC-SHA256 of `text` with the app secret, the signature of channel auth and of HTTP API calls. */
export const sign = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');

const HEX_SIGNATURE = /^[0-9a-f]{64}$/i;

/** Compares a hex signature with the expected one in constant time (a malformed one is simply unequal). */
export function signatureMatches(secret: string, text: string, given: unknown): boolean {
  if (typeof given !== 'string' || !HEX_SIGNATURE.test(given)) return false;
  const expected = createHmac('sha256', secret).update(text).digest();
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}

/**
 * Checks a subscription's `auth` (`"{key}:{hex}"`) against `{socket_id}:{channel}` (private) or
 * `{socket_id}:{channel}:{channel_data}` (presence, and a private subscription that carries channel_data),
 * docs/pusher-and-beams.md "Channel authorization".
 */
export function channelAuthMatches(
  app: { key: string; secret: string },
  socketId: string,
  channel: string,
  auth: unknown,
  channelData?: string,
): boolean {
  if (typeof auth !== 'string') return false;
  const colon = auth.indexOf(':');
  if (colon < 0 || auth.slice(0, colon) !== app.key) return false;
  const text = channelData === undefined ? `${socketId}:${channel}` : `${socketId}:${channel}:${channelData}`;
  return signatureMatches(app.secret, text, auth.slice(colon + 1));
}

/** What a presence subscription says about its user: `channel_data` as signed by the app's auth endpoint. */
export interface PresenceMember {
  userId: string;
  /** `user_info` as JSON text (`null` when absent), kept as text so it is serialised once. */
  infoJson: string;
}

/** `channel_data`'s fields, or undefined when it is not a JSON object. */
function fieldsOf(channelData: string): Record<string, unknown> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(channelData);
  } catch {
    return undefined;
  }
  return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
}

export function parseChannelData(channelData: string): PresenceMember | undefined {
  const fields = fieldsOf(channelData);
  if (!fields) return undefined;
  const { user_id: id, user_info: info } = fields;
  const userId = typeof id === 'number' && Number.isFinite(id) ? String(id) : id;
  if (typeof userId !== 'string' || userId === '') return undefined;
  return { userId, infoJson: JSON.stringify(info ?? null) };
}

/** A session id a private subscription's `channel_data` may name: short, and no separator of the Redis bus's. */
const SESSION_ID = /^[A-Za-z0-9_.:-]{1,64}$/;

export const isSessionId = (id: unknown): id is string => typeof id === 'string' && SESSION_ID.test(id);

/**
 * The session a private subscription's `channel_data` names (`{"session":"<id>"}`, signed by the auth endpoint
 * with the socket and the channel), or undefined when it names none: the socket then ends with that session.
 */
export function sessionOfChannelData(channelData: string): string | undefined {
  const session = fieldsOf(channelData)?.session;
  return isSessionId(session) ? session : undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Frames. `data` of server-to-client events is a JSON *string* (docs/pusher-and-beams.md "Frames"), so it is encoded twice.

/** An application event on a channel; `data` is its JSON text, forwarded unchanged. */
export const eventFrame = (event: string, channel: string, data: string) =>
  `{"event":${JSON.stringify(event)},"channel":${JSON.stringify(channel)},"data":${JSON.stringify(data)}}`;

export const connectionEstablishedFrame = (socketId: string, activityTimeoutSeconds: number) =>
  JSON.stringify({
    event: 'pusher:connection_established',
    data: JSON.stringify({ socket_id: socketId, activity_timeout: activityTimeoutSeconds }),
  });

export const PONG_FRAME = '{"event":"pusher:pong","data":"{}"}';

export const errorFrame = (code: number | null, message: string) =>
  JSON.stringify({ event: 'pusher:error', data: { code, message } });

/** soketi's answer to a refused subscription: it names the channel, so pusher-js fires the channel's binding. */
export const subscriptionErrorFrame = (channel: string, type: string, error: string, status: number) =>
  JSON.stringify({ event: 'pusher:subscription_error', channel, data: { type, error, status } });

export const subscriptionSucceededFrame = (channel: string) =>
  `{"event":"pusher_internal:subscription_succeeded","channel":${JSON.stringify(channel)},"data":"{}"}`;

/** `members` alternates user id and `user_info` JSON, as a Redis HGETALL answers. */
export function presenceSucceededFrame(channel: string, members: readonly string[]): string {
  const ids: string[] = [];
  const hash: string[] = [];
  for (let i = 0; i < members.length; i += 2) {
    ids.push(members[i]);
    hash.push(`${JSON.stringify(members[i])}:${members[i + 1]}`);
  }
  const data = `{"presence":{"ids":${JSON.stringify(ids)},"hash":{${hash.join(',')}},"count":${ids.length}}}`;
  return eventFrame('pusher_internal:subscription_succeeded', channel, data);
}

export const memberAddedFrame = (channel: string, member: PresenceMember) =>
  eventFrame('pusher_internal:member_added', channel, `{"user_id":${JSON.stringify(member.userId)},"user_info":${member.infoJson}}`);

export const memberRemovedFrame = (channel: string, userId: string) =>
  eventFrame('pusher_internal:member_removed', channel, `{"user_id":${JSON.stringify(userId)}}`);

// ---------------------------------------------------------------------------------------------------------
// Close codes (docs/pusher-and-beams.md "Close codes"): what pusher-js does with each decides which one to use.

export const CloseCode = {
  /** App key unknown: pusher-js gives up ("refused"). */
  appDoesNotExist: 4001,
  /** Path is not /app/{key}: refused. */
  pathNotFound: 4005,
  /** `protocol` is not a number: refused. */
  invalidVersionFormat: 4006,
  /** `protocol` is one this server does not speak: refused. */
  unsupportedProtocol: 4007,
  /** No `protocol`: refused. */
  noProtocol: 4008,
  /**
   * The session that authorized the socket ended (pusher-js: "refused", so it stays disconnected rather than
   * reconnect with the same credentials). Never for a shutdown, whose clients must come back (4200).
   */
  sessionEnded: 4009,
  /** Too many connections from one address: pusher-js retries after a second, without growing backoff. */
  overCapacity: 4100,
  /** Server going away (shutdown, deploy): pusher-js reconnects at once, to whichever node answers. */
  reconnectNow: 4200,
  /** Never a close code: pusher-js treats 43xx as "refused" and stays disconnected. Sent as a message only. */
  clientEventRefused: 4301,
} as const;
