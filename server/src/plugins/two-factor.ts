import { totpStep } from '../lib/totp.ts';
import { usersRepository } from '../repositories/users.ts';
import { shared } from './shared.ts';

export type TotpOutcome = { ok: true; step: number } | { ok: false; reason: 'invalid' | 'replayed' };

export interface TwoFactor {
  /** Checks a code against a sealed secret (±1 step), without spending it: for enabling a new secret. */
  check(sealedSecret: string, code: string): Promise<TotpOutcome>;
  /** Checks a code against the user's active secret and spends its time step: a code is accepted once. */
  spend(userId: string, sealedSecret: string, code: string): Promise<TotpOutcome>;
}

declare module 'fastify' {
  interface FastifyInstance {
    twoFactor: TwoFactor;
  }
}

/** Tier 2: TOTP (RFC 6238) checks with replay protection; secrets are stored sealed with APP_SECRET. */
export const twoFactorPlugin = shared('peerex-two-factor', async (app) => {
  const check: TwoFactor['check'] = async (sealedSecret, code) => {
    const step = await totpStep(app.keys.open(sealedSecret), code, app.now());
    return step === undefined ? { ok: false, reason: 'invalid' } : { ok: true, step };
  };
  app.decorate('twoFactor', {
    check,
    async spend(userId, sealedSecret, code) {
      const outcome = await check(sealedSecret, code);
      if (!outcome.ok) return outcome;
      const fresh = await usersRepository(app.db).spendTotpStep(userId, outcome.step);
      return fresh ? outcome : { ok: false, reason: 'replayed' };
    },
  } satisfies TwoFactor);
});
