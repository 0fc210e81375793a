import type { FastifyInstance } from 'fastify';
import { messageResponse, validateEmailRequest } from '../../../contracts/security.ts';
import { parseBody } from '../infra/http/parse-body.ts';
import { ok } from '../infra/http/reply.ts';

/** POST /api/security/validate_email/ — signup's first two steps: mail a code, then prove it. */
export default async function validateEmailRoute(app: FastifyInstance) {
  app.post('/security/validate_email/', { onRequest: app.securityRateLimit }, async (request) => {
    const body = parseBody(validateEmailRequest, request.body);
    return ok(
      messageResponse,
      body.type === 'request' ? await app.accounts.requestSignupCode(body.email) : await app.accounts.verifySignupCode(body.email, body.code),
    );
  });
}
