import {
  messageResponse,
  recoveryCodesResponse,
  twoFactorRequest,
  twoFactorSetupResponse,
  twoFactorStatusResponse,
} from '../../../contracts/security.ts';
import { clientAddress } from '../infra/http/client-address.ts';
import { defineSecurityCall, envelope, info, MESSAGE, named } from '../infra/http/call.ts';
import { ok } from '../infra/http/reply.ts';
import { signedIn } from './sessions.plugin.ts';

/** POST /api/security/two_factor/ (signed in) — status, setup, enable, disable and new recovery codes. */
export default defineSecurityCall({
  method: 'post',
  path: '/api/security/two_factor/',
  tag: 'Security',
  summary: 'Two-factor authentication',
  description:
    '`status` → `{enabled, recovery_codes_left}`. `setup` → `{secret, otpauth_url}`, a pending secret (409 when already on). `enable` → the message and 10 recovery codes, shown only in this answer. `disable` → "Two-factor authentication is now off." (an authenticator or a recovery code). `recovery_codes` → a new set. Every change asks for the password again: 400 "The password is not correct.", counted towards the sign-in lockout (429).',
  access: 'session',
  request: named('TwoFactorRequest', twoFactorRequest),
  answer: envelope(
    info(named('TwoFactorStatus', twoFactorStatusResponse), 'status'),
    info(named('TwoFactorSetup', twoFactorSetupResponse), 'setup'),
    info(named('RecoveryCodes', recoveryCodesResponse), 'enable', 'recovery_codes'),
    info(MESSAGE, 'disable'),
  ),
  refusals: [409],
  compress: false,
  handle: async ({ app, request, body }) => {
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
  },
});
