import type { FastifyInstance } from 'fastify';
import { logoutRequest, messageResponse } from '../../../../../contracts/security.ts';
import { parseBody } from '../../../http/parse-body.ts';
import { ok } from '../../../http/reply.ts';
import { signedIn } from '../../../plugins/auth.ts';

/** POST /api/security/logout/ (signed in) — ends the calling session only. */
export default async function logoutRoute(app: FastifyInstance) {
  app.post('/security/logout/', { onRequest: app.securityRateLimit }, async (request) => {
    parseBody(logoutRequest, request.body);
    return ok(messageResponse, await app.accounts.signOut(signedIn(request).id));
  });
}
