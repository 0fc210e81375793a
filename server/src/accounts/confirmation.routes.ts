import type { FastifyInstance } from 'fastify';
import { confirmationRequest, confirmationStatus } from '../../../contracts/security.ts';
import { parseBody } from '../infra/http/parse-body.ts';
import { ok } from '../infra/http/reply.ts';
import { signedIn } from './sessions.plugin.ts';

/**
 * POST /api/security/confirmation/ (signed in; docs/api.md "Release confirmation") — `status`: what a release by
 * this session asks for as its second proof now (the password, the authenticator code, or nothing while its
 * window is open), so the web app asks only when needed. The proof itself goes with `market/trade/` `release_coin`.
 */
export default async function confirmationRoute(app: FastifyInstance) {
  app.post('/security/confirmation/', { onRequest: app.securityRateLimit }, async (request) => {
    const body = parseBody(confirmationRequest, request.body);
    const session = signedIn(request);
    switch (body.type) {
      case 'status':
        return ok(confirmationStatus, await app.confirmation.status(session.id));
    }
  });
}
