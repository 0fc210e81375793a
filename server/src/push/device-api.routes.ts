import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { z } from 'zod/mini';
import { INTEREST_MAX_LENGTH, INTEREST_PATTERN, INTERESTS_PER_DEVICE } from '../../../contracts/notifications.ts';
import { statusOf } from '../infra/http/errors.ts';
import { badTextSentence } from '../infra/http/parse-body.ts';
import { clientAddress } from '../infra/http/client-address.ts';
import { BUILT_IN_PUSH_INSTANCE } from './instance.ts';
import { isSubscriptionProblem, parseDeviceToken } from '../../../packages/push-service/index.ts';
import { idleLimitOf } from '../accounts/sessions.plugin.ts';
import { pushRepository } from './push.repository.ts';
import { Refusal } from '../refusals.ts';
import { refuse } from '../sentences.ts';

/**
 * The built-in Beams-compatible device API (docs/pusher-and-beams.md "Device calls"), under `/push/device_api/v1/instances/{id}`,
 * and the service worker's reporting API. It speaks what @pusher/push-notifications-web expects: plain JSON
 * answers, and errors as `{error, description}` (the SDK throws "Unexpected status code N: error,
 * description"), not the product's envelope.
 *
 * It needs no session: a browser registers before anyone signs in on it, and a device is bound to a user
 * only with a Beams token (PUT …/user). Because devices cost nothing to create, every call is limited per
 * client address (DEVICE_API_CALLS_PER_MINUTE), registrations more tightly (DEVICE_REGISTRATIONS_PER_HOUR),
 * bodies are small (a device: DEVICE_BODY_LIMIT_BYTES; interests: the app's 64 KiB), a device holds at most
 * INTERESTS_PER_DEVICE interests, and a device no user claimed is forgotten a day after its last call
 * (packages/push-service/worker.ts). So one address adds at most DEVICE_REGISTRATIONS_PER_HOUR devices an hour, each with a
 * bounded set of interests, and those are gone a day later.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The device API's registration route: counted by DEVICE_REGISTRATIONS_PER_HOUR. */
    deviceRegistration?: boolean;
  }
}

/** Every call of the device API, per client address and minute: a page calls it a few times per start. */
export const DEVICE_API_CALLS_PER_MINUTE = 120;
/** New devices per client address and hour: a browser registers again only when its subscription changes. */
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

const registration = z.object({
  token: z.string().check(z.minLength(1), z.maxLength(TOKEN_MAX_LENGTH)),
  metadata: z.optional(z.object({ sdkVersion: z.optional(z.string()) })),
});
const metadataBody = z.object({ sdkVersion: z.optional(z.string()) });
const interestsBody = z.object({ interests: z.array(z.string()) });

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

function parse<S extends z.core.$ZodType>(schema: S, body: unknown, what: string): z.output<S> {
  // PostgreSQL text cannot hold U+0000 (an sdkVersion holding one was a 500) or a lone surrogate; refused by name, as everywhere.
  const badText = badTextSentence(body);
  if (badText) throw badRequest(badText);
  const parsed = z.safeParse(schema, body);
  if (!parsed.success) throw badRequest(`The body must be ${what}`);
  return parsed.data;
}

