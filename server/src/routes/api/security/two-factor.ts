import type { FastifyInstance } from 'fastify';
import {
  messageResponse,
  recoveryCodesResponse,
  twoFactorRequest,
  twoFactorSetupResponse,
  twoFactorStatusResponse,
} from '../../../../../contracts/security.ts';
import { clientAddress } from '../../../http/client-address.ts';
import { parseBody } from '../../../http/parse-body.ts';
import { ok } from '../../../http/reply.ts';
import { signedIn } from '../../../plugins/auth.ts';
import { SECRET_ANSWER } from '../../../plugins/api-compression.ts';

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
