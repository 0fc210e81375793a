import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { randomUUID } from 'node:crypto';
import { z } from 'zod/mini';
import { INTEREST_MAX_LENGTH, INTEREST_PATTERN, INTERESTS_PER_DEVICE } from './interests.ts';
import type { BeamsTokenClaims, PushDeviceStore } from './store.ts';
import { isSubscriptionProblem, parseDeviceToken } from './subscription.ts';

/**
 * The Beams-compatible device API (docs/pusher-and-beams.md "Device calls"), under
 * `/push/device_api/v1/instances/{id}`, and the service worker's reporting API. It speaks what
 * @pusher/push-notifications-web expects: plain JSON answers, and errors as `{error, description}` (the SDK
 * throws "Unexpected status code N: error, description"), not the host's own shape.
 *
 * It needs no session: a browser registers before anyone signs in on it, and a device is bound to a user only
 * with a Beams token (PUT …/user). Because devices cost nothing to create, every call is limited per client
 * (DEVICE_API_CALLS_PER_MINUTE), registrations more tightly (DEVICE_REGISTRATIONS_PER_HOUR), bodies are small
 * (a device: DEVICE_BODY_LIMIT_BYTES; interests: the host's body limit), a device holds at most
 * INTERESTS_PER_DEVICE interests, and a device no user claimed is forgotten a day after its last call
 * (worker.ts). So one client adds at most DEVICE_REGISTRATIONS_PER_HOUR devices an hour, each with a bounded
 * set of interests, and those are gone a day later.
 *
 * Each call is declared once, in DEVICE_API_ROUTES: its documentation (`deviceApiCalls`, the shape of an
 * OpenAPI catalogue entry) beside its handler, and the routes are registered from that list.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The device API's registration route: counted by DEVICE_REGISTRATIONS_PER_HOUR. */
    deviceRegistration?: boolean;
  }
}

/** Where the device API lives on the host's origin: the Beams SDK's `endpointOverride` is `<origin>/push`. */
export const DEVICE_API_BASE_PATH = '/push';
/** Every call of the device API, per client and minute: a page calls it a few times per start. */
export const DEVICE_API_CALLS_PER_MINUTE = 120;
/** New devices per client and hour: a browser registers again only when its subscription changes. */
export const DEVICE_REGISTRATIONS_PER_HOUR = 30;
/** A device registration: a subscription (an endpoint of at most 1,024 characters and two keys) in base64. */
export const DEVICE_BODY_LIMIT_BYTES = 4 * 1024;
/** Reporting events are a dozen small fields. */
const REPORT_BODY_LIMIT_BYTES = 2 * 1024;
/** GET …/interests pages: the SDK asks for 100 by default. */
const INTERESTS_PAGE_DEFAULT = 100;
const INTERESTS_PAGE_MAX = 1000;
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** The SDK sends a version like 2.1.0; anything else is cut rather than stored whole. */
const SDK_VERSION_MAX_LENGTH = 32;
const USER_AGENT_MAX_LENGTH = 512;
const TOKEN_MAX_LENGTH = 3 * 1024;

/** A per-client limit the device API asks its host for: every call (`calls`), or registrations (`registrations`). */
export interface DeviceApiLimit {
  kind: 'calls' | 'registrations';
  max: number;
  timeWindowMs: number;
}

/** What the device API takes from its host. */
export interface DeviceApiOptions {
  store: PushDeviceStore;
  /** The one instance served; any other instance id in a path is 404. */
  instanceId: string;
  /** The VAPID public key browsers subscribe with (base64url). */
  vapidPublicKey: string | undefined;
  /** Push service hosts allowed besides the browsers' own (subscription.ts `isAllowedEndpoint`). */
  allowedHosts: readonly string[];
  now: () => Date;
  /** The claims of a Beams token this host issued, or undefined for any other token (bad signature, expired, another issuer). */
  verifyToken(token: string): Promise<BeamsTokenClaims | undefined>;
  /**
   * An onRequest hook counting `limit` per client; asked once for each kind when the API is registered. It
   * refuses by throwing, and `refusalOf` words what it throws.
   */
  rateLimit(limit: DeviceApiLimit): onRequestAsyncHookHandler;
  /** The status and description of an error the host throws on purpose (its rate limits'), or undefined. */
  refusalOf?(error: unknown): { status: number; description: string } | undefined;
  /** Why the store cannot keep some text of a body (PostgreSQL: U+0000, a lone surrogate), or undefined. */
  badText?(body: unknown): string | undefined;
}

