import type { Queryable } from '../infra/db/db.ts';

export interface ChallengeRow {
  id: string;
  user_id: string;
  device: string;
  /** The password step's device key (migration 035), for a second step that sends no device id. */
  device_key: string | null;
  failed_attempts: number;
}

export function twoFactorChallengesRepository(db: Queryable) {
  return {
    insert: (challenge: { userId: string; tokenHash: string; device: string; deviceKey: string | null; now: Date; expiresAt: Date }) =>
      db.query(
        `INSERT INTO two_factor_challenges (user_id, token_hash, device, device_key, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [challenge.userId, challenge.tokenHash, challenge.device, challenge.deviceKey, challenge.now, challenge.expiresAt],
      ),

    findOpen: (tokenHash: string, now: Date) =>
      db.maybe<ChallengeRow>(
        `SELECT id, user_id, device, device_key, failed_attempts FROM two_factor_challenges
         WHERE token_hash = $1 AND closed_at IS NULL AND expires_at > $2`,
        [tokenHash, now],
      ),

    /** Locks the challenge row for the rest of the transaction so that concurrent tries are counted one by one. */
    lockOpen: (tokenHash: string, now: Date) =>
      db.maybe<ChallengeRow>(
        `SELECT id, user_id, device, device_key, failed_attempts FROM two_factor_challenges
         WHERE token_hash = $1 AND closed_at IS NULL AND expires_at > $2 FOR UPDATE`,
        [tokenHash, now],
      ),

    recordFailure: (id: string) =>
      db.one<{ failed_attempts: number }>(
        'UPDATE two_factor_challenges SET failed_attempts = failed_attempts + 1 WHERE id = $1 RETURNING failed_attempts',
        [id],
      ),

    close: (id: string, now: Date) =>
      db.query('UPDATE two_factor_challenges SET closed_at = $2 WHERE id = $1', [id, now]),

    closeAllOfUser: (userId: string, now: Date) =>
      db.query('UPDATE two_factor_challenges SET closed_at = $2 WHERE user_id = $1 AND closed_at IS NULL', [
        userId,
        now,
      ]),
  };
}
