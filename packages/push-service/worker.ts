import PushNotifications from '@pusher/push-notifications-server';
import type { Agent } from 'node:https';
import webpush, { WebPushError } from 'web-push';
import { pushPayload, ttlOf, withAbsoluteLink } from './payload.ts';
import type { ClaimedDelivery, ClaimedPublish, PushStore } from './store.ts';

/** The VAPID pair the built-in delivery signs with, and the contact (`mailto:` or `https:`) push services see. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/** Where the worker writes what it drops and retries (a pino or Fastify logger fits). */
export interface PushLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** What one round did, for the logs and the tests. */
export interface PushRoundReport {
  /** Publishes turned into deliveries (built-in) or handed to hosted Beams. */
  published: number;
  /** Deliveries the push services took (2xx). */
  delivered: number;
  /** Devices removed because their push service said the subscription is gone (404/410). */
  gone: number;
  /** Deliveries or publishes put back for a later attempt. */
  retried: number;
  /** Deliveries or publishes given up (refused as bad, or out of attempts), each with a log line. */
  dropped: number;
}

/** How the worker hands publishes on: the built-in device API's subscriptions, or hosted Beams. */
export type PushDelivery =
  | { kind: 'built-in'; instanceId: string; vapid: VapidKeys; agent: Agent | undefined }
  | { kind: 'beams'; instanceId: string; secretKey: string; endpoint: { host: string; port: number } | undefined };

export interface PushWorkerOptions {
  store: PushStore;
  now: () => Date;
  log: PushLog;
  publicUrl: string;
  delivery: PushDelivery;
}

/**
 * A claimed row stays invisible to other rounds this long: longer than any send of a round (each bounded by
 * SEND_TIMEOUT_MS), so a row is sent once unless its process died, after which the next round takes it.
 */
export const LEASE_MS = 120_000;
/** web-push's socket timeout: a push service that does not answer within it counts as a failed attempt. */
export const SEND_TIMEOUT_MS = 15_000;
/** `work`, or a rejection once `ms` have passed without its answer. */
function withinTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The latest a claimed delivery's send may start: one send's timeout, with as much again to spare, before the lease ends. */
const SEND_START_DEADLINE_MS = LEASE_MS - 2 * SEND_TIMEOUT_MS;
/** Rows claimed per round, and sends in flight at once per process. */
const PUBLISHES_PER_ROUND = 20;
const DELIVERIES_PER_ROUND = 100;
const SEND_CONCURRENCY = 8;
/** Retries: 5 s, 10 s, 20 s … capped at an hour, given up after this many attempts (about a day in all). */
const FIRST_RETRY_MS = 5_000;
const MAX_RETRY_MS = 3_600_000;
export const MAX_ATTEMPTS = 30;
/** A 429 without a usable Retry-After waits this long. */
const DEFAULT_RETRY_AFTER_MS = 60_000;
/** Devices nobody bound to a user are forgotten this long after their last call (the device API is open to anyone). */
export const UNBOUND_DEVICE_LIFETIME_MS = 24 * 3_600_000;
const PURGE_BATCH = 500;
/** Unbound devices expire by the day: looking for them once a minute is plenty, not on every busy round. */
export const PURGE_INTERVAL_MS = 60_000;

export const backoffMs = (attempts: number) => Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);

/** Retry-After in seconds or as an HTTP date (RFC 9110 10.2.3). */
function retryAfterMs(header: string | string[] | undefined, now: Date): number {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return DEFAULT_RETRY_AFTER_MS;
  if (/^\d+$/.test(value.trim())) return Math.min(Number(value.trim()) * 1000, MAX_RETRY_MS);
  const at = Date.parse(value);
  return Number.isNaN(at) ? DEFAULT_RETRY_AFTER_MS : Math.min(Math.max(0, at - now.getTime()), MAX_RETRY_MS);
}

/** Runs `work` over `items` with at most `limit` at once. */
async function eachBounded<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++];
      if (item !== undefined) await work(item);
    }
  });
  await Promise.all(lanes);
}

const emptyReport = (): PushRoundReport => ({ published: 0, delivered: 0, gone: 0, retried: 0, dropped: 0 });

/**
 * The push worker: empties the outbox (push_publishes) that producers write with their events, and sends
 * the deliveries. A round never holds a transaction across an HTTP call (PGlite is one connection, and a
 * slow push service must not hold rows locked): it claims rows with a lease in one statement, works on
 * them, then settles each in another. Several processes may run rounds at once (SKIP LOCKED).
 */
