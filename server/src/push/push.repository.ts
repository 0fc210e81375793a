import type { Queryable } from '../infra/db/db.ts';
import { TRADE_EVENTS } from '../../../contracts/trade.ts';
import { idleLimitOf } from '../accounts/sessions.plugin.ts';
import type { BeamsWeb, ClaimedDelivery, ClaimedPublish, NewPushDevice, PushDeviceStore, PushStore, PushUrgency } from '../../../packages/push-service/index.ts';

export type { BeamsWeb, PushUrgency } from '../../../packages/push-service/index.ts';

/** A registered browser (push_devices, migration 017), as the device API reads it. */
export interface PushDevice {
  id: string;
  instance_id: string;
  user_id: string | null;
  sdk_version: string | null;
  user_agent: string | null;
}

/** The notification kinds whose pushes are `high` urgency: a trade's payment window is running. */
const TRADE_KINDS: readonly string[] = ['trade_opened', ...TRADE_EVENTS, 'trade_expired'];

/** The SQL of web push: the device API's devices and interests, the outbox and the deliveries. */
export function pushRepository(db: Queryable) {
  return {
    // ---- devices (the device API) ----

    createDevice: (device: NewPushDevice) =>
      db.query(
        `INSERT INTO push_devices (id, instance_id, token, endpoint, p256dh, auth, sdk_version, user_agent, created_at, last_seen_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
        [device.id, device.instanceId, device.token, device.endpoint, device.p256dh, device.auth, device.sdkVersion, device.userAgent, device.at],
      ),

    /** The device, marking it seen now (a device nobody calls for long enough is purged while unbound). */
    touchDevice: (instanceId: string, id: string, at: Date) =>
      db.maybe<PushDevice>(
        `UPDATE push_devices SET last_seen_at = $3 WHERE instance_id = $1 AND id = $2
         RETURNING id, instance_id, user_id, sdk_version, user_agent`,
        [instanceId, id, at],
      ),

    setMetadata: (id: string, sdkVersion: string | null, userAgent: string | null) =>
      db.query('UPDATE push_devices SET sdk_version = COALESCE($2, sdk_version), user_agent = COALESCE($3, user_agent) WHERE id = $1', [
        id,
        sdkVersion,
        userAgent,
      ]),

    /**
     * Binds the device to the user and to the session its Beams token was issued to (which it then goes with,
     * migration 022), unless that session is no longer live (`ended`: revoked, or last used at or before
     * `idleBefore`) or the device is bound to another user (`taken`). The session's row is locked for share, so a
     * session ending meanwhile either waits for the binding, and then unbinds it, or is seen ended here.
     */
    bindToSession: async (id: string, userId: string, sessionId: string, idleBefore: Date): Promise<'bound' | 'ended' | 'taken'> => {
      const outcome = await db.one<{ live: boolean; bound: boolean }>(
        `WITH live AS (
           SELECT id, user_id FROM sessions
           WHERE id = $3 AND user_id = $2 AND revoked_at IS NULL AND last_used_at > $4 FOR SHARE
         ), bound AS (
           UPDATE push_devices d SET user_id = live.user_id, session_id = live.id FROM live
           WHERE d.id = $1 AND (d.user_id IS NULL OR d.user_id = live.user_id) RETURNING d.id
         )
         SELECT EXISTS (SELECT FROM live) AS live, EXISTS (SELECT FROM bound) AS bound`,
        [id, userId, sessionId, idleBefore],
      );
      return outcome.bound ? 'bound' : outcome.live ? 'taken' : 'ended';
    },

    /** Interests, devices and deliveries go with it (ON DELETE CASCADE). */
    deleteDevice: (id: string) => db.query('DELETE FROM push_devices WHERE id = $1', [id]),

    /**
     * The user a Beams token issued at `issuedAt` may bind a device to: none when their password was reset or
     * their two-factor changed after it (credentials_changed_at), so a token handed to a session that a
     * password reset ended binds nothing more. JWT times are whole seconds: a change within the token's own
     * second does not count against it.
     */
    bindableUserId: async (username: string, issuedAt: Date) =>
      (
        await db.maybe<{ id: string }>(
          `SELECT id FROM users WHERE username = $1
           AND (credentials_changed_at IS NULL OR credentials_changed_at < $2::timestamptz + interval '1 second')`,
          [username, issuedAt],
        )
      )?.id,

    /**
     * Unbinds every device of the user and drops what is queued for them (a password reset: whoever held the
     * password may have bound their own browser). An unbound device is forgotten a day later unless bound again.
     */
    unbindUser: (userId: string) =>
      db.query(
        `WITH unbound AS (UPDATE push_devices SET user_id = NULL, session_id = NULL WHERE user_id = $1 RETURNING id)
         DELETE FROM push_deliveries WHERE device_id IN (SELECT id FROM unbound)`,
        [userId],
      ),

    addInterest: (id: string, interest: string) =>
      db.query('INSERT INTO push_device_interests (device_id, interest) VALUES ($1, $2) ON CONFLICT DO NOTHING', [id, interest]),

    removeInterest: (id: string, interest: string) => db.query('DELETE FROM push_device_interests WHERE device_id = $1 AND interest = $2', [id, interest]),

    /** One page of interests in name order, after `after` (the previous page's last). */
    interestsPage: async (id: string, limit: number, after: string | null) =>
      (
        await db.query<{ interest: string }>(
          `SELECT interest FROM push_device_interests WHERE device_id = $1 AND ($2::text IS NULL OR interest > $2)
           ORDER BY interest LIMIT $3`,
          [id, after, limit],
        )
      ).map((row) => row.interest),

    interestCount: async (id: string) =>
      Number((await db.one<{ n: string }>('SELECT count(*) AS n FROM push_device_interests WHERE device_id = $1', [id])).n),

    /** Replaces every interest of the device, in one statement. */
    setInterests: (id: string, interests: readonly string[]) =>
      db.query(
        `WITH cleared AS (DELETE FROM push_device_interests WHERE device_id = $1 AND NOT (interest = ANY($2::text[])))
         INSERT INTO push_device_interests (device_id, interest) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
        [id, interests],
      ),

    /** Forgets devices nobody bound to a user and nobody called since `before`, a bounded batch at a time. */
    purgeUnboundDevices: async (before: Date, limit: number) =>
      (
        await db.query(
          `DELETE FROM push_devices WHERE id IN (
             SELECT id FROM push_devices WHERE user_id IS NULL AND last_seen_at < $1 LIMIT $2)
           RETURNING id`,
          [before, limit],
        )
      ).length,

    // ---- the outbox ----

    insertPublish: (publish: { publishId: string; users: readonly string[]; interests: readonly string[]; web: BeamsWeb; urgency: PushUrgency; at: Date }) =>
      db.query(
        `INSERT INTO push_publishes (publish_id, users, interests, web, urgency, next_attempt_at, created_at)
         VALUES ($1, $2::text[], $3::text[], $4::jsonb, $5, $6, $6)`,
        [publish.publishId, publish.users, publish.interests, JSON.stringify(publish.web), publish.urgency, publish.at],
      ),

    /**
     * Claims up to `limit` due publishes for `leaseMs`: another round (here or in another process) skips
     * them until the lease runs out, which is also how a crash mid-round hands them on. A notification's
     * publish of a trade event is `high` urgency, decided here so the producers need not know about it.
     */
    claimPublishes: (now: Date, leaseMs: number, limit: number) =>
      db.query<ClaimedPublish>(
        `UPDATE push_publishes p
         SET next_attempt_at = $1::timestamptz + make_interval(secs => $2::double precision / 1000), attempts = p.attempts + 1
         WHERE p.id IN (SELECT id FROM push_publishes WHERE next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING p.id, p.publish_id, p.users, p.interests, p.web, p.attempts,
           CASE WHEN EXISTS (SELECT FROM notifications n
                             WHERE n.id = substring(p.publish_id FROM '^notification-([0-9]{1,18})$')::bigint AND n.kind = ANY($4::text[]))
                THEN 'high' ELSE p.urgency END AS urgency`,
        [now, leaseMs, limit, TRADE_KINDS],
      ),

    /**
     * Turns a claimed publish into one delivery per device of its users or interests, and removes it, in one
     * statement: a publish another round already expanded (its lease ran out meanwhile) expands to nothing.
     */
    expandPublish: async (publish: { id: string; instanceId: string; users: readonly string[]; interests: readonly string[] }, delivery: { payload: unknown; ttlSeconds: number; urgency: PushUrgency; at: Date }) =>
      (
        await db.query(
          `WITH taken AS (DELETE FROM push_publishes WHERE id = $1 RETURNING id)
           INSERT INTO push_deliveries (device_id, payload, ttl_seconds, urgency, next_attempt_at, created_at)
           SELECT d.id, $5::jsonb, $6, $7, $8, $8
           FROM push_devices d
           WHERE EXISTS (SELECT FROM taken) AND d.instance_id = $2
             AND (d.user_id IN (SELECT id FROM users WHERE username = ANY($3::text[]))
                  OR d.id IN (SELECT device_id FROM push_device_interests WHERE interest = ANY($4::text[])))
           RETURNING id`,
          [publish.id, publish.instanceId, publish.users, publish.interests, JSON.stringify(delivery.payload), delivery.ttlSeconds, delivery.urgency, delivery.at],
        )
      ).length,

    /** The outbox not delivered yet (GET /metrics): publishes still to expand, deliveries still to send (retries included). */
    queueDepth: async () => {
      const row = await db.one<{ publishes: string; deliveries: string }>(
        'SELECT (SELECT count(*) FROM push_publishes) AS publishes, (SELECT count(*) FROM push_deliveries) AS deliveries',
      );
      return { publishes: Number(row.publishes), deliveries: Number(row.deliveries) };
    },

    deletePublish: (id: string) => db.query('DELETE FROM push_publishes WHERE id = $1', [id]),

    retryPublishAt: (id: string, at: Date) => db.query('UPDATE push_publishes SET next_attempt_at = $2 WHERE id = $1', [id, at]),

    // ---- deliveries ----

    claimDeliveries: (now: Date, leaseMs: number, limit: number) =>
      db.query<ClaimedDelivery>(
        `UPDATE push_deliveries p
         SET next_attempt_at = $1::timestamptz + make_interval(secs => $2::double precision / 1000), attempts = p.attempts + 1
         FROM push_devices d
         WHERE d.id = p.device_id
           AND p.id IN (SELECT id FROM push_deliveries WHERE next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING p.id, p.device_id, p.payload, p.ttl_seconds, p.urgency, p.attempts, d.endpoint, d.p256dh, d.auth`,
        [now, leaseMs, limit],
      ),

    deleteDelivery: (id: string) => db.query('DELETE FROM push_deliveries WHERE id = $1', [id]),

    retryDeliveryAt: (id: string, at: Date, error: string) =>
      db.query('UPDATE push_deliveries SET next_attempt_at = $2, last_error = $3 WHERE id = $1', [id, at, error]),

    /** Whether anything is due now: `drain` runs rounds until not. */
    anythingDue: async (now: Date) =>
      (
        await db.one<{ due: boolean }>(
          `SELECT EXISTS (SELECT FROM push_publishes WHERE next_attempt_at <= $1)
               OR EXISTS (SELECT FROM push_deliveries WHERE next_attempt_at <= $1) AS due`,
          [now],
        )
      ).due,
  };
}

export type PushRepository = ReturnType<typeof pushRepository>;

/** The delivery worker's store (packages/push-service/store.ts) is this repository. */
export const pushStore = (repository: PushRepository): PushStore => repository;

/**
 * The device API's store (packages/push-service/store.ts) is this repository too, where a Beams token binds a device
 * only to a user whose credentials did not change since it was issued, and only while the session it was issued
 * to is live (not revoked, used within SESSION_IDLE_DAYS): the device would outlive it.
 */
export const pushDeviceStore = (repository: PushRepository, sessionIdleDays: number): PushDeviceStore => ({
  ...repository,
  async bindUser(id, claims, at) {
    const userId = await repository.bindableUserId(claims.username, claims.issuedAt);
    if (userId === undefined) return 'refused';
    return repository.bindToSession(id, userId, claims.sessionId, idleLimitOf(at, sessionIdleDays));
  },
});
