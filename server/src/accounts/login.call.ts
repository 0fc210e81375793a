import { loginRequest, loginResponse } from '../../../contracts/security.ts';
import { clientAddress } from '../infra/http/client-address.ts';
import { defineSecurityCall, envelope } from '../infra/http/call.ts';
import { ok } from '../infra/http/reply.ts';

/** POST /api/security/login/ — username (or email) and password; with two-factor on, an interim token. */
export default defineSecurityCall({
  method: 'post',
  path: '/api/security/login/',
  tag: 'Security',
  summary: 'Sign in',
  description:
    '`username` may be the username (any case) or the email. Success: `{two_factor:false, token, user}`. With two-factor on, it is `{two_factor:true, token:<interim token>, user:{username}}` instead, and only `security/two_factor_login/` accepts that token, for 5 minutes. 400 "Invalid username or password.", 403 "This account is suspended. Please contact support." (said only once the password is right), 429 "Too many failed sign-in attempts. Please try again in N minutes.".',
  access: 'public',
  request: loginRequest,
  answer: envelope(loginResponse),
  refusals: [403],
  compress: false,
  handle: async ({ app, request, body }) => ok(loginResponse, await app.accounts.signIn(body, clientAddress(request))),
});
