import type { FastifyInstance } from 'fastify';
import { antiPhishingRequest, antiPhishingStatus } from '../../../contracts/account-protections.ts';
import { clientAddress } from '../infra/http/client-address.ts';
import { parseBody } from '../infra/http/parse-body.ts';
import { ok } from '../infra/http/reply.ts';
import { signedIn } from './sessions.plugin.ts';

/** POST /api/security/anti_phishing/ (signed in) — the code every mail to the account carries: status, set, clear. */
export default async function antiPhishingRoute(app: FastifyInstance) {
  app.post('/security/anti_phishing/', { onRequest: app.securityRateLimit }, async (request) => {
    const body = parseBody(antiPhishingRequest, request.body);
    const session = signedIn(request);
    const caller = { sessionId: session.id, userId: session.userId, client: clientAddress(request) };
    switch (body.type) {
      case 'status':
        return ok(antiPhishingStatus, await app.protections.antiPhishingStatus(caller.userId));
      case 'set':
        return ok(antiPhishingStatus, await app.protections.setAntiPhishingCode(caller, body.anti_phishing_code, body.password));
      case 'clear':
        return ok(antiPhishingStatus, await app.protections.clearAntiPhishingCode(caller, body.password));
    }
  });
}
