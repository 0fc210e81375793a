import type { UserRole } from '../../../contracts/security.ts';
import { PREPARED, type Queryable } from '../infra/db/db.ts';

export interface SessionLookup {
  session_id: string;
  user_id: string;
  username: string;
  email: string;
  /** Read with every lookup, so a role taken back (`npm run user:role`) counts from the next call. */
  role: UserRole;
  last_used_at: Date;
  /** Until when its releases need no second proof (migration 023): a release in the window reads nothing more. */
  release_confirmed_until: Date | null;
}

/** A bigint's digits (up to 18, so any fits): anything else is no session id. */
const SESSION_ID = /^[1-9][0-9]{0,17}$/;

/** migrations/021: the column holds 64 characters; clientAddress() answers an IP or an IPv6 /64, far shorter. */
const CLIENT_ADDRESS_LENGTH = 64;
/** An address as the column keeps it: what is written and what a sign-in is compared by are the same text. */
const storedAddress = (address: string) => address.slice(0, CLIENT_ADDRESS_LENGTH);

export interface SessionHistoryRow {
  id: string;
  device: string;
  client_address: string;
  created_at: Date;
  last_used_at: Date;
  revoked_at: Date | null;
}

/** A session's release confirmation (migration 023) with what checking a proof needs of its user. */
export interface ConfirmationRow {
  user_id: string;
  username: string;
  password_hash: string;
  totp_secret: string | null;
  release_confirmed_until: Date | null;
}

