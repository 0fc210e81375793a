import type { FastifyInstance } from 'fastify';
import { registerRequest, sessionResponse } from '../../../../../contracts/security.ts';
import { uniqueViolation } from '../../../db/db.ts';
import { parseBody } from '../../../http/parse-body.ts';
import { ok } from '../../../http/reply.ts';
import { sentences } from '../../../sentences.ts';
import { emailCodesRepository } from '../../../repositories/email-codes.ts';
import { usersRepository } from '../../../repositories/users.ts';
import { NotAllowed, StateConflict } from '../../../refusals.ts';

/** server-rules.md: register accepts an address verified through validate_email this recently. */
export const EMAIL_VERIFICATION_VALID_MS = 30 * 60_000;

/** POST /api/security/register/ — creates the account on a freshly verified email and signs it in. */
export default async function registerRoute(app: FastifyInstance) {
  app.post('/security/register/', { onRequest: app.securityRateLimit }, async (request) => {
    const body = parseBody(registerRequest, request.body);
    const now = app.now();
    const users = usersRepository(app.db);

    const verifiedSince = new Date(now.getTime() - EMAIL_VERIFICATION_VALID_MS);
    if (!(await emailCodesRepository(app.db).isVerifiedSince(body.email, verifiedSince))) {
      throw new NotAllowed(sentences.emailNotVerified);
    }
    if (await users.emailExists(body.email)) throw new StateConflict(sentences.emailTaken);
    if (await users.usernameExists(body.username)) throw new StateConflict(sentences.usernameTaken);

    // Hash before the transaction: argon2 takes tens of milliseconds and needs no lock.
    const passwordHash = await app.passwords.hash(body.password);
    try {
      const session = await app.db.transaction(async (tx) => {
        const user = await usersRepository(tx).insert({
          username: body.username,
          email: body.email,
          passwordHash,
          now,
        });
        await emailCodesRepository(tx).consumeVerification(body.email);
        return app.sessions.open(tx, user, body.device);
      });
      return ok(sessionResponse, session);
    } catch (error) {
      // Two registrations racing past the checks above: the unique indexes decide, with the same sentences.
      const constraint = uniqueViolation(error);
      if (constraint === 'users_email_key') throw new StateConflict(sentences.emailTaken);
      if (constraint === 'users_username_key') throw new StateConflict(sentences.usernameTaken);
      throw error;
    }
  });
}
