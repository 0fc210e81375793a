import type { UserRole } from '../../../contracts/security.ts';
import { PREPARED, type Queryable } from '../db/db.ts';

export interface SessionLookup {
  session_id: string;
  user_id: string;
  username: string;
  email: string;
  /** Read with every lookup, so a role taken back (`npm run user:role`) counts from the next call. */
  role: UserRole;
  last_used_at: Date;
}

export function sessionsRepository(db: Queryable) {
  const findLiveBy = (column: 'token_hash' | 'websocket_token_hash', hash: string) =>
    db.maybe<SessionLookup>(
      `SELECT s.id AS session_id, s.user_id, u.username, u.email, u.role, s.last_used_at
       FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE s.${column} = $1 AND s.revoked_at IS NULL`,
      [hash],
      // Every signed-in call runs one: kept prepared (a lookup by a unique key, one plan for any token).
      PREPARED,
    );

  return {
    insert: (session: { userId: string; tokenHash: string; websocketTokenHash: string; device: string; now: Date }) =>
      db.one<{ id: string }>(
        `INSERT INTO sessions (user_id, token_hash, websocket_token_hash, device, created_at, last_used_at)
         VALUES ($1, $2, $3, $4, $5, $5) RETURNING id`,
        [session.userId, session.tokenHash, session.websocketTokenHash, session.device, session.now],
      ),

    /** The live (not revoked) session behind a token hash, with its user. Idle expiry is the caller's rule. */
    findLive: (tokenHash: string) => findLiveBy('token_hash', tokenHash),

    /** The live session whose websocket token hashes to this (channel authorization). */
    findLiveByWebsocketToken: (websocketTokenHash: string) => findLiveBy('websocket_token_hash', websocketTokenHash),

    /** Moves last use forward only if it is at or before `staleBefore`, so a busy client costs one write a minute. */
    touch: (sessionId: string, now: Date, staleBefore: Date) =>
      db.query('UPDATE sessions SET last_used_at = $2 WHERE id = $1 AND last_used_at <= $3', [
        sessionId,
        now,
        staleBefore,
      ]),

    revoke: (sessionId: string, now: Date) =>
      db.query('UPDATE sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [sessionId, now]),

    revokeAllOfUser: (userId: string, now: Date) =>
      db.query('UPDATE sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [userId, now]),
  };
}

export type SessionsRepository = ReturnType<typeof sessionsRepository>;
