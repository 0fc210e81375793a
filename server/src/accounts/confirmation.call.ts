import { confirmationRequest, confirmationStatus } from '../../../contracts/security.ts';
import { defineSecurityCall, envelope } from '../infra/http/call.ts';
import { signedIn } from './sessions.plugin.ts';

/**
 * POST /api/security/confirmation/ (signed in; docs/api.md "Release confirmation") — `status`: what a release by
 * this session asks for as its second proof now (the password, the authenticator code, or nothing while its
 * window is open), so the web app asks only when needed. The proof itself goes with `market/trade/` `release_coin`.
 */
export default defineSecurityCall({
  method: 'post',
  path: '/api/security/confirmation/',
  tag: 'Security',
  summary: 'Release confirmation',
  description:
    '`status` → `{proof}`: what a `release_coin` by this session must carry now, `"password"`, `"code"` (an authenticator code, two-factor on) or null while the session\'s 10-minute confirmation window is open (a proof given with a release in the last 10 minutes).',
  access: 'trader',
  request: confirmationRequest,
  answer: envelope(confirmationStatus),
  handlers: ({ app, request }) => ({
    status: () => app.confirmation.status(signedIn(request).id),
  }),
});
