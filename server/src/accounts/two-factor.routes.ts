import type { FastifyInstance } from 'fastify';
import {
  messageResponse,
  recoveryCodesResponse,
  twoFactorRequest,
  twoFactorSetupResponse,
  twoFactorStatusResponse,
} from '../../../contracts/security.ts';
import { clientAddress } from '../infra/http/client-address.ts';
import { parseBody } from '../infra/http/parse-body.ts';
import { ok } from '../infra/http/reply.ts';
import { signedIn } from './sessions.plugin.ts';
import { SECRET_ANSWER } from '../infra/api-compression.plugin.ts';

/** POST /api/security/two_factor/ (signed in) — status, setup, enable, disable and new recovery codes. */
export default async function twoFactorRoute(app: FastifyInstance) {
  app.post('/security/two_factor/', { onRequest: app.securityRateLimit, ...SECRET_ANSWER }, async (request) => {
    const body = parseBody(twoFactorRequest, request.body);
    const owner = { userId: signedIn(request).userId, client: clientAddress(request) };
    switch (body.type) {
      case 'status':
        return ok(twoFactorStatusResponse, await app.accounts.twoFactorStatus(owner.userId));
      case 'setup':
        return ok(twoFactorSetupResponse, await app.accounts.startTwoFactorSetup(owner.userId));
      case 'enable':
        return ok(recoveryCodesResponse, await app.accounts.enableTwoFactor(owner, body));
      case 'disable':
        return ok(messageResponse, await app.accounts.disableTwoFactor(owner, body));
      case 'recovery_codes':
        return ok(recoveryCodesResponse, await app.accounts.renewRecoveryCodes(owner, body));
    }
  });
}
