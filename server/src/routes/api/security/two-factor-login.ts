import type { FastifyInstance } from 'fastify';
import { sessionResponse, twoFactorLoginRequest, type SessionResponse } from '../../../../../contracts/security.ts';
import { clientAddress } from '../../../http/client-address.ts';
import { parseBody } from '../../../http/parse-body.ts';
import { ok } from '../../../http/reply.ts';
import { sentences } from '../../../sentences.ts';
import { hashToken } from '../../../lib/secrets.ts';
import { sessionExpired } from '../../../plugins/auth.ts';
import { securityMail } from '../../../lib/account-mails.ts';
import { accountKey } from '../../../plugins/login-guard.ts';
import type { SecondFactorProof } from '../../../plugins/two-factor.ts';
import { twoFactorChallengesRepository } from '../../../repositories/two-factor-challenges.ts';
import { recoveryCodesRepository } from '../../../repositories/recovery-codes.ts';
import { usersRepository } from '../../../repositories/users.ts';
import { TWO_FACTOR_CHALLENGE } from './login.ts';
import { InvalidInput } from '../../../refusals.ts';

type Attempt =
  | { kind: 'signedIn'; session: SessionResponse; recoveryCodesLeft?: number }
  | { kind: 'dead' }
  | { kind: 'refused'; sentence: string };

/**
 * POST /api/security/two_factor_login/ — the interim token of login with the authenticator code, or with
 * one of the recovery codes (spent by signing in; the owner is mailed). A token that expired, was used, or
 * ran out of tries answers 401 "Session expired": the web app then returns to the login screen, which is
 * where the trader has to start again.
 */
export default async function twoFactorLoginRoute(app: FastifyInstance) {
  app.post('/security/two_factor_login/', { onRequest: app.securityRateLimit }, async (request) => {
    const body = parseBody(twoFactorLoginRequest, request.body);
    const now = app.now();
    const tokenHash = hashToken(body.token);
    const proof: SecondFactorProof =
      body.recovery_code !== undefined ? { kind: 'recovery', code: body.recovery_code } : { kind: 'authenticator', code: body.code ?? '' };

    const pending = await twoFactorChallengesRepository(app.db).findOpen(tokenHash, now);
    if (!pending) throw sessionExpired();
    const signIn = { key: accountKey({ id: pending.user_id }, ''), client: clientAddress(request) };
    await app.loginGuard.assertOpen(signIn);

    // The challenge row stays locked while the code is checked, so concurrent guesses are counted one by one.
    // Inside the transaction only `tx` may be used: PGlite has one connection, and the transaction holds it.
    const attempt = await app.db.transaction(async (tx): Promise<Attempt> => {
      const challenges = twoFactorChallengesRepository(tx);
      const challenge = await challenges.lockOpen(tokenHash, now);
      if (!challenge) return { kind: 'dead' };
      const user = await usersRepository(tx).findById(challenge.user_id);
      if (!user?.totp_secret) {
        // Two-factor was switched off since the password step: the interim token no longer means anything.
        await challenges.close(challenge.id, now);
        return { kind: 'dead' };
      }
      const outcome = await app.twoFactor.spend(tx, { id: user.id, totp_secret: user.totp_secret }, proof);
      if (outcome.ok) {
        await challenges.close(challenge.id, now);
        const session = await app.sessions.open(tx, user, body.device || challenge.device);
        return { kind: 'signedIn', session, ...(outcome.kind === 'recovery' ? { recoveryCodesLeft: await recoveryCodesRepository(tx).left(user.id) } : {}) };
      }
      const { failed_attempts } = await challenges.recordFailure(challenge.id);
      if (failed_attempts >= TWO_FACTOR_CHALLENGE.maxTries) {
        await challenges.close(challenge.id, now);
        return { kind: 'refused', sentence: sentences.tooManyAuthenticatorCodes };
      }
      if (outcome.reason === 'replayed') return { kind: 'refused', sentence: sentences.authenticatorCodeUsed };
      return { kind: 'refused', sentence: proof.kind === 'recovery' ? sentences.invalidRecoveryCode : sentences.invalidAuthenticatorCode };
    });

    if (attempt.kind === 'dead') throw sessionExpired();
    if (attempt.kind === 'refused') {
      // A wrong second factor counts towards the account's lockout like a wrong password.
      await app.loginGuard.recordFailure(signIn);
      throw new InvalidInput(attempt.sentence);
    }
    await app.loginGuard.clear(signIn);
    if (attempt.recoveryCodesLeft !== undefined) {
      app.mailer.sendInBackground(
        securityMail(attempt.session.user, { kind: 'recoveryCodeUsed', left: attempt.recoveryCodesLeft }, app.now()),
      );
    }
    return ok(sessionResponse, attempt.session);
  });
}
