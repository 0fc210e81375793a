import { allowlistRequest, allowlistStatus } from '../../../contracts/account-protections.ts';
import { defineSecurityCall, envelope } from '../infra/http/call.ts';
import { signedInCaller } from './sessions.plugin.ts';

/** POST /api/security/withdrawal_allowlist/ (signed in) — status, enable, disable, add and remove. */
export default defineSecurityCall({
  method: 'post',
  path: '/api/security/withdrawal_allowlist/',
  tag: 'Account protections',
  summary: 'Withdrawal allowlist',
  description:
    'Every type answers `{enabled, enforced_until, addresses}`. `enable` and `remove` apply at once; `disable` and `add` ask for the password and widen where coins may go only after 24 hours. 404 "This address is not on your withdrawal allowlist."; 409 when already off, already listed, or at 50 addresses.',
  access: 'trader',
  request: allowlistRequest,
  answer: envelope(allowlistStatus),
  refusals: [404, 409],
  handlers: ({ app, request }) => {
    const caller = signedInCaller(request);
    return {
      status: () => app.protections.allowlistStatus(caller.userId),
      enable: () => app.protections.enableAllowlist(caller.userId),
      disable: (body) => app.protections.disableAllowlist(caller, body.password),
      add: (body) => app.protections.addToAllowlist(caller, body),
      remove: (body) => app.protections.removeFromAllowlist(caller.userId, body.id),
    };
  },
});
