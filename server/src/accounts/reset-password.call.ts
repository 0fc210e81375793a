import { messageResponse, resetPasswordRequest } from '../../../contracts/security.ts';
import { defineSecurityCall, envelope } from '../infra/http/call.ts';
import { ok } from '../infra/http/reply.ts';

/** POST /api/security/reset_password/ — request a code, then set a new password with it. */
export default defineSecurityCall({
  method: 'post',
  path: '/api/security/reset_password/',
  tag: 'Security',
  summary: 'Reset a forgotten password',
  description:
    '`{type:"request", email}` → "If an account exists for {email}, a password reset code has been sent to it." (the same for every address). `{type:"reset", email, code, password, confirmPassword}` → "Password reset successful"; every session of the account ends. 429 for the code limits.',
  access: 'public',
  request: resetPasswordRequest,
  answer: envelope(messageResponse),
  handle: async ({ app, body }) =>
    ok(messageResponse, body.type === 'request' ? await app.accounts.requestPasswordReset(body.email) : await app.accounts.resetPassword(body)),
});