export function sessionsRepository(db: Queryable) {
  const findLiveBy = (column: 'token_hash' | 'websocket_token_hash', hash: string) =>
    db.maybe<SessionLookup>(
      `SELECT s.id AS session_id, s.user_id, u.username, u.email, u.role, s.last_used_at, s.release_confirmed_until
       FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE s.${column} = $1 AND s.revoked_at IS NULL AND u.suspended_at IS NULL`,
      [hash],
      // Every signed-in call runs one: kept prepared (a lookup by a unique key, one plan for any token).
      PREPARED,
    );

  return {
    /**
     * `clientAddress` as clientAddress() computes it, for the sign-in history (migration 021); `deviceKey` the hash
     * of the device id the sign-in sent, or null (migration 035).
     */
    insert: (session: {
      userId: string;
      tokenHash: string;
      websocketTokenHash: string;
      device: string;
      deviceKey: string | null;
      clientAddress: string;
      now: Date;
    }) =>
      db.one<{ id: string }>(
        `INSERT INTO sessions (user_id, token_hash, websocket_token_hash, device, device_key, client_address, created_at, last_used_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING id`,
        [
          session.userId,
          session.tokenHash,
          session.websocketTokenHash,
          session.device,
          session.deviceKey,
          storedAddress(session.clientAddress),
          session.now,
        ],
      ),

    /**
     * Whether the user has signed in before (a session of theirs was opened: login, two-factor login, register) from
     * this device and from this address, counting only sign-ins since the account's credentials last changed
     * (`users.credentials_changed_at`: a password reset, two-factor on or off) and since sessions were last ended by
     * the owner or an operator (`users.sign_ins_disowned_at`, migration 038). A null device key and an unknown
     * address ('') were never seen. Asked before the sign-in's own session is written (accounts.ts).
     */
    seenBefore: (userId: string, deviceKey: string | null, clientAddress: string) =>
      db.one<{ device: boolean; address: boolean }>(
        `SELECT
           EXISTS (SELECT 1 FROM sessions s WHERE s.user_id = u.id AND s.device_key = $2::text AND s.created_at >= since.at) AS device,
           $3::text <> '' AND EXISTS (SELECT 1 FROM sessions s WHERE s.user_id = u.id AND s.client_address = $3::text
                   AND s.created_at >= since.at) AS address
         FROM users u
         CROSS JOIN LATERAL (SELECT coalesce(greatest(u.credentials_changed_at, u.sign_ins_disowned_at), '-infinity') AS at) AS since
         WHERE u.id = $1`,
        [userId, deviceKey, storedAddress(clientAddress)],
      ),

    /** The user's newest sessions, live and ended, for the sign-in history. */
    newestOfUser: (userId: string, limit: number) =>
      db.query<SessionHistoryRow>(
        `SELECT id, device, client_address, created_at, last_used_at, revoked_at
         FROM sessions WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
        [userId, limit],
      ),

    /**
     * Ends every session of the user but one ("Sign out everywhere else"); answers their ids, and how many of them
     * were live.
     * Idle-expired ones (`idleBefore`) end too, since what they still hold (a socket, a bound push device,
     * migration 022) goes only with their end, but they are not counted: they were signed out already.
     */
    revokeOthersOfUser: async (userId: string, keepSessionId: string, now: Date, idleBefore: Date) => {
      const ended = await db.query<{ id: string; live: boolean }>(
        `UPDATE sessions SET revoked_at = $3
         WHERE user_id = $1 AND id <> $2 AND revoked_at IS NULL RETURNING id, last_used_at > $4 AS live`,
        [userId, keepSessionId, now, idleBefore],
      );
      return { ids: ended.map((row) => row.id), live: ended.filter((row) => row.live).length };
    },

    /**
     * The live (not revoked) session behind a token hash, with its user. Idle expiry is the caller's rule. A
     * suspended user's session is none: suspending ends their sessions anyway, and this holds even for one a
     * sign-in racing the suspension opened (docs/operators.md "Traders and suspension").
     */
    findLive: (tokenHash: string) => findLiveBy('token_hash', tokenHash),

    /** The live session whose websocket token hashes to this (channel authorization). */
    findLiveByWebsocketToken: (websocketTokenHash: string) => findLiveBy('websocket_token_hash', websocketTokenHash),

    /** A live session's release window and its user's proofs (accounts/confirmation.ts); read before every release: kept prepared. */
    confirmation: (sessionId: string) =>
      db.maybe<ConfirmationRow>(
        `SELECT u.id AS user_id, u.username, u.password_hash, u.totp_secret, s.release_confirmed_until
         FROM sessions s JOIN users u ON u.id = s.user_id
         WHERE s.id = $1 AND s.revoked_at IS NULL`,
        [sessionId],
        PREPARED,
      ),

    /** A proof succeeded: the session's releases need none until `until`. */
    confirmRelease: (sessionId: string, until: Date) =>
      db.query('UPDATE sessions SET release_confirmed_until = $2 WHERE id = $1 AND revoked_at IS NULL', [sessionId, until]),

    /** Moves last use forward only if it is at or before `staleBefore`, so a busy client costs one write a minute. */
    touch: (sessionId: string, now: Date, staleBefore: Date) =>
      db.query('UPDATE sessions SET last_used_at = $2 WHERE id = $1 AND last_used_at <= $3', [
        sessionId,
        now,
        staleBefore,
      ]),

    /**
     * Which of `ids` ended, and every session that ended at or after `since`: what a process that was not told
     * for a while (its LISTEN connection lost) may have missed. Ids that are not session ids are not sessions.
     */
    endedAmongOrSince: async (ids: readonly string[], since: Date) =>
      (
        await db.query<{ id: string }>(
          `SELECT id FROM sessions WHERE revoked_at IS NOT NULL AND (id = ANY($1::bigint[]) OR revoked_at >= $2)`,
          [ids.filter((id) => SESSION_ID.test(id)), since],
        )
      ).map((row) => row.id),

    /** Ends the session; answers whether this ended it (false: it had ended already). */
    revoke: async (sessionId: string, now: Date) =>
      (await db.query('UPDATE sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id', [sessionId, now])).length === 1,

    /** Ends every session of the user not ended yet; answers their ids. */
    revokeAllOfUser: async (userId: string, now: Date) =>
      (await db.query<{ id: string }>('UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL RETURNING id', [userId, now])).map(
        (row) => row.id,
      ),
  };
}

export type SessionsRepository = ReturnType<typeof sessionsRepository>;
