import type { FastifyInstance } from 'fastify';
import { sessionResponse, twoFactorLoginRequest } from '../../../../../contracts/security.ts';
import { clientAddress } from '../../../http/client-address.ts';
import { parseBody } from '../../../http/parse-body.ts';
import { ok } from '../../../http/reply.ts';
import { SECRET_ANSWER } from '../../../plugins/api-compression.ts';

/** POST /api/security/two_factor_login/ — the interim token of login with an authenticator or recovery code. */
export default async function twoFactorLoginRoute(app: FastifyInstance) {
  app.post('/security/two_factor_login/', { onRequest: app.securityRateLimit, ...SECRET_ANSWER }, async (request) =>
    ok(sessionResponse, await app.accounts.completeSignIn(parseBody(twoFactorLoginRequest, request.body), clientAddress(request))),
  );
}
