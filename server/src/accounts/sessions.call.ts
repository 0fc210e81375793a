import { sessionsRequest, signInHistory, signOutOthersResponse } from '../../../contracts/account-protections.ts';
import { byType, defineSecurityCall } from '../infra/http/call.ts';
import { signedInCaller } from './sessions.plugin.ts';

/** POST /api/security/sessions/ (signed in) — the sign-in history, and "Sign out everywhere else". */
export default defineSecurityCall({
  method: 'post',
  path: '/api/security/sessions/',
  tag: 'Account protections',
  summary: 'Sign-in history',
  description:
    '`list` → the newest 20 sign-ins of the account, newest first; `current` marks the calling session, `active` is false once it ended. `sign_out_others` → `{message, signed_out}`: every other live session ends, the calling one stays.',
  access: 'session',
  request: sessionsRequest,
  answer: byType({ list: signInHistory, sign_out_others: signOutOthersResponse }),
  handlers: ({ app, request }) => {
    const caller = signedInCaller(request);
    return {
      list: () => app.protections.signInHistory(caller),
      sign_out_others: () => app.protections.signOutOthers(caller),
    };
  },
});
