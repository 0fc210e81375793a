import { createHash } from 'node:crypto';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod/mini';
import type { RealtimeApp } from './publisher.ts';
import {
  isPresenceChannel,
  isValidChannelName,
  isValidSocketId,
  MAX_CHANNEL_NAME_LENGTH,
  MAX_EVENT_DATA_BYTES,
  MAX_EVENT_NAME_LENGTH,
  signatureMatches,
} from './protocol.ts';

/**
 * Pusher's HTTP API (docs/pusher-and-beams.md "HTTP trigger API"), so the `pusher` Node SDK (and anything else that speaks it, such
 * as a soketi client) publishes into the built-in server: signed calls only, Pusher's limits and Pusher's
 * answer shapes (`{}`, `{"channels":…}`, `{"error":…}`), not the product's `{success, info}` envelope.
 */

/** What the API needs from the server: publishing, and fleet-wide counts. */
export interface RealtimeHttpBackend {
  /** `data` is the event's JSON text, forwarded unchanged. */
  publish(channels: readonly string[], event: string, data: string, exceptSocketId: string | undefined): Promise<void>;
  subscriptionCounts(channels: readonly string[]): Promise<number[]>;
  /** Occupied channels whose name starts with `prefix`, with their subscription counts. */
  channels(prefix: string): Promise<Map<string, number>>;
  /** Distinct users of each presence channel. */
  userCounts(channels: readonly string[]): Promise<number[]>;
  userIds(channel: string): Promise<string[]>;
}

export interface RealtimeHttpApiOptions {
  app: RealtimeApp;
  backend: RealtimeHttpBackend;
  /** Milliseconds since the epoch; the signed timestamp must be within 600 s of it. */
  now?: () => number;
}

/** Pusher's limits (docs/pusher-and-beams.md "Endpoints and limits"). */
export const HTTP_API_LIMITS = {
  channelsPerEvent: 100,
  eventsPerBatch: 10,
  timestampSkewSeconds: 600,
} as const;

/**
 * The largest body of one event: Pusher's 10 KB of data, escaped once more inside the body (at most twice its
 * size: the SDK sends JSON text as a string), its channel names and the rest. Bodies are read only for requests
 * whose signature holds (the query is checked first), so a stranger's body is never read, let alone hashed.
 */
export const EVENT_BODY_BYTES = 2 * MAX_EVENT_DATA_BYTES + HTTP_API_LIMITS.channelsPerEvent * (MAX_CHANNEL_NAME_LENGTH + 3) + 1024;
/** The largest body of a batch: its events, each at most as large as one event's body. */
export const BATCH_BODY_BYTES = HTTP_API_LIMITS.eventsPerBatch * EVENT_BODY_BYTES;

/** The version of Pusher's signing scheme (docs/pusher-and-beams.md "Request signing"); the SDKs send `auth_version=1.0`. */
const AUTH_VERSION = '1.0';

class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The string the client signed: `METHOD\nPATH\nSORTED_QUERY`, every query parameter but `auth_signature`,
 * keys lower-cased and sorted, values decoded and not encoded again (docs/pusher-and-beams.md "Request signing").
 */
