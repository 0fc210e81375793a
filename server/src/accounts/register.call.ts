import { registerRequest, sessionResponse } from '../../../contracts/security.ts';
import { clientAddress } from '../infra/http/client-address.ts';
import { defineSecurityCall, envelope } from '../infra/http/call.ts';
import { ok } from '../infra/http/reply.ts';

/** POST /api/security/register/ — creates the account on a freshly verified email and signs it in. */
export default defineSecurityCall({
  method: 'post',
  path: '/api/security/register/',
  tag: 'Security',
  summary: 'Create an account',
  description:
    'Creates the account on a freshly verified email and signs it in. 400 for the field rules ("Username must be at least 3 characters", "confirmPassword: Passwords do not match", …), 403 "Please verify your email address first.", 409 "An account with this email already exists." or "This username is already taken.".',
  access: 'public',
  request: registerRequest,
  answer: envelope(sessionResponse),
  refusals: [403, 409],
  compress: false,
  handle: async ({ app, request, body }) => ok(sessionResponse, await app.accounts.register(body, clientAddress(request))),
});
