import type { FastifyInstance } from 'fastify';
import { messageResponse, resetPasswordRequest } from '../../../contracts/security.ts';
import { parseBody } from '../infra/http/parse-body.ts';
import { ok } from '../infra/http/reply.ts';

/** POST /api/security/reset_password/ — request a code, then set a new password with it. */
export default async function resetPasswordRoute(app: FastifyInstance) {
  app.post('/security/reset_password/', { onRequest: app.securityRateLimit }, async (request) => {
    const body = parseBody(resetPasswordRequest, request.body);
    return ok(messageResponse, body.type === 'request' ? await app.accounts.requestPasswordReset(body.email) : await app.accounts.resetPassword(body));
  });
}
