import type { FastifyInstance } from 'fastify';
import { allowlistRequest, allowlistStatus } from '../../../contracts/account-protections.ts';
import { clientAddress } from '../infra/http/client-address.ts';
import { parseBody } from '../infra/http/parse-body.ts';
import { ok } from '../infra/http/reply.ts';
import { signedIn } from './sessions.plugin.ts';

/** POST /api/security/withdrawal_allowlist/ (signed in) — status, enable, disable, add and remove. */
export default async function withdrawalAllowlistRoute(app: FastifyInstance) {
  app.post('/security/withdrawal_allowlist/', { onRequest: app.securityRateLimit }, async (request) => {
    const body = parseBody(allowlistRequest, request.body);
    const session = signedIn(request);
    const caller = { sessionId: session.id, userId: session.userId, client: clientAddress(request) };
    switch (body.type) {
      case 'status':
        return ok(allowlistStatus, await app.protections.allowlistStatus(caller.userId));
      case 'enable':
        return ok(allowlistStatus, await app.protections.enableAllowlist(caller.userId));
      case 'disable':
        return ok(allowlistStatus, await app.protections.disableAllowlist(caller, body.password));
      case 'add':
        return ok(allowlistStatus, await app.protections.addToAllowlist(caller, body));
      case 'remove':
        return ok(allowlistStatus, await app.protections.removeFromAllowlist(caller.userId, body.id));
    }
  });
}
