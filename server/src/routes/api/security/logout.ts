import type { FastifyInstance } from 'fastify';
import { logoutRequest, messageResponse } from '../../../../../contracts/security.ts';
import { parseBody } from '../../../http/parse-body.ts';
import { ok } from '../../../http/reply.ts';
import { sentences } from '../../../sentences.ts';
import { signedIn } from '../../../plugins/auth.ts';

/** POST /api/security/logout/ (signed in) — ends the calling session only; the trader's other devices stay signed in. */
export default async function logoutRoute(app: FastifyInstance) {
  app.post('/security/logout/', { onRequest: app.securityRateLimit }, async (request) => {
    parseBody(logoutRequest, request.body);
    await app.sessions.revoke(signedIn(request).id);
    return ok(messageResponse, sentences.loggedOut);
  });
}
