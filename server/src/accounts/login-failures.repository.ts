import type { Queryable } from '../infra/db/db.ts';

/** The lock of a whole account, as opposed to one of its pairs (account, client address). */
export const WHOLE_ACCOUNT = '';

export function loginFailuresRepository(db: Queryable) {
  return {
    /** The end of the latest lock that holds this pair: its own, or its account's. */
    lockedUntil: async (accountKey: string, client: string, now: Date) =>
      (
        await db.maybe<{ locked_until: Date }>(
          `SELECT max(locked_until) AS locked_until FROM login_lockouts
           WHERE account_key = $1 AND client IN ($2, '') AND locked_until > $3
           HAVING max(locked_until) IS NOT NULL`,
          [accountKey, client, now],
        )
      )?.locked_until,

    /**
     * Records one failure and answers how many fell inside each window, this one included: the pair's since
     * `pairSince`, the account's (from every address) since `accountSince`. Failures older than both windows
     * are pruned. Call inside a transaction.
     */
    record: async (failure: { accountKey: string; client: string; at: Date; pairSince: Date; accountSince: Date }) => {
      // Two failures racing must both be counted by whichever finishes second.
      await db.query("SELECT pg_advisory_xact_lock(hashtext('login:' || $1::text))", [failure.accountKey]);
      await db.query('DELETE FROM login_failures WHERE account_key = $1 AND failed_at <= least($2::timestamptz, $3::timestamptz)', [
        failure.accountKey,
        failure.pairSince,
        failure.accountSince,
      ]);
      await db.query('INSERT INTO login_failures (account_key, client, failed_at) VALUES ($1, $2, $3)', [
        failure.accountKey,
        failure.client,
        failure.at,
      ]);
      return db.one<{ pair: number; account: number }>(
        `SELECT count(*) FILTER (WHERE client = $2 AND failed_at > $3)::int AS pair,
                count(*) FILTER (WHERE failed_at > $4)::int AS account
         FROM login_failures WHERE account_key = $1`,
        [failure.accountKey, failure.client, failure.pairSince, failure.accountSince],
      );
    },

    /**
     * Locks one pair (or, with WHOLE_ACCOUNT, the account) until `until`, unless a lock of it still holds at
     * `now`; answers whether this call started one.
     */
    lock: async (accountKey: string, client: string, until: Date, now: Date) =>
      (
        await db.query(
          `INSERT INTO login_lockouts (account_key, client, locked_until) VALUES ($1, $2, $3)
           ON CONFLICT (account_key, client) DO UPDATE SET locked_until = EXCLUDED.locked_until
           WHERE login_lockouts.locked_until <= $4
           RETURNING 1 AS started`,
          [accountKey, client, until, now],
        )
      ).length === 1,

    /** Forgets one pair's failures and lock (a successful sign-in from that address). */
    clearPair: async (accountKey: string, client: string) => {
      await db.query('DELETE FROM login_failures WHERE account_key = $1 AND client = $2', [accountKey, client]);
      await db.query('DELETE FROM login_lockouts WHERE account_key = $1 AND client = $2', [accountKey, client]);
    },

    /** Forgets every failure and lock of the account, from every address. */
    clearAccount: async (accountKey: string) => {
      await db.query('DELETE FROM login_failures WHERE account_key = $1', [accountKey]);
      await db.query('DELETE FROM login_lockouts WHERE account_key = $1', [accountKey]);
    },
  };
}
