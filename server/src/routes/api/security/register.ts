import type { FastifyInstance } from 'fastify';
import { registerRequest, sessionResponse } from '../../../../../contracts/security.ts';
import { clientAddress } from '../../../http/client-address.ts';
import { parseBody } from '../../../http/parse-body.ts';
import { ok } from '../../../http/reply.ts';
import { SECRET_ANSWER } from '../../../plugins/api-compression.ts';

/** POST /api/security/register/ — creates the account on a freshly verified email and signs it in. */
export default async function registerRoute(app: FastifyInstance) {
  app.post('/security/register/', { onRequest: app.securityRateLimit, ...SECRET_ANSWER }, async (request) =>
    ok(sessionResponse, await app.accounts.register(parseBody(registerRequest, request.body), clientAddress(request))),
  );
}
