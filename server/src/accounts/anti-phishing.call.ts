import { antiPhishingRequest, antiPhishingStatus } from '../../../contracts/account-protections.ts';
import { defineSecurityCall, envelope } from '../infra/http/call.ts';
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
  request: antiPhishingRequest,
  answer: envelope(antiPhishingStatus),
  handlers: ({ app, request }) => {
    const caller = signedInCaller(request);
    return {
      status: () => app.protections.antiPhishingStatus(caller.userId),
      set: (body) => app.protections.setAntiPhishingCode(caller, body.anti_phishing_code, body.password),
      clear: (body) => app.protections.clearAntiPhishingCode(caller, body.password),
    };
  },
});
