import type { FastifyInstance } from 'fastify';
import { sessionResponse, twoFactorLoginRequest } from '../../../contracts/security.ts';
import { clientAddress } from '../infra/http/client-address.ts';
import { parseBody } from '../infra/http/parse-body.ts';
import { ok } from '../infra/http/reply.ts';
import { SECRET_ANSWER } from '../infra/api-compression.plugin.ts';

/** POST /api/security/two_factor_login/ — the interim token of login with an authenticator or recovery code. */
export default async function twoFactorLoginRoute(app: FastifyInstance) {
  app.post('/security/two_factor_login/', { onRequest: app.securityRateLimit, ...SECRET_ANSWER }, async (request) =>
    ok(sessionResponse, await app.accounts.completeSignIn(parseBody(twoFactorLoginRequest, request.body), clientAddress(request))),
  );
}