export function pushWorker({ store: repository, now, log, publicUrl, delivery }: PushWorkerOptions) {
  const beams =
    delivery.kind === 'beams'
      ? new PushNotifications({
          instanceId: delivery.instanceId,
          secretKey: delivery.secretKey,
          ...(delivery.endpoint ? { endpoint: delivery.endpoint.host, port: delivery.endpoint.port } : {}),
        } as PushNotifications.Options)
      : undefined;

  const later = (attempts: number) => new Date(now().getTime() + backoffMs(attempts));

  async function handToBeams(publish: ClaimedPublish, report: PushRoundReport) {
    if (!beams) return;
    const body = { web: withAbsoluteLink(publish.web, publicUrl) } as PushNotifications.PublishRequest;
    try {
      // The Beams SDK sets no timeout: a Beams that accepts and never answers would hold this round, and every
      // push of this process, for good. Given up on, the publish is retried like any failure.
      if (publish.users.length > 0) await withinTimeout(beams.publishToUsers(publish.users, body), SEND_TIMEOUT_MS);
      if (publish.interests.length > 0) await withinTimeout(beams.publishToInterests(publish.interests, body), SEND_TIMEOUT_MS);
      await repository.deletePublish(publish.id);
      report.published += 1;
    } catch (error) {
      if (publish.attempts >= MAX_ATTEMPTS) {
        log.error({ err: error, publishId: publish.publish_id, attempts: publish.attempts }, 'web push dropped: hosted Beams kept refusing it');
        await repository.deletePublish(publish.id);
        report.dropped += 1;
        return;
      }
      log.warn({ err: error, publishId: publish.publish_id, attempts: publish.attempts }, 'hosted Beams publish failed; retrying later');
      await repository.retryPublishAt(publish.id, later(publish.attempts));
      report.retried += 1;
    }
  }

  async function expand(publish: ClaimedPublish, report: PushRoundReport) {
    if (delivery.kind !== 'built-in') return;
    const payload = pushPayload(publish.web, { instanceId: delivery.instanceId, publishId: publish.publish_id, publicUrl });
    if (!payload) {
      log.error({ publishId: publish.publish_id }, 'web push dropped: its data does not fit in a push message');
      await repository.deletePublish(publish.id);
      report.dropped += 1;
      return;
    }
    await repository.expandPublish(
      { id: publish.id, instanceId: delivery.instanceId, users: publish.users, interests: publish.interests },
      { payload, ttlSeconds: ttlOf(publish.web), urgency: publish.urgency, at: now() },
    );
    report.published += 1;
  }

  async function send(item: ClaimedDelivery, report: PushRoundReport) {
    if (delivery.kind !== 'built-in') return;
    try {
      await webpush.sendNotification({ endpoint: item.endpoint, keys: { p256dh: item.p256dh, auth: item.auth } }, JSON.stringify(item.payload), {
        TTL: item.ttl_seconds,
        urgency: item.urgency,
        contentEncoding: 'aes128gcm',
        timeout: SEND_TIMEOUT_MS,
        vapidDetails: { subject: delivery.vapid.subject, publicKey: delivery.vapid.publicKey, privateKey: delivery.vapid.privateKey },
        ...(delivery.agent ? { agent: delivery.agent } : {}),
      });
      await repository.deleteDelivery(item.id);
      report.delivered += 1;
    } catch (error) {
      const status = error instanceof WebPushError ? error.statusCode : undefined;
      const where = { deliveryId: item.id, deviceId: item.device_id, host: new URL(item.endpoint).host, status, attempts: item.attempts };
      if (status === 404 || status === 410) {
        // The browser unsubscribed or the subscription expired: the device is of no more use.
        await repository.deleteDevice(item.device_id);
        report.gone += 1;
        return;
      }
      if (status === 400 || status === 403 || status === 413) {
        // A malformed request, a VAPID key the subscription is not bound to, a payload too big: sending
        // the same again cannot succeed.
        log.error({ ...where, body: error instanceof WebPushError ? error.body.slice(0, 200) : undefined }, 'web push dropped: the push service refused it');
        await repository.deleteDelivery(item.id);
        report.dropped += 1;
        return;
      }
      if (item.attempts >= MAX_ATTEMPTS) {
        log.error({ ...where, err: error }, 'web push dropped: out of attempts');
        await repository.deleteDelivery(item.id);
        report.dropped += 1;
        return;
      }
      const waitMs = status === 429 && error instanceof WebPushError ? retryAfterMs(error.headers['retry-after'], now()) : backoffMs(item.attempts);
      log.warn({ ...where, retryInMs: waitMs }, 'web push failed; retrying later');
      await repository.retryDeliveryAt(item.id, new Date(now().getTime() + waitMs), status ? `HTTP ${status}` : String((error as Error).message ?? error).slice(0, 200));
      report.retried += 1;
    }
  }

  let nextPurgeAt = 0;

  return {
    /** One round: hand on due publishes, then send due deliveries (and, once a minute, expire unbound devices). */
    async round(): Promise<PushRoundReport> {
      const report = emptyReport();
      const publishes = await repository.claimPublishes(now(), LEASE_MS, PUBLISHES_PER_ROUND);
      const publishesClaimedAt = now().getTime();
      for (const publish of publishes) {
        if (delivery.kind === 'beams') {
          // One after another, each up to SEND_TIMEOUT_MS: past the deadline the rest wait for their lease to end.
          if (now().getTime() - publishesClaimedAt > SEND_START_DEADLINE_MS) {
            report.retried += 1;
            continue;
          }
          await handToBeams(publish, report);
        } else await expand(publish, report);
      }
      if (delivery.kind === 'built-in') {
        const claimedAt = now().getTime();
        const due = await repository.claimDeliveries(new Date(claimedAt), LEASE_MS, DELIVERIES_PER_ROUND);
        await eachBounded(due, SEND_CONCURRENCY, async (item) => {
          // Sends wait for a lane, and a lane for sends as slow as SEND_TIMEOUT_MS: a send started after this
          // could end after the lease, when another round may have claimed the row and sent it too. Left
          // claimed, the row is due again when its lease ends, for whichever round claims it then.
          if (now().getTime() - claimedAt > SEND_START_DEADLINE_MS) {
            report.retried += 1;
            return;
          }
          await send(item, report);
        });
        if (now().getTime() >= nextPurgeAt) {
          nextPurgeAt = now().getTime() + PURGE_INTERVAL_MS;
          await repository.purgeUnboundDevices(new Date(now().getTime() - UNBOUND_DEVICE_LIFETIME_MS), PURGE_BATCH);
        }
      }
      return report;
    },
    anythingDue: () => repository.anythingDue(now()),
  };
}

export type PushWorker = ReturnType<typeof pushWorker>;
