import type { FastifyInstance } from 'fastify';
import {
  messageResponse,
  twoFactorRequest,
  twoFactorSetupResponse,
  twoFactorStatusResponse,
} from '../../../../../contracts/security.ts';
import { clientAddress } from '../../../http/client-address.ts';
import { badRequest, conflict } from '../../../http/errors.ts';
import { parseBody } from '../../../http/parse-body.ts';
import { ok } from '../../../http/reply.ts';
import { sentences } from '../../../http/sentences.ts';
import { newTotpSecret, totpUri } from '../../../lib/totp.ts';
import { sessionExpired, signedIn } from '../../../plugins/auth.ts';
import { accountKey } from '../../../plugins/login-guard.ts';
import type { TotpOutcome } from '../../../plugins/two-factor.ts';
import { usersRepository } from '../../../repositories/users.ts';

/**
 * POST /api/security/two_factor/ (signed in, contract.md) — status, setup (a pending secret), enable and
 * disable (each proven by a current code). Wrong codes count towards the account's sign-in lockout, so
 * a stolen session cannot grind through codes to switch two-factor off.
 */
export default async function twoFactorRoute(app: FastifyInstance) {
  app.post('/security/two_factor/', { onRequest: app.securityRateLimit }, async (request) => {
    const body = parseBody(twoFactorRequest, request.body);
    const users = usersRepository(app.db);
    const user = await users.findById(signedIn(request).userId);
    if (!user) throw sessionExpired();
    const enabled = user.totp_secret !== null;
    const attempt = { key: accountKey(user, user.username), client: clientAddress(request) };

    const refuseWrongCode = async (outcome: TotpOutcome & { ok: false }): Promise<never> => {
      await app.loginGuard.recordFailure(attempt);
      throw badRequest(outcome.reason === 'replayed' ? sentences.authenticatorCodeUsed : sentences.invalidAuthenticatorCode);
    };

    switch (body.type) {
      case 'status':
        return ok(twoFactorStatusResponse, { enabled });

      case 'setup': {
        if (enabled) throw conflict(sentences.twoFactorAlreadyOn);
        const secret = newTotpSecret();
        await users.setPendingTotpSecret(user.id, app.keys.seal(secret));
        return ok(twoFactorSetupResponse, { secret, otpauth_url: totpUri(secret, user.username) });
      }

      case 'enable': {
        if (enabled) throw conflict(sentences.twoFactorAlreadyOn);
        if (user.totp_pending_secret === null) throw conflict(sentences.twoFactorSetupFirst);
        await app.loginGuard.assertOpen(attempt);
        const outcome = await app.twoFactor.check(user.totp_pending_secret, body.code);
        if (!outcome.ok) return refuseWrongCode(outcome);
        await users.enableTotp(user.id, outcome.step);
        return ok(messageResponse, sentences.twoFactorEnabled);
      }

      case 'disable': {
        if (user.totp_secret === null) throw conflict(sentences.twoFactorNotOn);
        await app.loginGuard.assertOpen(attempt);
        const outcome = await app.twoFactor.spend(user.id, user.totp_secret, body.code);
        if (!outcome.ok) return refuseWrongCode(outcome);
        await users.disableTotp(user.id);
        return ok(messageResponse, sentences.twoFactorDisabled);
      }
    }
  });
}
