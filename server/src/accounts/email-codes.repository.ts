import type { Queryable } from '../infra/db/db.ts';
import type { CodePurpose } from '../infra/mail.ts';

export interface EmailCodeRow {
  code_hash: string;
  expires_at: Date;
  failed_attempts: number;
}

export function emailCodesRepository(db: Queryable) {
  return {
    /** Serialises everything about one address (requests, checks) for the rest of the transaction. */
    lockEmail: (email: string) => db.query("SELECT pg_advisory_xact_lock(hashtext('email-code:' || $1::text))", [email]),

    requestsSince: (email: string, purpose: CodePurpose, since: Date) =>
      db.one<{ count: number; latest: Date | null }>(
        `SELECT count(*)::int AS count, max(requested_at) AS latest
         FROM email_code_requests WHERE email = $1 AND purpose = $2 AND requested_at > $3`,
        [email, purpose, since],
      ),

    recordRequest: async (email: string, purpose: CodePurpose, now: Date, pruneBefore: Date) => {
      await db.query('DELETE FROM email_code_requests WHERE email = $1 AND purpose = $2 AND requested_at <= $3', [
        email,
        purpose,
        pruneBefore,
      ]);
      await db.query('INSERT INTO email_code_requests (email, purpose, requested_at) VALUES ($1, $2, $3)', [
        email,
        purpose,
        now,
      ]);
    },

    /** One live code per address and purpose: a new one replaces the old, with a fresh try count. */
    replace: (code: { email: string; purpose: CodePurpose; codeHash: string; now: Date; expiresAt: Date }) =>
      db.query(
        `INSERT INTO email_codes (email, purpose, code_hash, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (email, purpose) DO UPDATE
           SET code_hash = EXCLUDED.code_hash, created_at = EXCLUDED.created_at,
               expires_at = EXCLUDED.expires_at, failed_attempts = 0`,
        [code.email, code.purpose, code.codeHash, code.now, code.expiresAt],
      ),

    lockCode: (email: string, purpose: CodePurpose) =>
      db.maybe<EmailCodeRow>(
        'SELECT code_hash, expires_at, failed_attempts FROM email_codes WHERE email = $1 AND purpose = $2 FOR UPDATE',
        [email, purpose],
      ),

    recordFailure: (email: string, purpose: CodePurpose) =>
      db.one<{ failed_attempts: number }>(
        `UPDATE email_codes SET failed_attempts = failed_attempts + 1
         WHERE email = $1 AND purpose = $2 RETURNING failed_attempts`,
        [email, purpose],
      ),

    remove: (email: string, purpose: CodePurpose) =>
      db.query('DELETE FROM email_codes WHERE email = $1 AND purpose = $2', [email, purpose]),

    markVerified: (email: string, now: Date) =>
      db.query(
        `INSERT INTO email_verifications (email, verified_at) VALUES ($1, $2)
         ON CONFLICT (email) DO UPDATE SET verified_at = EXCLUDED.verified_at`,
        [email, now],
      ),

    isVerifiedSince: async (email: string, since: Date) =>
      (await db.maybe('SELECT 1 AS found FROM email_verifications WHERE email = $1 AND verified_at > $2', [
        email,
        since,
      ])) !== undefined,

    consumeVerification: (email: string) => db.query('DELETE FROM email_verifications WHERE email = $1', [email]),
  };
}
