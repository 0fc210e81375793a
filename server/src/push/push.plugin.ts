import { randomUUID } from 'node:crypto';
import type { Agent } from 'node:https';
import { PUSH_USER_ID_MAX_LENGTH } from '../../../contracts/notifications.ts';
import { beamsTokens, loadVapidKeys, type BeamsTokens, type VapidKeys } from './keys.ts';
import { BUILT_IN_PUSH_INSTANCE } from './instance.ts';
import {
  INTEREST_MAX_LENGTH,
  INTEREST_PATTERN,
  pushWorker,
  type DeviceApiOptions,
  type PushDeviceStore,
  type PushRoundReport,
} from '../../../packages/push-service/index.ts';
import { pushDeviceStore, pushRepository, pushStore, type BeamsWeb, type PushUrgency } from './push.repository.ts';
import type { FastifyInstance } from 'fastify';
import { statusOf } from '../infra/http/errors.ts';
import { clientAddress } from '../infra/http/client-address.ts';
import { badTextSentence } from '../infra/http/parse-body.ts';
import { oneAtATime, type JobSpec } from '../infra/jobs.ts';
import { shared } from '../infra/shared.ts';
import { Refusal } from '../refusals.ts';
import { refuse } from '../sentences.ts';

/** Web push: the device API's keys and tokens, and the worker that empties the push outbox. */
export interface PushService {
  /** The Beams instance browsers register with: the built-in one, or BEAMS_INSTANCE_ID. */
  readonly instanceId: string;
  /** Whether hosted Beams delivers (BEAMS_INSTANCE_ID): then this server has no device API. */
  readonly hosted: boolean;
  /** The VAPID pair of the built-in device API; undefined with hosted Beams, whose pair is Pusher's. */
  readonly vapid: VapidKeys | undefined;
  /** The Beams tokens that bind a device to a user (GET /api/push/beams-auth/, PUT …/user). */
  readonly tokens: BeamsTokens;
  /** Where the device API keeps devices and their interests (deviceApiOptions). */
  readonly devices: PushDeviceStore;
  /** Asks the delivery worker for a round soon: a producer just committed an outbox row. */
  kick(): void;
  /** Runs rounds until nothing is due now (tests; a slow push service makes it as slow). */
  drain(): Promise<PushRoundReport>;
  /** One worker round now, or the running one's answer (one at a time per process). */
  round(): Promise<PushRoundReport>;
  /** Waits for a running round. */
  stop(): Promise<void>;
  /** The outbox rows not delivered yet, every process's (GET /metrics): publishes to expand, deliveries to send. */
  queueDepth(): Promise<{ publishes: number; deliveries: number }>;
  /**
   * Queues a web push to users (usernames) and/or interests, for server code with no notification row of
   * its own (an announcement to "general"). Answers the publish id.
   */
  publish(target: { users?: readonly string[]; interests?: readonly string[] }, web: BeamsWeb, options?: { urgency?: PushUrgency }): Promise<string>;
}

declare module 'fastify' {
  interface FastifyInstance {
    push: PushService;
  }
}

export interface PushPluginOptions extends Record<string, unknown> {
  /** Run the worker's timer and kicks (pushWorkerJob). Default: on, except with NODE_ENV=test, where tests call `drain()`. */
  worker?: boolean;
  /** Test-only: the HTTPS agent web-push sends with (one trusting a test CA). */
  agent?: Agent;
  /** Test-only: where the hosted Beams SDK publishes (plain HTTP, docs/pusher-and-beams.md "Publish API") instead of Pusher. */
  beamsEndpoint?: { host: string; port: number };
}

/** How soon a kick runs its round: the kicks of a burst of notifications share one. */
export const KICK_DELAY_MS = 50;
/** While rounds find work, the next follows this soon; when idle, retries and other processes' rows are looked for this often. */
const BUSY_INTERVAL_MS = 1_000;
const IDLE_INTERVAL_MS = 5_000;

/** Beams' limits of one publish (docs/pusher-and-beams.md "Interest and user limits"). */
const PUBLISH_MAX_USERS = 1000;
const PUBLISH_MAX_INTERESTS = 100;

const isBusy = (report: PushRoundReport) => Object.values(report).some((count) => count > 0);

/** The job that runs the delivery worker's rounds (pushWorkerJob). */
export const PUSH_WORKER_JOB = 'web push worker';

