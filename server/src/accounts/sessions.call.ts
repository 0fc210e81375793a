import { sessionsRequest, signInHistory, signOutOthersResponse } from '../../../contracts/account-protections.ts';
import { defineSecurityCall, envelope, info, named } from '../infra/http/call.ts';
import { ok } from '../infra/http/reply.ts';
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
  request: named('SessionsRequest', sessionsRequest),
  answer: envelope(info(named('SignInHistory', signInHistory), 'list'), info(named('SignOutOthers', signOutOthersResponse), 'sign_out_others')),
  handle: async ({ app, request, body }) => {
    const caller = signedInCaller(request);
    switch (body.type) {
      case 'list':
        return ok(signInHistory, await app.protections.signInHistory(caller));
      case 'sign_out_others':
        return ok(signOutOthersResponse, await app.protections.signOutOthers(caller));
    }
  },
});
