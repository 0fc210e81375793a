import type { Queryable } from '../infra/db/db.ts';

export function recoveryCodesRepository(db: Queryable) {
  return {
    /** The user's recovery codes become exactly these (hashes); the old ones stop working. */
    replace: async (userId: string, codeHashes: readonly string[], now: Date) => {
      await db.query('DELETE FROM two_factor_recovery_codes WHERE user_id = $1', [userId]);
      await db.query(
        `INSERT INTO two_factor_recovery_codes (user_id, code_hash, created_at)
         SELECT $1, hash, $3 FROM unnest($2::text[]) AS hash`,
        [userId, codeHashes, now],
      );
    },

    /** Spends an unused code: one conditional UPDATE, so two requests racing with the same code cannot both win. */
    spend: async (userId: string, codeHash: string, now: Date) =>
      (
        await db.query(
          `UPDATE two_factor_recovery_codes SET used_at = $3
           WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING id`,
          [userId, codeHash, now],
        )
      ).length === 1,

    left: async (userId: string) =>
      (
        await db.one<{ left: number }>(
          'SELECT count(*)::int AS left FROM two_factor_recovery_codes WHERE user_id = $1 AND used_at IS NULL',
          [userId],
        )
      ).left,

    removeAll: (userId: string) => db.query('DELETE FROM two_factor_recovery_codes WHERE user_id = $1', [userId]),
  };
}
