import type { FastifyInstance } from 'fastify';
import { messageResponse, resetPasswordRequest } from '../../../../../contracts/security.ts';
import { parseBody } from '../../../http/parse-body.ts';
import { ok } from '../../../http/reply.ts';
import { sentences } from '../../../sentences.ts';
import { codeMail } from '../../../lib/mail.ts';
import { EMAIL_CODE_RULES } from '../../../plugins/email-codes.ts';
import { accountKey } from '../../../plugins/login-guard.ts';
import { sessionsRepository } from '../../../repositories/sessions.ts';
import { twoFactorChallengesRepository } from '../../../repositories/two-factor-challenges.ts';
import { usersRepository } from '../../../repositories/users.ts';
import { InvalidInput } from '../../../refusals.ts';

/**
 * POST /api/security/reset_password/ — request a code, then set a new password with it.
 * Nothing in the answers, their timing or the limits tells whether an address has an account: every
 * address gets a code stored (only real accounts get it mailed, in the background), so a guessed
 * address behaves exactly like a real one whose mail was not read.
 */
export default async function resetPasswordRoute(app: FastifyInstance) {
  app.post('/security/reset_password/', { onRequest: app.securityRateLimit }, async (request) => {
    const body = parseBody(resetPasswordRequest, request.body);
    const users = usersRepository(app.db);

    if (body.type === 'request') {
      const code = await app.emailCodes.issue(body.email, 'reset');
      if (await users.findByEmail(body.email)) {
        app.mailer.sendInBackground(codeMail('reset', body.email, code, EMAIL_CODE_RULES.validMinutes));
      }
      return ok(messageResponse, sentences.resetCodeSent(body.email));
    }

    const userId = await app.emailCodes.redeem(
      body.email,
      'reset',
      body.code,
      async (tx) => (await usersRepository(tx).findByEmail(body.email))?.id,
    );
    // Only reachable by guessing the never-mailed code of an address without an account.
    if (userId === undefined) throw new InvalidInput(sentences.invalidCode);

    const passwordHash = await app.passwords.hash(body.password);
    const now = app.now();
    await app.db.transaction(async (tx) => {
      await usersRepository(tx).setPasswordHash(userId, passwordHash);
      // Whoever held the old password may hold a session or be halfway through two-factor: end both.
      await sessionsRepository(tx).revokeAllOfUser(userId, now);
      await twoFactorChallengesRepository(tx).closeAllOfUser(userId, now);
    });
    // The owner proved control of the mailbox: earlier failed sign-ins no longer count against them.
    await app.loginGuard.forgive(accountKey({ id: userId }, ''));
    return ok(messageResponse, sentences.passwordReset);
  });
}
