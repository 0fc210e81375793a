import type { FastifyInstance } from 'fastify';
import { loginRequest, loginResponse } from '../../../../../contracts/security.ts';
import { clientAddress } from '../../../http/client-address.ts';
import { parseBody } from '../../../http/parse-body.ts';
import { ok } from '../../../http/reply.ts';
import { sentences } from '../../../sentences.ts';
import { hashToken, newToken } from '../../../lib/secrets.ts';
import { accountKey } from '../../../plugins/login-guard.ts';
import { twoFactorChallengesRepository } from '../../../repositories/two-factor-challenges.ts';
import { usersRepository } from '../../../repositories/users.ts';
import { InvalidInput } from '../../../refusals.ts';

/** server-rules.md: the interim token between password and authenticator code. */
export const TWO_FACTOR_CHALLENGE = Object.freeze({ lifetimeMs: 5 * 60_000, maxTries: 5 });

/**
 * POST /api/security/login/ — username (or email) and password. Unknown names and wrong passwords get
 * the same sentence after the same argon2 work; with two-factor on, the answer is an interim token.
 */
export default async function loginRoute(app: FastifyInstance) {
  app.post('/security/login/', { onRequest: app.securityRateLimit }, async (request) => {
    const body = parseBody(loginRequest, request.body);
    const users = usersRepository(app.db);
    const user = await users.findByLogin(body.username);
    const attempt = { key: accountKey(user, body.username), client: clientAddress(request) };
    await app.loginGuard.assertOpen(attempt);

    const passwordOk = await app.passwords.verify(user?.password_hash, body.password);
    if (!user || !passwordOk) {
      await app.loginGuard.recordFailure(attempt);
      throw new InvalidInput(sentences.invalidCredentials);
    }
    if (app.passwords.needsRehash(user.password_hash)) {
      await users.setPasswordHash(user.id, await app.passwords.hash(body.password));
    }

    if (user.totp_secret !== null) {
      // Failures are forgiven only after the second factor, which counts towards the same lockout.
      const token = newToken();
      const now = app.now();
      await twoFactorChallengesRepository(app.db).insert({
        userId: user.id,
        tokenHash: hashToken(token),
        device: body.device,
        now,
        expiresAt: new Date(now.getTime() + TWO_FACTOR_CHALLENGE.lifetimeMs),
      });
      return ok(loginResponse, { two_factor: true, token, user: { username: user.username } });
    }

    await app.loginGuard.clear(attempt);
    const session = await app.db.transaction((tx) => app.sessions.open(tx, user, body.device));
    return ok(loginResponse, { two_factor: false, ...session });
  });
}
