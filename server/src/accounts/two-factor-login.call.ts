import { sessionResponse, twoFactorLoginRequest } from '../../../contracts/security.ts';
import { clientAddress } from '../infra/http/client-address.ts';
import { defineSecurityCall, envelope } from '../infra/http/call.ts';
import { ok } from '../infra/http/reply.ts';

/** POST /api/security/two_factor_login/ — the interim token of login with an authenticator or recovery code. */
export default defineSecurityCall({
  method: 'post',
  path: '/api/security/two_factor_login/',
  tag: 'Security',
  summary: 'Second factor of a sign-in',
  description:
    'The interim token of login with exactly one of `code` (6 digits) and `recovery_code` (`abcde-fghij`; case, spaces and dashes don\'t matter). 400 for a wrong or used code; 403 "This account is suspended. Please contact support." when an operator suspended it since the password step; 409 "This sign-in has expired. Please enter your username and password again." or "Too many wrong codes. Please sign in again." (409, not 401: the person has no session yet); 429 when the account is locked.',
  access: 'public',
  request: twoFactorLoginRequest,
  answer: envelope(sessionResponse),
  refusals: [403, 409],
  compress: false,
  handle: async ({ app, request, body }) => ok(sessionResponse, await app.accounts.completeSignIn(body, clientAddress(request))),
});