export function stringToSign(method: string, path: string, query: ReadonlyMap<string, string>): string {
  const pairs = [...query]
    .filter(([key]) => key !== 'auth_signature')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`);
  return `${method.toUpperCase()}\n${path}\n${pairs.join('&')}`;
}

/** The query of a raw URL, keys lower-cased; a key given twice is refused (which one was signed?). */
export function parseSignedQuery(search: string): Map<string, string> {
  const query = new Map<string, string>();
  for (const [rawKey, value] of new URLSearchParams(search)) {
    const key = rawKey.toLowerCase();
    if (query.has(key)) throw new ApiError(401, `Parameter ${key} given twice`);
    query.set(key, value);
  }
  return query;
}

/**
 * Checks a request's query, cheapest first: key, version, timestamp window, then the signature, which covers
 * `body_md5`. The body plays no part, so this runs before it is read (`verifyBodyHash` then checks it). Throws
 * a 401 ApiError; none of them tells the server's clock.
 */
export function verifySignedQuery(app: RealtimeApp, request: { method: string; url: string }, nowMs: number): Map<string, string> {
  const mark = request.url.indexOf('?');
  const path = mark < 0 ? request.url : request.url.slice(0, mark);
  const query = parseSignedQuery(mark < 0 ? '' : request.url.slice(mark + 1));
  if (query.get('auth_key') !== app.key) throw new ApiError(401, 'Unknown auth_key');
  if (query.get('auth_version') !== AUTH_VERSION) throw new ApiError(401, `auth_version must be ${AUTH_VERSION}`);
  const timestamp = Number(query.get('auth_timestamp'));
  if (!query.get('auth_timestamp') || !Number.isFinite(timestamp)) throw new ApiError(401, 'Missing auth_timestamp');
  if (Math.abs(nowMs / 1000 - timestamp) >= HTTP_API_LIMITS.timestampSkewSeconds) {
    throw new ApiError(401, `Timestamp expired: auth_timestamp must be within ${HTTP_API_LIMITS.timestampSkewSeconds} seconds of the current time`);
  }
  if (!signatureMatches(app.secret, stringToSign(request.method, path, query), query.get('auth_signature'))) {
    throw new ApiError(401, 'Invalid signature: expected the HMAC-SHA256 hex digest of METHOD\\nPATH\\nSORTED_QUERY');
  }
  return query;
}

/** The body against the `body_md5` a verified signature covered; a 401 ApiError when they differ. */
export function verifyBodyHash(query: ReadonlyMap<string, string>, rawBody: string): void {
  const bodyMd5 = query.get('body_md5');
  if (rawBody === '' && bodyMd5 === undefined) return;
  if (createHash('md5').update(rawBody, 'utf8').digest('hex') !== bodyMd5) throw new ApiError(401, 'body_md5 does not match the body');
}

// ---------------------------------------------------------------------------------------------------------
// Bodies

interface EventRequest {
  name: string;
  data: string;
  channels: string[];
  socketId: string | undefined;
  info: Set<string>;
}

const INFO_ATTRIBUTES = new Set(['subscription_count', 'user_count']);

function parseInfo(value: unknown): Set<string> {
  if (value === undefined || value === null || value === '') return new Set();
  if (typeof value !== 'string') throw new ApiError(400, 'info must be a comma-separated string');
  const attributes = new Set(value.split(',').map((part) => part.trim()).filter(Boolean));
  for (const attribute of attributes) {
    if (!INFO_ATTRIBUTES.has(attribute)) throw new ApiError(400, `Unknown info attribute: ${attribute}`);
  }
  return attributes;
}

function parseEvent(body: unknown, where = ''): EventRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, `${where}Expected a JSON object`);
  const { name, data, channels, channel, socket_id: socketId, info } = body as Record<string, unknown>;
  if (typeof name !== 'string' || name === '' || name.length > MAX_EVENT_NAME_LENGTH) {
    throw new ApiError(400, `${where}name must be a string of 1 to ${MAX_EVENT_NAME_LENGTH} characters`);
  }
  if (data === undefined) throw new ApiError(400, `${where}data is missing`);
  // The SDK always sends a string; anything else is taken as the JSON it is.
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  if (Buffer.byteLength(text) > MAX_EVENT_DATA_BYTES) {
    throw new ApiError(413, `${where}Event data is too large: at most ${MAX_EVENT_DATA_BYTES} bytes`);
  }
  const list = channels !== undefined ? channels : channel !== undefined ? [channel] : undefined;
  if (!Array.isArray(list) || list.length === 0) throw new ApiError(400, `${where}channels must be a non-empty array`);
  if (list.length > HTTP_API_LIMITS.channelsPerEvent) {
    throw new ApiError(400, `${where}At most ${HTTP_API_LIMITS.channelsPerEvent} channels per event`);
  }
  for (const name of list) {
    // Only a string is named back: String() of a list nested 20,000 deep overflows the stack (it was a 500).
    if (!isValidChannelName(name)) throw new ApiError(400, `${where}Invalid channel name: ${typeof name === 'string' ? name.slice(0, 200) : `a ${typeof name}, not a string`}`);
  }
  if (socketId !== undefined && socketId !== null && !isValidSocketId(socketId)) throw new ApiError(400, `${where}Invalid socket_id`);
  return {
    name,
    data: text,
    channels: [...new Set(list as string[])],
    socketId: (socketId as string | null | undefined) ?? undefined,
    info: parseInfo(info),
  };
}

function parseJsonBody(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new ApiError(400, 'The body is not valid JSON');
  }
}

/** `{subscription_count?, user_count?}` per channel; user_count only for presence channels, as Pusher does. */
async function channelAttributes(backend: RealtimeHttpBackend, channels: readonly string[], info: Set<string>) {
  const out: Record<string, { subscription_count?: number; user_count?: number }> = {};
  for (const channel of channels) out[channel] = {};
  if (info.has('subscription_count')) {
    const counts = await backend.subscriptionCounts(channels);
    channels.forEach((channel, i) => (out[channel].subscription_count = counts[i]));
  }
  if (info.has('user_count')) {
    const presence = channels.filter(isPresenceChannel);
    const counts = await backend.userCounts(presence);
    presence.forEach((channel, i) => (out[channel].user_count = counts[i]));
  }
  return out;
}

// ---- The calls, each declared once: what the plugin registers and what an OpenAPI document says of it --------

/**
 * One call of the trigger API: its route and handler, and what an OpenAPI document needs (the same fields as the
 * application's own call declarations, so an application lists these with its calls; zod schemas describe the
 * shapes, which the handlers parse by hand to answer in Pusher's words).
 */
export interface TriggerApiCall {
  method: 'get' | 'post';
  /** OpenAPI style (`{appId}`). */
  path: string;
  tag: string;
  summary: string;
  description: string;
  access: 'signed';
  query: Record<string, { description: string; required?: boolean }>;
  params?: Record<string, string>;
  request?: { name: string; schema: z.core.$ZodType };
  answer: { kind: 'json'; body: { name: string; schema: z.core.$ZodType } };
  refusal: 'trigger-api';
  refusals: number[];
  bodyLimit?: number;
  handle(request: FastifyRequest, backend: RealtimeHttpBackend): Promise<unknown>;
}

/** The trigger API's group in an OpenAPI document, and what it says of all its calls. */
export const TRIGGER_API_TAG = {
  name: 'Realtime trigger API (Pusher)',
  description: "Pusher's HTTP API, so the `pusher` Node SDK publishes into the built-in server. Answers and errors (`{error}`) are Pusher's, not the envelope.",
};
const TAG = TRIGGER_API_TAG.name;
const json = (name: string, schema: z.core.$ZodType) => ({ kind: 'json' as const, body: { name, schema } });
const channelAttributesSchema = z.object({ subscription_count: z.optional(z.int()), user_count: z.optional(z.int()) });
/** Pusher's event (docs/pusher-and-beams.md "Endpoints and limits"). */
const pusherEventSchema = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(MAX_EVENT_NAME_LENGTH)),
  data: z.string().check(z.describe(`The event's JSON text, forwarded unchanged; at most ${MAX_EVENT_DATA_BYTES} bytes (413 when larger).`)),
  channels: z.optional(z.array(z.string()).check(z.minLength(1), z.maxLength(HTTP_API_LIMITS.channelsPerEvent))),
  channel: z.optional(z.string().check(z.describe('One channel, instead of `channels`.'))),
  socket_id: z.optional(z.string().check(z.describe('This connection does not receive the event.'))),
  info: z.optional(z.string().check(z.describe('A comma list of `subscription_count`, `user_count`.'))),
});
const SIGNED_QUERY = {
  auth_key: { description: 'The app key.', required: true },
  auth_timestamp: { description: 'Unix seconds; within 600 s of the server clock.', required: true },
  auth_version: { description: '`1.0`.', required: true },
  body_md5: { description: 'Hex MD5 of the exact raw body, when there is one.' },
};
const INFO_QUERY = { info: { description: '`subscription_count`, `user_count`.' } };

