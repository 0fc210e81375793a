import {
  messageResponse,
  recoveryCodesResponse,
  twoFactorRequest,
  twoFactorSetupResponse,
  twoFactorStatusResponse,
} from '../../../contracts/security.ts';
import { clientAddress } from '../infra/http/client-address.ts';
import { byType, defineSecurityCall } from '../infra/http/call.ts';
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
  request: twoFactorRequest,
  answer: byType({
    status: twoFactorStatusResponse,
    setup: twoFactorSetupResponse,
    enable: recoveryCodesResponse,
    disable: messageResponse,
    recovery_codes: recoveryCodesResponse,
  }),
  refusals: [409],
  compress: false,
  handlers: ({ app, request }) => {
    const owner = { userId: signedIn(request).userId, client: clientAddress(request) };
    return {
      status: () => app.accounts.twoFactorStatus(owner.userId),
      setup: () => app.accounts.startTwoFactorSetup(owner.userId),
      enable: (body) => app.accounts.enableTwoFactor(owner, body),
      disable: (body) => app.accounts.disableTwoFactor(owner, body),
      recovery_codes: (body) => app.accounts.renewRecoveryCodes(owner, body),
    };
  },
});
