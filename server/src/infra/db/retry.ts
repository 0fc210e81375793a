import type { Db, Queryable } from './db.ts';

/** SQLSTATEs after which the whole transaction may simply run again: nothing of it was committed. */
const RETRYABLE = new Set([
  '40P01', // deadlock_detected: PostgreSQL aborted this transaction to break a lock cycle
  '40001', // serialization_failure
]);

export const isRetryable = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && RETRYABLE.has(String((error as { code?: unknown }).code));

/**
 * Runs `work` (one statement, or a whole transaction) again, up to `attempts` times in all, when
 * PostgreSQL aborted it to break a deadlock or a serialization conflict: nothing of it was committed.
 * `alsoRetry` names further failures after which running it again is right (a lost race for a unique place).
 */
export async function retrying<T>(work: () => Promise<T>, attempts = 4, alsoRetry: (error: unknown) => boolean = () => false): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !(isRetryable(error) || alsoRetry(error))) throw error;
    }
  }
}

/**
 * Runs `work` in a transaction, again (up to `attempts` times in all) when PostgreSQL aborted it to break
 * a deadlock. The money paths lock in a fixed order (ledger.ts), so a deadlock needs something unusual,
 * like two transactions creating the same new account at once; this turns that rare abort into a short
 * wait instead of a 500. `work` must have no effect outside the transaction (publish after it returns).
 */
export function transactionWithRetry<T>(db: Db, work: (tx: Queryable) => Promise<T>, attempts = 4): Promise<T> {
  return retrying(() => db.transaction(work), attempts);
}
