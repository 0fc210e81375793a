import { canonicalRecoveryCode } from '../../../contracts/common.ts';
import type { Queryable } from '../infra/db/db.ts';
import { newRecoveryCodes } from '../infra/secrets.ts';
import { totpStep } from './totp.ts';
import { recoveryCodesRepository } from './recovery-codes.repository.ts';
import { usersRepository } from './users.repository.ts';
import { refuse } from '../sentences.ts';
import { shared } from '../infra/shared.ts';

export type TotpOutcome = { ok: true; step: number } | { ok: false; reason: 'invalid' | 'replayed' };

/** What the trader offers as the second factor: a code from the authenticator app, or a recovery code. */
export type SecondFactorProof = { kind: 'authenticator'; code: string } | { kind: 'recovery'; code: string };
export type SecondFactorOutcome = { ok: true; kind: SecondFactorProof['kind'] } | { ok: false; reason: 'invalid' | 'replayed' };

/** A 6-digit code is the authenticator's; anything else is taken as a recovery code (the contract checked its shape). */
export const proofOf = (typed: string): SecondFactorProof =>
  /^\d{6}$/.test(typed) ? { kind: 'authenticator', code: typed } : { kind: 'recovery', code: canonicalRecoveryCode(typed) ?? '' };

export interface TwoFactor {
  /** Checks a code against a sealed secret (±1 step), without spending it: for enabling a new secret. */
  check(sealedSecret: string, code: string): Promise<TotpOutcome>;
  /**
   * Checks a second factor of the user's and spends it: an authenticator code's time step (a code is
   * accepted once, never an older one after it) or a recovery code. Each is one conditional UPDATE, so two
   * requests racing with the same proof cannot both win. `db` is the caller's transaction, if it holds one.
   */
  spend(db: Queryable, user: { id: string; totp_secret: string }, proof: SecondFactorProof): Promise<SecondFactorOutcome>;
  /** A fresh set of recovery codes replaces the user's old ones; answers them in clear, for this once. */
  renewRecoveryCodes(db: Queryable, userId: string): Promise<string[]>;
  recoveryCodesLeft(userId: string): Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    twoFactor: TwoFactor;
  }
}

/** Tier 2: TOTP (RFC 6238) checks with replay protection, and recovery codes; secrets are stored sealed with APP_SECRET. */
export const twoFactorPlugin = shared('peerex-two-factor', async (app) => {
  /**
   * A secret sealed under another APP_SECRET does not open (AES-GCM's tag fails): typically an install upgraded
   * from the development secret earlier versions published, whose database was seeded under it. Nobody can check
   * that account's codes, so the answer says so (503) instead of a 500, and the log tells the operator what to do.
   */
  const openSecret = (sealedSecret: string): string => {
    try {
      return app.keys.open(sealedSecret);
    } catch (error) {
      app.log.warn(
        { err: error },
        'A stored two-factor secret does not open with this APP_SECRET: it was sealed under another one (an install upgraded from ' +
          'the development secret earlier versions published?). Start on a fresh DATA_DIR, or set APP_SECRET to the old value ' +
          'knowingly (README "Secrets").',
      );
      throw refuse.twoFactorSecretUnreadable();
    }
  };
  const check: TwoFactor['check'] = async (sealedSecret, code) => {
    const step = await totpStep(openSecret(sealedSecret), code, app.now());
    return step === undefined ? { ok: false, reason: 'invalid' } : { ok: true, step };
  };
  app.decorate('twoFactor', {
    check,
    async spend(db, user, proof) {
      if (proof.kind === 'recovery') {
        const spent = await recoveryCodesRepository(db).spend(user.id, app.keys.hashRecoveryCode(user.id, proof.code), app.now());
        return spent ? { ok: true, kind: 'recovery' } : { ok: false, reason: 'invalid' };
      }
      const outcome = await check(user.totp_secret, proof.code);
      if (!outcome.ok) return outcome;
      const fresh = await usersRepository(db).spendTotpStep(user.id, outcome.step);
      return fresh ? { ok: true, kind: 'authenticator' } : { ok: false, reason: 'replayed' };
    },
    async renewRecoveryCodes(db, userId) {
      const codes = newRecoveryCodes();
      const hashes = codes.map((code) => app.keys.hashRecoveryCode(userId, canonicalRecoveryCode(code) ?? ''));
      await recoveryCodesRepository(db).replace(userId, hashes, app.now());
      return codes;
    },
    recoveryCodesLeft: (userId) => recoveryCodesRepository(app.db).left(userId),
  } satisfies TwoFactor);
});
