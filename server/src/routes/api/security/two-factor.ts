import type { FastifyInstance } from 'fastify';
import {
  messageResponse,
  recoveryCodesResponse,
  twoFactorRequest,
  twoFactorSetupResponse,
  twoFactorStatusResponse,
} from '../../../../../contracts/security.ts';
import { clientAddress } from '../../../http/client-address.ts';
import { parseBody } from '../../../http/parse-body.ts';
import { ok } from '../../../http/reply.ts';
import { sentences } from '../../../sentences.ts';
import { securityMail, type SecurityEvent } from '../../../lib/account-mails.ts';
import { newTotpSecret, totpUri } from '../../../lib/totp.ts';
import { sessionExpired, signedIn } from '../../../plugins/auth.ts';
import { accountKey } from '../../../plugins/login-guard.ts';
import { proofOf, type SecondFactorOutcome, type TotpOutcome } from '../../../plugins/two-factor.ts';
import { recoveryCodesRepository } from '../../../repositories/recovery-codes.ts';
import { usersRepository } from '../../../repositories/users.ts';
import { InvalidInput, StateConflict } from '../../../refusals.ts';

/**
 * POST /api/security/two_factor/ (signed in, contract.md) — status, setup (a pending secret), enable (the
 * pending secret's code), disable and a new set of recovery codes (an authenticator or a recovery code).
 * Every change also asks for the account's password, so a stolen session alone can change nothing, and
 * mails the owner. Wrong passwords and codes count towards the sign-in lockout, so a stolen session cannot
 * grind through them either.
 */
export default async function twoFactorRoute(app: FastifyInstance) {
  app.post('/security/two_factor/', { onRequest: app.securityRateLimit }, async (request) => {
    const body = parseBody(twoFactorRequest, request.body);
    const users = usersRepository(app.db);
    const user = await users.findById(signedIn(request).userId);
    if (!user) throw sessionExpired();
    const enabled = user.totp_secret !== null;
    const attempt = { key: accountKey(user, user.username), client: clientAddress(request) };

    /** The password first: a wrong one is refused before any code is looked at (or spent). */
    const assertPassword = async (password: string) => {
      await app.loginGuard.assertOpen(attempt);
      if (!(await app.passwords.verify(user.password_hash, password))) {
        await app.loginGuard.recordFailure(attempt);
        throw new InvalidInput(sentences.wrongPassword);
      }
    };
    const refuseWrongCode = async (outcome: (TotpOutcome | SecondFactorOutcome) & { ok: false }, recovery = false): Promise<never> => {
      await app.loginGuard.recordFailure(attempt);
      if (outcome.reason === 'replayed') throw new InvalidInput(sentences.authenticatorCodeUsed);
      throw new InvalidInput(recovery ? sentences.invalidRecoveryCode : sentences.invalidAuthenticatorCode);
    };
    const tellOwner = (event: SecurityEvent) => app.mailer.sendInBackground(securityMail(user, event, app.now()));

    switch (body.type) {
      case 'status':
        return ok(twoFactorStatusResponse, { enabled, recovery_codes_left: enabled ? await app.twoFactor.recoveryCodesLeft(user.id) : 0 });

      case 'setup': {
        if (enabled) throw new StateConflict(sentences.twoFactorAlreadyOn);
        const secret = newTotpSecret();
        await users.setPendingTotpSecret(user.id, app.keys.seal(secret));
        return ok(twoFactorSetupResponse, { secret, otpauth_url: totpUri(secret, user.username) });
      }

      case 'enable': {
        if (enabled) throw new StateConflict(sentences.twoFactorAlreadyOn);
        if (user.totp_pending_secret === null) throw new StateConflict(sentences.twoFactorSetupFirst);
        await assertPassword(body.password);
        const outcome = await app.twoFactor.check(user.totp_pending_secret, body.code);
        if (!outcome.ok) return refuseWrongCode(outcome);
        const codes = await app.db.transaction(async (tx) => {
          await usersRepository(tx).enableTotp(user.id, outcome.step);
          return app.twoFactor.renewRecoveryCodes(tx, user.id);
        });
        tellOwner({ kind: 'twoFactorOn' });
        return ok(recoveryCodesResponse, { message: sentences.twoFactorEnabled, recovery_codes: codes });
      }

      case 'disable':
      case 'recovery_codes': {
        if (user.totp_secret === null) throw new StateConflict(sentences.twoFactorNotOn);
        await assertPassword(body.password);
        const proof = proofOf(body.code);
        const active = { id: user.id, totp_secret: user.totp_secret };
        if (body.type === 'disable') {
          const outcome = await app.db.transaction(async (tx) => {
            const spent = await app.twoFactor.spend(tx, active, proof);
            if (spent.ok) {
              await usersRepository(tx).disableTotp(user.id);
              await recoveryCodesRepository(tx).removeAll(user.id);
            }
            return spent;
          });
          if (!outcome.ok) return refuseWrongCode(outcome, proof.kind === 'recovery');
          tellOwner({ kind: 'twoFactorOff' });
          return ok(messageResponse, sentences.twoFactorDisabled);
        }
        const renewed = await app.db.transaction(async (tx) => {
          const spent = await app.twoFactor.spend(tx, active, proof);
          return spent.ok ? { ok: true as const, codes: await app.twoFactor.renewRecoveryCodes(tx, user.id) } : spent;
        });
        if (!renewed.ok) return refuseWrongCode(renewed, proof.kind === 'recovery');
        tellOwner({ kind: 'recoveryCodesRenewed' });
        return ok(recoveryCodesResponse, { message: sentences.recoveryCodesRenewed, recovery_codes: renewed.codes });
      }
    }
  });
}