export const TRIGGER_API_CALLS: readonly TriggerApiCall[] = [
  {
    method: 'post',
    path: '/apps/{appId}/events',
    tag: TAG,
    summary: 'Trigger an event',
    description:
      'What the `pusher` Node SDK calls to publish into the built-in server. Each subscriber of each channel gets `{event, channel, data}`, except `socket_id`. Answers `{}`, or the channels\' attributes when `info` is given. 413 for data over 10 KB, or a body larger than one such event needs. The key, `auth_version`, timestamp and signature are checked before the body is read; `body_md5` after.',
    access: 'signed',
    query: SIGNED_QUERY,
    request: { name: 'PusherEvent', schema: pusherEventSchema },
    answer: json('TriggerAnswer', z.object({ channels: z.optional(z.record(z.string(), channelAttributesSchema)) })),
    refusal: 'trigger-api',
    refusals: [413],
    bodyLimit: EVENT_BODY_BYTES,
    async handle(request, backend) {
      const event = parseEvent(parseJsonBody(request.body as string));
      await backend.publish(event.channels, event.name, event.data, event.socketId);
      return event.info.size ? { channels: await channelAttributes(backend, event.channels, event.info) } : {};
    },
  },
  {
    method: 'post',
    path: '/apps/{appId}/batch_events',
    tag: TAG,
    summary: 'Trigger several events',
    description: `At most ${HTTP_API_LIMITS.eventsPerBatch} events; every event is checked before any is sent, so a batch is refused whole.`,
    access: 'signed',
    query: SIGNED_QUERY,
    request: { name: 'PusherBatch', schema: z.object({ batch: z.array(pusherEventSchema).check(z.maxLength(HTTP_API_LIMITS.eventsPerBatch)) }) },
    answer: json('BatchTriggerAnswer', z.object({ batch: z.optional(z.array(channelAttributesSchema)) })),
    refusal: 'trigger-api',
    refusals: [413],
    bodyLimit: BATCH_BODY_BYTES,
    async handle(request, backend) {
      const body = parseJsonBody(request.body as string) as { batch?: unknown };
      if (!body || !Array.isArray(body.batch)) throw new ApiError(400, 'batch must be an array');
      if (body.batch.length > HTTP_API_LIMITS.eventsPerBatch) throw new ApiError(400, `At most ${HTTP_API_LIMITS.eventsPerBatch} events per batch`);
      // Every event is checked before any is sent: a batch is refused whole.
      const events = body.batch.map((item, i) => parseEvent(item, `batch[${i}]: `));
      for (const event of events) await backend.publish(event.channels, event.name, event.data, event.socketId);
      if (!events.some((event) => event.info.size)) return {};
      return {
        batch: await Promise.all(
          events.map(async (event) => (event.info.size ? (await channelAttributes(backend, event.channels, event.info))[event.channels[0]] : {})),
        ),
      };
    },
  },
  {
    method: 'get',
    path: '/apps/{appId}/channels',
    tag: TAG,
    summary: 'Occupied channels',
    description: '`info=user_count` only with `filter_by_prefix=presence-`.',
    access: 'signed',
    query: { ...SIGNED_QUERY, filter_by_prefix: { description: 'Only channels whose name starts with it.' }, ...INFO_QUERY },
    answer: json('ChannelList', z.object({ channels: z.record(z.string(), channelAttributesSchema) })),
    refusal: 'trigger-api',
    refusals: [],
    async handle(request, backend) {
      const query = request.query as Record<string, string | undefined>;
      const prefix = query.filter_by_prefix ?? '';
      const info = parseInfo(query.info);
      if (info.has('user_count') && !prefix.startsWith('presence-')) {
        throw new ApiError(400, 'info=user_count needs filter_by_prefix=presence-');
      }
      const occupied = await backend.channels(prefix);
      const names = [...occupied.keys()];
      const attributes = info.has('user_count') ? await channelAttributes(backend, names, new Set(['user_count'])) : undefined;
      const channels: Record<string, { subscription_count?: number; user_count?: number }> = {};
      for (const [name, count] of occupied) {
        channels[name] = {
          ...(info.has('subscription_count') ? { subscription_count: count } : {}),
          ...(attributes ? attributes[name] : {}),
        };
      }
      return { channels };
    },
  },
  {
    method: 'get',
    path: '/apps/{appId}/channels/{channel}',
    tag: TAG,
    summary: 'One channel',
    description: '`user_count` for presence channels only.',
    access: 'signed',
    params: { channel: 'A channel name.' },
    query: { ...SIGNED_QUERY, ...INFO_QUERY },
    answer: json('ChannelState', z.object({ occupied: z.boolean(), subscription_count: z.optional(z.int()), user_count: z.optional(z.int()) })),
    refusal: 'trigger-api',
    refusals: [],
    async handle(request, backend) {
      const { channel } = request.params as { channel: string };
      if (!isValidChannelName(channel)) throw new ApiError(400, `Invalid channel name: ${channel}`);
      const info = parseInfo((request.query as Record<string, string | undefined>).info);
      if (info.has('user_count') && !isPresenceChannel(channel)) throw new ApiError(400, 'user_count is only for presence channels');
      const [count] = await backend.subscriptionCounts([channel]);
      const answer: { occupied: boolean; subscription_count?: number; user_count?: number } = { occupied: count > 0 };
      if (info.has('subscription_count')) answer.subscription_count = count;
      if (info.has('user_count')) answer.user_count = (await backend.userCounts([channel]))[0];
      return answer;
    },
  },
  {
    method: 'get',
    path: '/apps/{appId}/channels/{channel}/users',
    tag: TAG,
    summary: 'Users of a presence channel',
    description: 'Presence channels only (400 for any other).',
    access: 'signed',
    params: { channel: 'A presence channel name (`presence-…`).' },
    query: SIGNED_QUERY,
    answer: json('ChannelUsers', z.object({ users: z.array(z.object({ id: z.string() })) })),
    refusal: 'trigger-api',
    refusals: [],
    async handle(request, backend) {
      const { channel } = request.params as { channel: string };
      if (!isValidChannelName(channel) || !isPresenceChannel(channel)) throw new ApiError(400, 'Users are listed for presence channels only');
      return { users: (await backend.userIds(channel)).map((id) => ({ id })) };
    },
  },
];

