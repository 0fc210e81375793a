import { antiPhishingRequest, antiPhishingStatus } from '../../../contracts/account-protections.ts';
import { defineSecurityCall, envelope, info, named } from '../infra/http/call.ts';
import { ok } from '../infra/http/reply.ts';
import { signedInCaller } from './sessions.plugin.ts';

/** POST /api/security/anti_phishing/ (signed in) — the code every mail to the account carries: status, set, clear. */
export default defineSecurityCall({
  method: 'post',
  path: '/api/security/anti_phishing/',
  tag: 'Account protections',
  summary: 'Anti-phishing code',
  description:
    'The code printed in every mail to the account. Every type answers `{anti_phishing_code}` (null: none). `set` takes 4–20 letters, digits, spaces, `-` and `_`, and the password; `clear` takes the password.',
  access: 'session',
  request: named('AntiPhishingRequest', antiPhishingRequest),
  answer: envelope(info(named('AntiPhishingStatus', antiPhishingStatus))),
  handle: async ({ app, request, body }) => {
    const caller = signedInCaller(request);
    switch (body.type) {
      case 'status':
        return ok(antiPhishingStatus, await app.protections.antiPhishingStatus(caller.userId));
      case 'set':
        return ok(antiPhishingStatus, await app.protections.setAntiPhishingCode(caller, body.anti_phishing_code, body.password));
      case 'clear':
        return ok(antiPhishingStatus, await app.protections.clearAntiPhishingCode(caller, body.password));
    }
  },
});
