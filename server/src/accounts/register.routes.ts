import type { FastifyInstance } from 'fastify';
import { registerRequest, sessionResponse } from '../../../contracts/security.ts';
import { clientAddress } from '../infra/http/client-address.ts';
import { parseBody } from '../infra/http/parse-body.ts';
import { ok } from '../infra/http/reply.ts';
import { SECRET_ANSWER } from '../infra/api-compression.plugin.ts';

/** POST /api/security/register/ — creates the account on a freshly verified email and signs it in. */
export default async function registerRoute(app: FastifyInstance) {
  app.post('/security/register/', { onRequest: app.securityRateLimit, ...SECRET_ANSWER }, async (request) =>
    ok(sessionResponse, await app.accounts.register(parseBody(registerRequest, request.body), clientAddress(request))),
  );
}
