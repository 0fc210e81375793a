import type { FastifyInstance } from 'fastify';
import { messageResponse, validateEmailRequest } from '../../../../../contracts/security.ts';
import { parseBody } from '../../../http/parse-body.ts';
import { ok } from '../../../http/reply.ts';
import { sentences } from '../../../sentences.ts';
import { codeMail } from '../../../lib/mail.ts';
import { EMAIL_CODE_RULES } from '../../../plugins/email-codes.ts';
import { emailCodesRepository } from '../../../repositories/email-codes.ts';
import { usersRepository } from '../../../repositories/users.ts';
import { StateConflict, Unavailable } from '../../../refusals.ts';

/**
 * POST /api/security/validate_email/ — signup's first two steps: mail a code, then prove it.
 * Signup may say that an address is taken (the flow cannot go on otherwise); password reset never does.
 */
export default async function validateEmailRoute(app: FastifyInstance) {
  app.post('/security/validate_email/', { onRequest: app.securityRateLimit }, async (request) => {
    const body = parseBody(validateEmailRequest, request.body);

    if (body.type === 'request') {
      if (await usersRepository(app.db).emailExists(body.email)) throw new StateConflict(sentences.emailTaken);
      const code = await app.emailCodes.issue(body.email, 'signup');
      try {
        await app.mailer.send(codeMail('signup', body.email, code, EMAIL_CODE_RULES.validMinutes));
      } catch (error) {
        request.log.error({ err: error }, 'signup code mail failed');
        throw new Unavailable(sentences.mailFailed);
      }
      return ok(messageResponse, sentences.codeSent(body.email));
    }

    await app.emailCodes.redeem(body.email, 'signup', body.code, (tx) =>
      emailCodesRepository(tx).markVerified(body.email, app.now()),
    );
    return ok(messageResponse, sentences.emailVerified);
  });
}
