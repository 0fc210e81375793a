import type { Queryable } from '../db/db.ts';

export function loginFailuresRepository(db: Queryable) {
  return {
    lockedUntil: async (accountKey: string, now: Date) =>
      (
        await db.maybe<{ locked_until: Date }>(
          'SELECT locked_until FROM login_lockouts WHERE account_key = $1 AND locked_until > $2',
          [accountKey, now],
        )
      )?.locked_until,

    /** Records one failure and returns how many fell inside the window, this one included. Call inside a transaction. */
    record: async (accountKey: string, now: Date, windowStart: Date) => {
      // Two failures racing must both be counted by whichever finishes second.
      await db.query("SELECT pg_advisory_xact_lock(hashtext('login:' || $1::text))", [accountKey]);
      await db.query('DELETE FROM login_failures WHERE account_key = $1 AND failed_at <= $2', [
        accountKey,
        windowStart,
      ]);
      await db.query('INSERT INTO login_failures (account_key, failed_at) VALUES ($1, $2)', [accountKey, now]);
      return (
        await db.one<{ count: number }>(
          'SELECT count(*)::int AS count FROM login_failures WHERE account_key = $1 AND failed_at > $2',
          [accountKey, windowStart],
        )
      ).count;
    },

    /** Starts a lockout; the failures that caused it are spent, so the count starts afresh when it ends. */
    lock: async (accountKey: string, until: Date) => {
      await db.query(
        `INSERT INTO login_lockouts (account_key, locked_until) VALUES ($1, $2)
         ON CONFLICT (account_key) DO UPDATE SET locked_until = EXCLUDED.locked_until`,
        [accountKey, until],
      );
      await db.query('DELETE FROM login_failures WHERE account_key = $1', [accountKey]);
    },

    clear: async (accountKey: string) => {
      await db.query('DELETE FROM login_failures WHERE account_key = $1', [accountKey]);
      await db.query('DELETE FROM login_lockouts WHERE account_key = $1', [accountKey]);
    },
  };
}