/** Tier 3: after realtime and before notifications, whose `announce` kicks the worker. */
export const pushPlugin = shared<PushPluginOptions>('peerex-push', async (app, options) => {
  const { config } = app;
  const hosted = config.push.beams;
  const vapid = hosted ? undefined : await loadVapidKeys(config);
  const tokens = beamsTokens(config, app.now);
  const repository = pushRepository(app.db);
  const worker = pushWorker({
    store: pushStore(repository),
    now: app.now,
    log: app.log,
    publicUrl: config.publicUrl,
    delivery:
      hosted || !vapid
        ? { kind: 'beams', instanceId: hosted?.instanceId ?? '', secretKey: hosted?.secretKey ?? '', endpoint: options.beamsEndpoint }
        : { kind: 'built-in', instanceId: BUILT_IN_PUSH_INSTANCE, vapid, agent: options.agent },
  });

  /** One round at a time per process; a caller while one runs gets that one's answer and asks again if it must. */
  const rounds = oneAtATime(() => worker.round());
  const round = rounds.run;

  const kick = () => app.jobs.kick(PUSH_WORKER_JOB, KICK_DELAY_MS);
  const stop = async () => {
    await Promise.allSettled([rounds.current()]);
  };

  app.decorate('push', {
    instanceId: tokens.instanceId,
    hosted: hosted !== undefined,
    vapid,
    tokens,
    devices: pushDeviceStore(repository, config.sessionIdleDays),
    kick,
    round,
    async drain() {
      const total: PushRoundReport = { published: 0, delivered: 0, gone: 0, retried: 0, dropped: 0 };
      // A round already running may have claimed rows this one cannot see; wait for it first.
      await rounds.current()?.catch(() => undefined);
      while (await worker.anythingDue()) {
        const report = await round();
        for (const key of Object.keys(total) as (keyof PushRoundReport)[]) total[key] += report[key];
        if (!isBusy(report)) break;
      }
      return total;
    },
    stop,
    queueDepth: () => repository.queueDepth(),
    async publish(target, web, publishOptions = {}) {
      const users = [...(target.users ?? [])];
      const interests = [...(target.interests ?? [])];
      if (users.length === 0 && interests.length === 0) throw new Error('a web push needs at least one user or interest');
      // Hosted Beams refuses bigger publishes (docs/pusher-and-beams.md "Interest and user limits"); the built-in service keeps the same rules.
      if (users.length > PUBLISH_MAX_USERS || interests.length > PUBLISH_MAX_INTERESTS) {
        throw new Error(`a web push goes to at most ${PUBLISH_MAX_USERS} users and ${PUBLISH_MAX_INTERESTS} interests`);
      }
      if (users.some((user) => user === '' || user.length > PUSH_USER_ID_MAX_LENGTH)) throw new Error('a web push user id is empty or too long');
      if (interests.some((interest) => interest.length > INTEREST_MAX_LENGTH || !INTEREST_PATTERN.test(interest))) {
        throw new Error('a web push interest is not a valid interest name');
      }
      const publishId = `publish-${randomUUID()}`;
      await repository.insertPublish({ publishId, users, interests, web, urgency: publishOptions.urgency ?? 'normal', at: app.now() });
      kick();
      return publishId;
    },
  } satisfies PushService);

  app.log.info({ source: hosted ? `hosted Beams instance ${hosted.instanceId}` : vapid?.source }, 'web push ready');

  // preClose runs after the jobs' (infra/jobs.ts) and before the database plugin's onClose, so no round ever
  // meets a closed database.
  app.addHook('preClose', stop);
});

/**
 * The delivery worker's rounds: soon after a kick, every second while rounds find work, every five when idle
 * (retries, and rows other processes queued). `on` false (tests, by default): only `drain()`. app.ts lists it.
 */
export const pushWorkerJob = (app: FastifyInstance, on: boolean): JobSpec<PushRoundReport> => ({
  name: PUSH_WORKER_JOB,
  everyMs: (last) => (!on ? 0 : last && isBusy(last) ? BUSY_INTERVAL_MS : IDLE_INTERVAL_MS),
  tick: () => app.push.round(),
  report(report, log) {
    if (isBusy(report)) log.info(report, 'push worker round');
  },
});

/**
 * What the built-in device API (packages/push-service/device-api.ts) takes from this server: `app.push`'s store,
 * keys and tokens, the clock, and rate limits per client address (clientAddress) that refuse with this server's
 * refusals (`push.device_api_*`), worded in the SDK's shape. app.ts registers it unless hosted Beams serves devices.
 */
export const deviceApiOptions = (app: FastifyInstance): DeviceApiOptions => ({
  store: app.push.devices,
  instanceId: BUILT_IN_PUSH_INSTANCE,
  vapidPublicKey: app.push.vapid?.publicKey,
  allowedHosts: app.config.push.allowedHosts,
  now: app.now,
  verifyToken: (token) => app.push.tokens.verifyIssued(token),
  rateLimit: ({ kind, max, timeWindowMs }) =>
    app.rateLimit({
      max,
      timeWindow: timeWindowMs,
      keyGenerator: (request) => `${kind === 'calls' ? 'push-device-api' : 'push-device-registration'}:${clientAddress(request)}`,
      errorResponseBuilder: () => (kind === 'calls' ? refuse.deviceApiTooManyRequests() : refuse.deviceApiTooManyDevices()),
    }),
  refusalOf: (error) => (error instanceof Refusal ? { status: statusOf(error), description: error.sentence } : undefined),
  // PostgreSQL text cannot hold U+0000 (an sdkVersion holding one was a 500) or a lone surrogate; refused by name, as everywhere.
  badText: badTextSentence,
});
