import type { FastifyInstance } from 'fastify';
import { sessionsRequest, signInHistory, signOutOthersResponse } from '../../../contracts/account-protections.ts';
import { clientAddress } from '../infra/http/client-address.ts';
import { parseBody } from '../infra/http/parse-body.ts';
import { ok } from '../infra/http/reply.ts';
import { signedIn } from './sessions.plugin.ts';

/** POST /api/security/sessions/ (signed in) — the sign-in history, and "Sign out everywhere else". */
export default async function sessionsRoute(app: FastifyInstance) {
  app.post('/security/sessions/', { onRequest: app.securityRateLimit }, async (request) => {
    const body = parseBody(sessionsRequest, request.body);
    const session = signedIn(request);
    const caller = { sessionId: session.id, userId: session.userId, client: clientAddress(request) };
    switch (body.type) {
      case 'list':
        return ok(signInHistory, await app.protections.signInHistory(caller));
      case 'sign_out_others':
        return ok(signOutOthersResponse, await app.protections.signOutOthers(caller));
    }
  });
}
