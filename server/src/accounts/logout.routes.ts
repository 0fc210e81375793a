import type { FastifyInstance } from 'fastify';
import { logoutRequest, messageResponse } from '../../../contracts/security.ts';
import { parseBody } from '../infra/http/parse-body.ts';
import { ok } from '../infra/http/reply.ts';
import { signedIn } from './sessions.plugin.ts';

/** POST /api/security/logout/ (signed in) — ends the calling session only. */
export default async function logoutRoute(app: FastifyInstance) {
  app.post('/security/logout/', { onRequest: app.securityRateLimit }, async (request) => {
    parseBody(logoutRequest, request.body);
    return ok(messageResponse, await app.accounts.signOut(signedIn(request).id));
  });
}