// ---------------------------------------------------------------------------------------------------------

/** The HTTP API as an encapsulated Fastify plugin: register it at the root (its paths are `/apps/:id/…`). */
export function createRealtimeHttpApi(options: RealtimeHttpApiOptions): FastifyPluginAsync {
  const { app, backend } = options;
  const now = options.now ?? Date.now;

  return async (api) => {
    // The raw body, whatever its content type: body_md5 is the hash of these exact bytes. Its limit is each route's.
    api.removeAllContentTypeParsers();
    api.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

    api.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) request.log.error({ err: error }, 'realtime HTTP API failed');
      return reply.code(status).send({ error: status === 500 ? 'Internal server error' : error.message });
    });

    // Answers (refusals above all) are about this moment and this caller: no cache keeps one.
    api.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    // Before the body is read: an unsigned request costs a lookup and one HMAC of its query, whatever it sends.
    const signedQueries = new WeakMap<FastifyRequest, Map<string, string>>();
    api.addHook('onRequest', async (request: FastifyRequest<{ Params: { appId: string } }>, reply: FastifyReply) => {
      if (request.params.appId !== app.id) return reply.code(404).send({ error: `Unknown app: ${request.params.appId}` });
      signedQueries.set(request, verifySignedQuery(app, { method: request.method, url: request.url }, now()));
    });

    api.addHook('preHandler', async (request) => {
      const query = signedQueries.get(request);
      if (!query) throw new ApiError(401, 'Unsigned request');
      verifyBodyHash(query, typeof request.body === 'string' ? request.body : '');
    });

    for (const call of TRIGGER_API_CALLS) {
      api.route({
        method: call.method.toUpperCase() as 'GET' | 'POST',
        url: call.path.replace(/\{([^}]+)\}/g, ':$1'),
        ...(call.bodyLimit ? { bodyLimit: call.bodyLimit } : {}),
        handler: (request) => call.handle(request, backend),
      });
    }
  };
}