// ---- What a call is, as an OpenAPI catalogue entry reads it --------------------------------------------------

/** A schema and its name under `components/schemas`. */
export interface NamedSchema {
  name: string;
  schema: z.core.$ZodType;
}

/**
 * One call of the device API as an OpenAPI catalogue lists it: the fields of Peerex's catalogue entry
 * (server/src/openapi/catalogue.ts `Call`), with the values this API has.
 */
export interface DeviceApiCall {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI style (`{deviceId}`), from the origin's root: DEVICE_API_BASE_PATH first. */
  path: string;
  tag: string;
  summary: string;
  description: string;
  /** No session: the device id in the path is the credential. */
  access: 'device';
  /** A bearer token besides the device id: the Beams token that binds a device to its user. */
  credential?: 'beamsToken';
  request?: NamedSchema & { contentTypes?: string[]; optional?: boolean };
  query?: Record<string, { description: string; required?: boolean; schema?: z.core.$ZodType }>;
  params?: Record<string, string>;
  answer: { kind: 'json'; body: NamedSchema; status?: number } | { kind: 'empty'; status: number };
  /** Errors are `{error, description}` (deviceApiErrorBody). */
  refusal: 'device-api';
  /** The statuses it refuses with besides 400, 404, 429 and 500, which every call of the API may answer. */
  refusals: number[];
}

// ---- Bodies ----------------------------------------------------------------------------------------------

/** Every refusal: what the SDK reads into its error. */
export const deviceApiErrorBody = z.object({ error: z.string(), description: z.string() });
export const deviceRegistration = z.object({
  token: z.string().check(z.minLength(1), z.maxLength(TOKEN_MAX_LENGTH)),
  metadata: z.optional(z.object({ sdkVersion: z.optional(z.string()) })),
});
export const deviceMetadataBody = z.object({ sdkVersion: z.optional(z.string()) });
export const deviceInterestsBody = z.object({ interests: z.array(z.string()) });

const named = (name: string, schema: z.core.$ZodType): NamedSchema => ({ name, schema });
const nothing = { kind: 'json', body: named('Empty', z.object({})) } as const;
const json = (name: string, schema: z.core.$ZodType) => ({ kind: 'json', body: named(name, schema) }) as const;

// ---- Refusals --------------------------------------------------------------------------------------------

const ERROR_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

/** A refusal of the device API: an HTTP status and the description the SDK puts in its error. */
class DeviceApiError extends Error {
  constructor(
    readonly status: number,
    readonly description: string,
  ) {
    super(description);
  }
}

const badRequest = (description: string) => new DeviceApiError(400, description);
const deviceNotFound = () => new DeviceApiError(404, 'Device not found');

const userAgentOf = (request: FastifyRequest) => request.headers['user-agent']?.slice(0, USER_AGENT_MAX_LENGTH) ?? null;
const sdkVersionOf = (value: string | undefined) => (value === undefined ? null : value.slice(0, SDK_VERSION_MAX_LENGTH));

function checkInterest(interest: string): string {
  if (interest.length === 0 || interest.length > INTEREST_MAX_LENGTH) {
    throw badRequest(`Interest "${interest.slice(0, INTEREST_MAX_LENGTH)}" must be 1 to ${INTEREST_MAX_LENGTH} characters`);
  }
  if (!INTEREST_PATTERN.test(interest)) {
    throw badRequest(`Interest "${interest}" contains a forbidden character: allowed are ASCII letters, digits and _-=@,.`);
  }
  return interest;
}

