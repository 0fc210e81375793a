import { messageResponse, validateEmailRequest } from '../../../contracts/security.ts';
import { defineSecurityCall, envelope } from '../infra/http/call.ts';
import { ok } from '../infra/http/reply.ts';

/** POST /api/security/validate_email/ — signup's first two steps: mail a code, then prove it. */
export default defineSecurityCall({
  method: 'post',
  path: '/api/security/validate_email/',
  tag: 'Security',
  summary: 'Verify an email before signup',
  description:
    '`{type:"request", email}` → "A verification code has been sent to {email}" (409 "An account with this email already exists.", 429 for the code limits, 503 when the mail cannot be sent). `{type:"verify", email, code}` → "Email has been verified successfully" (400 for a wrong, expired or exhausted code).',
  access: 'public',
  request: validateEmailRequest,
  answer: envelope(messageResponse),
  refusals: [409],
  handle: async ({ app, body }) =>
    ok(
      messageResponse,
      body.type === 'request' ? await app.accounts.requestSignupCode(body.email) : await app.accounts.verifySignupCode(body.email, body.code),
    ),
});
