import type { FastifyInstance } from 'fastify';
import { loginRequest, loginResponse } from '../../../../../contracts/security.ts';
import { clientAddress } from '../../../http/client-address.ts';
import { parseBody } from '../../../http/parse-body.ts';
import { ok } from '../../../http/reply.ts';
import { SECRET_ANSWER } from '../../../plugins/api-compression.ts';

/** POST /api/security/login/ — username (or email) and password; with two-factor on, an interim token. */
export default async function loginRoute(app: FastifyInstance) {
  app.post('/security/login/', { onRequest: app.securityRateLimit, ...SECRET_ANSWER }, async (request) =>
    ok(loginResponse, await app.accounts.signIn(parseBody(loginRequest, request.body), clientAddress(request))),
  );
}