// ---- The calls -------------------------------------------------------------------------------------------

/**
 * A request to a call: every path names the instance, a device call the device, an interest call the interest
 * (the wildcard `*`); each call reads only its own.
 */
interface CallRoute {
  Params: { instanceId: string; deviceId: string; '*': string };
  Querystring: { limit?: string; cursor?: string };
}
type CallRequest = FastifyRequest<CallRoute>;

/** What a handler works with: the host's options and the checks every call shares. */
interface CallContext {
  options: DeviceApiOptions;
  /** A 404 for any instance but the served one. */
  checkInstance(request: CallRequest): void;
  /** The device of the path, seen now; 404 for an unknown one (or one of another instance). */
  deviceOf(request: CallRequest): Promise<{ id: string }>;
  /** The body against its schema; a 400 naming the shape expected (`what`) otherwise. */
  parse<S extends z.core.$ZodType>(schema: S, request: CallRequest, what: string): z.output<S>;
}

interface DeviceApiRoute {
  call: DeviceApiCall;
  bodyLimit?: number;
  /** Counted by the registration limit instead of the per-minute one. */
  registration?: boolean;
  /**
   * The path's last parameter is read as a wildcard (`*`): Fastify cuts parameters at 100 characters, and an
   * interest may have 164 (three times that percent-encoded).
   */
  wildcard?: boolean;
  handle(context: CallContext, request: CallRequest, reply: FastifyReply): Promise<unknown>;
}

const DEVICE = `${DEVICE_API_BASE_PATH}/device_api/v1/instances/{instanceId}`;
/** The device API's group in an OpenAPI document, and what it says of all its calls. */
export const DEVICE_API_TAG = {
  name: 'Push device API (Beams)',
  description:
    'The Beams-compatible device API that `@pusher/push-notifications-web` 2.1.0 calls with `endpointOverride` `<origin>/push`. Errors are `{error, description}`, as the SDK reads them. 120 calls a minute per address.',
};
const TAG = DEVICE_API_TAG.name;

