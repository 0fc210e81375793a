import { allowlistRequest, allowlistStatus } from '../../../contracts/account-protections.ts';
import { defineSecurityCall, envelope, info, named } from '../infra/http/call.ts';
import { ok } from '../infra/http/reply.ts';
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
  request: named('AllowlistRequest', allowlistRequest),
  answer: envelope(info(named('AllowlistStatus', allowlistStatus))),
  refusals: [404, 409],
  handle: async ({ app, request, body }) => {
    const caller = signedInCaller(request);
    switch (body.type) {
      case 'status':
        return ok(allowlistStatus, await app.protections.allowlistStatus(caller.userId));
      case 'enable':
        return ok(allowlistStatus, await app.protections.enableAllowlist(caller.userId));
      case 'disable':
        return ok(allowlistStatus, await app.protections.disableAllowlist(caller, body.password));
      case 'add':
        return ok(allowlistStatus, await app.protections.addToAllowlist(caller, body));
      case 'remove':
        return ok(allowlistStatus, await app.protections.removeFromAllowlist(caller.userId, body.id));
    }
  },
});
