import type { Queryable } from '../infra/db/db.ts';
import { refuse } from '../sentences.ts';
import type { CodePurpose } from '../infra/mail.ts';
import { newEmailCode } from '../infra/secrets.ts';
import { emailCodesRepository } from './email-codes.repository.ts';
import { shared } from '../infra/shared.ts';
import type { Refusal } from '../refusals.ts';

/** The life of an emailed code (docs/rules.md "Accounts"). */
export const EMAIL_CODE_RULES = Object.freeze({
  validMinutes: 10,
  maxWrongTries: 5,
  resendIntervalMs: 60_000,
  /**
   * Codes per address and purpose within an hour. A reset code takes over an account, so it gets fewer:
   * 3 codes with 5 tries each is 15 guesses an hour at a 6-digit code.
   */
  perHour: Object.freeze({ signup: 10, reset: 3 } satisfies Record<CodePurpose, number>),
});

const HOUR_MS = 3_600_000;

export interface EmailCodes {
  /**
   * Makes a new code for an address and purpose, replacing any live one, within the resend limits
   * (429 otherwise). The limits count per address and purpose, and count every request whether or not
   * the address has an account, so that a reset request's answer says nothing about the address
   * (not even that it signed up recently). Returns the code in clear, for the mail only.
   */
  issue(email: string, purpose: CodePurpose): Promise<string>;
  /**
   * Checks a code and spends it when right. `onValid` runs in the same transaction, so what the code
   * unlocks happens exactly once; it must use only `tx` (on PGlite the transaction holds the one
   * connection, so a query through `app.db` would wait forever). Wrong, expired or exhausted codes are
   * refused with 400 and a sentence.
   */
  redeem<T>(email: string, purpose: CodePurpose, code: string, onValid: (tx: Queryable) => Promise<T>): Promise<T>;
}

declare module 'fastify' {
  interface FastifyInstance {
    emailCodes: EmailCodes;
  }
}

type Outcome<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

export const emailCodesPlugin = shared('peerex-email-codes', async (app) => {
  const emailCodes: EmailCodes = {
    async issue(email, purpose) {
      const now = app.now();
      const code = newEmailCode();
      const refusal = await app.db.transaction(async (tx) => {
        const repo = emailCodesRepository(tx);
        await repo.lockEmail(email);
        const hourAgo = new Date(now.getTime() - HOUR_MS);
        const recent = await repo.requestsSince(email, purpose, hourAgo);
        if (recent.latest && now.getTime() - recent.latest.getTime() < EMAIL_CODE_RULES.resendIntervalMs) {
          return refuse.codeResendTooSoon();
        }
        if (recent.count >= EMAIL_CODE_RULES.perHour[purpose]) return refuse.codeHourlyLimit();
        await repo.recordRequest(email, purpose, now, hourAgo);
        await repo.replace({
          email,
          purpose,
          codeHash: app.keys.hashEmailCode(purpose, email, code),
          now,
          expiresAt: new Date(now.getTime() + EMAIL_CODE_RULES.validMinutes * 60_000),
        });
        return undefined;
      });
      if (refusal) throw refusal;
      return code;
    },

    async redeem<T>(email: string, purpose: CodePurpose, code: string, onValid: (tx: Queryable) => Promise<T>) {
      const now = app.now();
      // The transaction commits a wrong try before the refusal is thrown, so tries are really counted.
      const outcome = await app.db.transaction(async (tx): Promise<Outcome<T>> => {
        const repo = emailCodesRepository(tx);
        const live = await repo.lockCode(email, purpose);
        if (!live) return { ok: false, refusal: refuse.codeExpired() };
        if (live.expires_at <= now) {
          await repo.remove(email, purpose);
          return { ok: false, refusal: refuse.codeExpired() };
        }
        if (!app.keys.sameDigest(live.code_hash, app.keys.hashEmailCode(purpose, email, code))) {
          const { failed_attempts } = await repo.recordFailure(email, purpose);
          if (failed_attempts >= EMAIL_CODE_RULES.maxWrongTries) {
            await repo.remove(email, purpose);
            return { ok: false, refusal: refuse.tooManyWrongCodes() };
          }
          return { ok: false, refusal: refuse.invalidCode() };
        }
        await repo.remove(email, purpose);
        return { ok: true, value: await onValid(tx) };
      });
      if (!outcome.ok) throw outcome.refusal;
      return outcome.value;
    },
  };

  app.decorate('emailCodes', emailCodes);
});
