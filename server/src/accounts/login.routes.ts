import type { FastifyInstance } from 'fastify';
import { loginRequest, loginResponse } from '../../../contracts/security.ts';
import { clientAddress } from '../infra/http/client-address.ts';
import { parseBody } from '../infra/http/parse-body.ts';
import { ok } from '../infra/http/reply.ts';
import { SECRET_ANSWER } from '../infra/api-compression.plugin.ts';

/** POST /api/security/login/ — username (or email) and password; with two-factor on, an interim token. */
export default async function loginRoute(app: FastifyInstance) {
  app.post('/security/login/', { onRequest: app.securityRateLimit, ...SECRET_ANSWER }, async (request) =>
    ok(loginResponse, await app.accounts.signIn(parseBody(loginRequest, request.body), clientAddress(request))),
  );
}