const DEVICE_API_ROUTES: readonly DeviceApiRoute[] = [
  {
    call: {
      method: 'get',
      path: `${DEVICE}/web-vapid-public-key`,
      tag: TAG,
      summary: 'VAPID public key',
      description: 'The base64url P-256 point browsers subscribe with.',
      access: 'device',
      answer: json('VapidPublicKey', z.object({ vapidPublicKey: z.string() })),
      refusal: 'device-api',
      refusals: [],
    },
    async handle({ options, checkInstance }, request) {
      checkInstance(request);
      return { vapidPublicKey: options.vapidPublicKey };
    },
  },
  {
    call: {
      method: 'post',
      path: `${DEVICE}/devices/web`,
      tag: TAG,
      summary: 'Register a browser',
      description:
        '`token` is base64 of the browser\'s `PushSubscription` JSON; its endpoint must be `https://` on a browser push service (FCM, Mozilla autopush, Apple, Windows) or a host listed in `PUSH_ALLOWED_HOSTS`, and its keys a P-256 point and a 16-byte secret; anything else → 400. 30 new devices an hour per address.',
      access: 'device',
      request: named('DeviceRegistration', deviceRegistration),
      answer: json('DeviceId', z.object({ id: z.string() })),
      refusal: 'device-api',
      refusals: [413],
    },
    bodyLimit: DEVICE_BODY_LIMIT_BYTES,
    registration: true,
    async handle({ options, checkInstance, parse }, request) {
      checkInstance(request);
      const body = parse(deviceRegistration, request, '{"token": "<base64 PushSubscription>", "metadata": {"sdkVersion": "…"}}');
      const subscription = parseDeviceToken(body.token, options.allowedHosts);
      if (isSubscriptionProblem(subscription)) throw badRequest(subscription.description);
      const id = `web-${randomUUID()}`;
      await options.store.createDevice({
        id,
        instanceId: request.params.instanceId,
        token: body.token,
        ...subscription,
        sdkVersion: sdkVersionOf(body.metadata?.sdkVersion),
        userAgent: userAgentOf(request),
        at: options.now(),
      });
      return { id };
    },
  },
  {
    call: {
      method: 'delete',
      path: `${DEVICE}/devices/web/{deviceId}`,
      tag: TAG,
      summary: 'Forget a device',
      description: 'The SDK\'s `stop()`.',
      access: 'device',
      answer: nothing,
      refusal: 'device-api',
      refusals: [],
    },
    async handle({ options, deviceOf }, request, reply) {
      const device = await deviceOf(request);
      await options.store.deleteDevice(device.id);
      return reply.code(200).send({});
    },
  },
  {
    call: {
      method: 'put',
      path: `${DEVICE}/devices/web/{deviceId}/metadata`,
      tag: TAG,
      summary: "A device's metadata",
      description: 'The SDK version (kept cut to 32 characters).',
      access: 'device',
      request: named('DeviceMetadata', deviceMetadataBody),
      answer: nothing,
      refusal: 'device-api',
      refusals: [413],
    },
    bodyLimit: REPORT_BODY_LIMIT_BYTES,
    async handle({ options, deviceOf, parse }, request) {
      const device = await deviceOf(request);
      const body = parse(deviceMetadataBody, request, '{"sdkVersion": "…"}');
      await options.store.setMetadata(device.id, sdkVersionOf(body.sdkVersion), userAgentOf(request));
      return {};
    },
  },
  {
    call: {
      method: 'get',
      path: `${DEVICE}/devices/web/{deviceId}/interests`,
      tag: TAG,
      summary: "A device's interests",
      description: '`next_cursor` is null on the last page; pass it back as `cursor`.',
      access: 'device',
      query: {
        limit: { description: 'A page of 1–1000 (default 100).', schema: z.string() },
        cursor: { description: 'The `next_cursor` of the previous page.' },
      },
      answer: json('DeviceInterests', z.object({ interests: z.array(z.string()), responseMetadata: z.object({ next_cursor: z.nullable(z.string()) }) })),
      refusal: 'device-api',
      refusals: [],
    },
    async handle({ options, deviceOf }, request) {
      const device = await deviceOf(request);
      const limitText = request.query.limit;
      const limit = limitText === undefined ? INTERESTS_PAGE_DEFAULT : Number(limitText);
      if (!Number.isInteger(limit) || limit < 1 || limit > INTERESTS_PAGE_MAX) throw badRequest(`limit must be a whole number from 1 to ${INTERESTS_PAGE_MAX}`);
      const cursor = request.query.cursor ? Buffer.from(request.query.cursor, 'base64url').toString('utf8') : null;
      // One more than asked tells whether another page follows.
      const page = await options.store.interestsPage(device.id, limit + 1, cursor);
      const interests = page.slice(0, limit);
      const last = interests.at(-1);
      const more = page.length > limit && last !== undefined;
      return { interests, responseMetadata: { next_cursor: more ? Buffer.from(last, 'utf8').toString('base64url') : null } };
    },
  },
  {
    call: {
      method: 'put',
      path: `${DEVICE}/devices/web/{deviceId}/interests`,
      tag: TAG,
      summary: "Set a device's interests",
      description: 'At most 5,000, duplicates removed; `[]` clears them.',
      access: 'device',
      request: named('DeviceInterestsBody', deviceInterestsBody),
      answer: nothing,
      refusal: 'device-api',
      refusals: [413],
    },
    async handle({ options, deviceOf, parse }, request) {
      const device = await deviceOf(request);
      const body = parse(deviceInterestsBody, request, '{"interests": ["…"]}');
      const interests = Array.from(new Set(body.interests));
      if (interests.length > INTERESTS_PER_DEVICE) throw badRequest(`Number of interests (${interests.length}) exceeds maximum of ${INTERESTS_PER_DEVICE}`);
      interests.forEach(checkInterest);
      await options.store.setInterests(device.id, interests);
      return {};
    },
  },
  {
    call: {
      method: 'post',
      path: `${DEVICE}/devices/web/{deviceId}/interests/{interest}`,
      tag: TAG,
      summary: 'Add an interest',
      description: 'The SDK\'s `addDeviceInterest`.',
      access: 'device',
      answer: nothing,
      refusal: 'device-api',
      refusals: [],
    },
    wildcard: true,
    async handle({ options, deviceOf }, request) {
      const device = await deviceOf(request);
      const interest = checkInterest(request.params['*']);
      if ((await options.store.interestCount(device.id)) >= INTERESTS_PER_DEVICE) {
        throw badRequest(`A device may have at most ${INTERESTS_PER_DEVICE} interests`);
      }
      await options.store.addInterest(device.id, interest);
      return {};
    },
  },
  {
    call: {
      method: 'delete',
      path: `${DEVICE}/devices/web/{deviceId}/interests/{interest}`,
      tag: TAG,
      summary: 'Remove an interest',
      description: 'The SDK\'s `removeDeviceInterest`.',
      access: 'device',
      answer: nothing,
      refusal: 'device-api',
      refusals: [],
    },
    wildcard: true,
    async handle({ options, deviceOf }, request) {
      const device = await deviceOf(request);
      await options.store.removeInterest(device.id, checkInterest(request.params['*']));
      return {};
    },
  },
  {
    call: {
      method: 'put',
      path: `${DEVICE}/devices/web/{deviceId}/user`,
      tag: TAG,
      summary: 'Bind a device to its user',
      description:
        'With `Authorization: Bearer <beams JWT>` (GET /api/push/beams-auth/): the device now belongs to the JWT\'s user, and to its session (`sid`) until that session ends. A bad signature, an expired token, another issuer, an unknown user, a token issued before a password reset or two-factor change, or one whose session has ended (signed out, idle) → 401; a device bound to another user → 409.',
      access: 'device',
      credential: 'beamsToken',
      answer: nothing,
      refusal: 'device-api',
      refusals: [401, 409],
    },
    async handle({ options, deviceOf }, request) {
      const device = await deviceOf(request);
      const match = /^Bearer\s+(\S{1,2048})\s*$/i.exec(request.headers.authorization ?? '');
      const claims = match?.[1] ? await options.verifyToken(match[1]) : undefined;
      const outcome = claims === undefined ? 'refused' : await options.store.bindUser(device.id, claims, options.now());
      if (outcome === 'refused') throw new DeviceApiError(401, 'The Beams token is missing, expired or not valid for this instance');
      // A token whose session ended since (signed out, everywhere else, idle) binds nothing: the device would outlive it.
      if (outcome === 'ended') throw new DeviceApiError(401, 'The session this Beams token was issued to has ended; sign in again');
      if (outcome === 'taken') throw new DeviceApiError(409, 'This device belongs to another user; stop and start again to register it anew');
      return {};
    },
  },
  // The service worker's delivery and open reports (docs/pusher-and-beams.md "Service worker"): it ignores the answer; nothing keeps them.
  {
    call: {
      method: 'post',
      path: `${DEVICE_API_BASE_PATH}/reporting_api/v2/instances/{instanceId}/events`,
      tag: TAG,
      summary: 'Delivery reports',
      description: "The service worker's delivery and open reports: 204; they are not kept.",
      access: 'device',
      request: { ...named('ReportingEvent', z.looseObject({})), optional: true },
      answer: { kind: 'empty', status: 204 },
      refusal: 'device-api',
      refusals: [413],
    },
    bodyLimit: REPORT_BODY_LIMIT_BYTES,
    async handle({ checkInstance }, request, reply) {
      checkInstance(request);
      return reply.code(204).send();
    },
  },
];