export default async function deviceApiRoutes(app: FastifyInstance) {
  const repository = pushRepository(app.db);

  app.setErrorHandler((error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => {
    let status = 500;
    let description = 'Something went wrong on the server';
    if (error instanceof DeviceApiError) ({ status, description } = error);
    else if (error instanceof Refusal) ({ status, description } = { status: statusOf(error), description: error.sentence });
    else if ((error as FastifyError).code === 'FST_ERR_CTP_BODY_TOO_LARGE') ({ status, description } = { status: 413, description: 'The body is too large' });
    else if ((error as FastifyError).statusCode === 400 || (error as FastifyError).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      ({ status, description } = { status: 400, description: 'The body must be JSON' });
    else request.log.error({ err: error }, 'unhandled error in the push device API');
    return reply.code(status).send({ error: ERROR_NAMES[status] ?? 'Error', description });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'Not Found', description: 'No such call' }));
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const callsLimit = app.rateLimit({
    max: DEVICE_API_CALLS_PER_MINUTE,
    timeWindow: MINUTE_MS,
    keyGenerator: (request) => `push-device-api:${clientAddress(request)}`,
    errorResponseBuilder: () => refuse.deviceApiTooManyRequests(),
  });
  const registrationLimit = app.rateLimit({
    max: DEVICE_REGISTRATIONS_PER_HOUR,
    timeWindow: HOUR_MS,
    keyGenerator: (request) => `push-device-registration:${clientAddress(request)}`,
    errorResponseBuilder: () => refuse.deviceApiTooManyDevices(),
  });
  // @fastify/rate-limit runs one limit per request (the first hook marks it done), so a registration is
  // counted by its own, tighter limit instead of the per-minute one.
  app.addHook('onRequest', async function limit(request, reply) {
    const isRegistration = request.routeOptions.config?.deviceRegistration === true;
    return (isRegistration ? registrationLimit : callsLimit).call(this, request, reply);
  });

  const instancePrefix = '/device_api/v1/instances/:instanceId';
  type InstanceParams = { instanceId: string };
  type DeviceParams = InstanceParams & { deviceId: string };

  const checkInstance = (instanceId: string) => {
    if (instanceId !== BUILT_IN_PUSH_INSTANCE) throw new DeviceApiError(404, 'Instance not found');
  };
  /** The device of the path, seen now; 404 for an unknown one (or one of another instance). */
  const deviceOf = async (params: DeviceParams) => {
    checkInstance(params.instanceId);
    // No device id holds U+0000, and PostgreSQL cannot compare text holding it (a `%00` id was a 500).
    if (params.deviceId.includes('\u0000')) throw deviceNotFound();
    const device = await repository.touchDevice(params.instanceId, params.deviceId, app.now());
    if (!device) throw deviceNotFound();
    return device;
  };

  app.get<{ Params: InstanceParams }>(`${instancePrefix}/web-vapid-public-key`, async (request) => {
    checkInstance(request.params.instanceId);
    return { vapidPublicKey: app.push.vapid?.publicKey };
  });

  app.post<{ Params: InstanceParams }>(
    `${instancePrefix}/devices/web`,
    { bodyLimit: DEVICE_BODY_LIMIT_BYTES, config: { deviceRegistration: true } },
    async (request) => {
      checkInstance(request.params.instanceId);
      const body = parse(registration, request.body, '{"token": "<base64 PushSubscription>", "metadata": {"sdkVersion": "…"}}');
      const subscription = parseDeviceToken(body.token, app.config.push.allowedHosts);
      if (isSubscriptionProblem(subscription)) throw badRequest(subscription.description);
      const id = `web-${randomUUID()}`;
      await repository.createDevice({
        id,
        instanceId: request.params.instanceId,
        token: body.token,
        ...subscription,
        sdkVersion: sdkVersionOf(body.metadata?.sdkVersion),
        userAgent: userAgentOf(request),
        at: app.now(),
      });
      return { id };
    },
  );

  app.delete<{ Params: DeviceParams }>(`${instancePrefix}/devices/web/:deviceId`, async (request, reply) => {
    const device = await deviceOf(request.params);
    await repository.deleteDevice(device.id);
    return reply.code(200).send({});
  });

  app.put<{ Params: DeviceParams }>(`${instancePrefix}/devices/web/:deviceId/metadata`, { bodyLimit: REPORT_BODY_LIMIT_BYTES }, async (request) => {
    const device = await deviceOf(request.params);
    const body = parse(metadataBody, request.body, '{"sdkVersion": "…"}');
    await repository.setMetadata(device.id, sdkVersionOf(body.sdkVersion), userAgentOf(request));
    return {};
  });

  app.post<{ Params: DeviceParams & { '*': string } }>(`${instancePrefix}/devices/web/:deviceId/interests/*`, async (request) => {
    const device = await deviceOf(request.params);
    // A wildcard, not a parameter: Fastify cuts parameters at 100 characters, and an interest may have 164
    // (three times that percent-encoded).
    const interest = checkInterest(request.params['*']);
    if ((await repository.interestCount(device.id)) >= INTERESTS_PER_DEVICE) {
      throw badRequest(`A device may have at most ${INTERESTS_PER_DEVICE} interests`);
    }
    await repository.addInterest(device.id, interest);
    return {};
  });

  app.delete<{ Params: DeviceParams & { '*': string } }>(`${instancePrefix}/devices/web/:deviceId/interests/*`, async (request) => {
    const device = await deviceOf(request.params);
    await repository.removeInterest(device.id, checkInterest(request.params['*']));
    return {};
  });

  app.get<{ Params: DeviceParams; Querystring: { limit?: string; cursor?: string } }>(
    `${instancePrefix}/devices/web/:deviceId/interests`,
    async (request) => {
      const device = await deviceOf(request.params);
      const limitText = request.query.limit;
      const limit = limitText === undefined ? INTERESTS_PAGE_DEFAULT : Number(limitText);
      if (!Number.isInteger(limit) || limit < 1 || limit > INTERESTS_PAGE_MAX) throw badRequest(`limit must be a whole number from 1 to ${INTERESTS_PAGE_MAX}`);
      const cursor = request.query.cursor ? Buffer.from(request.query.cursor, 'base64url').toString('utf8') : null;
      // One more than asked tells whether another page follows.
      const page = await repository.interestsPage(device.id, limit + 1, cursor);
      const interests = page.slice(0, limit);
      const last = interests.at(-1);
      const more = page.length > limit && last !== undefined;
      return { interests, responseMetadata: { next_cursor: more ? Buffer.from(last, 'utf8').toString('base64url') : null } };
    },
  );

  app.put<{ Params: DeviceParams }>(`${instancePrefix}/devices/web/:deviceId/interests`, async (request) => {
    const device = await deviceOf(request.params);
    const body = parse(interestsBody, request.body, '{"interests": ["…"]}');
    const interests = Array.from(new Set(body.interests));
    if (interests.length > INTERESTS_PER_DEVICE) throw badRequest(`Number of interests (${interests.length}) exceeds maximum of ${INTERESTS_PER_DEVICE}`);
    interests.forEach(checkInterest);
    await repository.setInterests(device.id, interests);
    return {};
  });

  app.put<{ Params: DeviceParams }>(`${instancePrefix}/devices/web/:deviceId/user`, async (request) => {
    const device = await deviceOf(request.params);
    const match = /^Bearer\s+(\S{1,2048})\s*$/i.exec(request.headers.authorization ?? '');
    const claims = match?.[1] ? await app.push.tokens.verifyIssued(match[1]) : undefined;
    // A token issued before the user's password reset (or two-factor change) binds nothing: it may be the ended session's.
    const userId = claims === undefined ? undefined : await repository.bindableUserId(claims.username, claims.issuedAt);
    if (!claims || !userId) throw new DeviceApiError(401, 'The Beams token is missing, expired or not valid for this instance');
    // Nor does one whose session ended since (signed out, everywhere else, idle): the device would outlive it.
    const idleBefore = idleLimitOf(app.now(), app.config.sessionIdleDays);
    const outcome = await repository.bindToSession(device.id, userId, claims.sessionId, idleBefore);
    if (outcome === 'ended') throw new DeviceApiError(401, 'The session this Beams token was issued to has ended; sign in again');
    if (outcome === 'taken') throw new DeviceApiError(409, 'This device belongs to another user; stop and start again to register it anew');
    return {};
  });

  // The service worker's delivery and open reports (docs/pusher-and-beams.md "Service worker"): it ignores the answer; nothing keeps them.
  app.post<{ Params: InstanceParams }>('/reporting_api/v2/instances/:instanceId/events', { bodyLimit: REPORT_BODY_LIMIT_BYTES }, async (request, reply) => {
    checkInstance(request.params.instanceId);
    return reply.code(204).send();
  });
}

/** The request schemas, for the hostile-input table (tests/server/hostile-input.test.ts), which fuzzes each call's own. */
export { registration as deviceRegistration, metadataBody as deviceMetadataBody, interestsBody as deviceInterestsBody };