/** Every call of the device API, as an OpenAPI catalogue lists it (server/src/openapi/catalogue.ts spreads it). */
export const deviceApiCalls: readonly DeviceApiCall[] = DEVICE_API_ROUTES.map((route) => route.call);

/**
 * A call's path as Fastify routes it under DEVICE_API_BASE_PATH: `{name}` becomes `:name`, or `*` for the last
 * parameter of a wildcard route.
 */
function routeUrlOf(path: string, wildcard: boolean): string {
  if (!path.startsWith(`${DEVICE_API_BASE_PATH}/`)) throw new Error(`${path} is not under ${DEVICE_API_BASE_PATH}`);
  const url = path.slice(DEVICE_API_BASE_PATH.length);
  return (wildcard ? url.replace(/\{[^}]+\}$/, '*') : url).replace(/\{([^}]+)\}/g, ':$1');
}

/**
 * The device API as an encapsulated Fastify plugin: register it at the root; its calls are under
 * DEVICE_API_BASE_PATH, with their own error and not-found answers in the SDK's shape.
 */
export function createDeviceApi(options: DeviceApiOptions): FastifyPluginAsync {
  const checkInstance = (request: CallRequest) => {
    if (request.params.instanceId !== options.instanceId) throw new DeviceApiError(404, 'Instance not found');
  };
  const context: CallContext = {
    options,
    checkInstance,
    async deviceOf(request) {
      checkInstance(request);
      const { instanceId, deviceId } = request.params;
      // No device id holds U+0000, and a store may not compare text holding it (PostgreSQL: a `%00` id was a 500).
      if (deviceId.includes('\u0000')) throw deviceNotFound();
      const device = await options.store.touchDevice(instanceId, deviceId, options.now());
      if (!device) throw deviceNotFound();
      return device;
    },
    parse(schema, request, what) {
      const badText = options.badText?.(request.body);
      if (badText) throw badRequest(badText);
      const parsed = z.safeParse(schema, request.body);
      if (!parsed.success) throw badRequest(`The body must be ${what}`);
      return parsed.data;
    },
  };

  const routes: FastifyPluginAsync = async (app) => {
    app.setErrorHandler((error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => {
      let status = 500;
      let description = 'Something went wrong on the server';
      const refusal = error instanceof DeviceApiError ? error : options.refusalOf?.(error);
      if (refusal) ({ status, description } = refusal);
      else if ((error as FastifyError).code === 'FST_ERR_CTP_BODY_TOO_LARGE') ({ status, description } = { status: 413, description: 'The body is too large' });
      else if ((error as FastifyError).statusCode === 400 || (error as FastifyError).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
        ({ status, description } = { status: 400, description: 'The body must be JSON' });
      else request.log.error({ err: error }, 'unhandled error in the push device API');
      return reply.code(status).send({ error: ERROR_NAMES[status] ?? 'Error', description } satisfies z.output<typeof deviceApiErrorBody>);
    });
    app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'Not Found', description: 'No such call' }));
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });
    const callsLimit = options.rateLimit({ kind: 'calls', max: DEVICE_API_CALLS_PER_MINUTE, timeWindowMs: MINUTE_MS });
    const registrationLimit = options.rateLimit({ kind: 'registrations', max: DEVICE_REGISTRATIONS_PER_HOUR, timeWindowMs: HOUR_MS });
    // @fastify/rate-limit runs one limit per request (the first hook marks it done), so a registration is
    // counted by its own, tighter limit instead of the per-minute one.
    app.addHook('onRequest', async function limit(request, reply) {
      const isRegistration = request.routeOptions.config?.deviceRegistration === true;
      return (isRegistration ? registrationLimit : callsLimit).call(this, request, reply);
    });

    for (const route of DEVICE_API_ROUTES) {
      app.route<CallRoute>({
        method: route.call.method.toUpperCase() as Uppercase<DeviceApiCall['method']>,
        url: routeUrlOf(route.call.path, route.wildcard === true),
        ...(route.bodyLimit === undefined ? {} : { bodyLimit: route.bodyLimit }),
        ...(route.registration ? { config: { deviceRegistration: true } } : {}),
        handler: (request, reply) => route.handle(context, request, reply),
      });
    }
  };

  return async (app) => {
    await app.register(routes, { prefix: DEVICE_API_BASE_PATH });
  };
}
