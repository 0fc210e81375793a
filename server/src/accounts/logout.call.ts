import { logoutRequest, messageResponse } from '../../../contracts/security.ts';
import { defineSecurityCall, envelope } from '../infra/http/call.ts';
import { ok } from '../infra/http/reply.ts';
import { signedIn } from './sessions.plugin.ts';

/** POST /api/security/logout/ (signed in) — ends the calling session only. */
export default defineSecurityCall({
  method: 'post',
  path: '/api/security/logout/',
  tag: 'Security',
  summary: 'Sign out',
  description: '→ "You have been logged out.". Only this session ends.',
  access: 'session',
  request: logoutRequest,
  answer: envelope(messageResponse),
  handle: async ({ app, request }) => ok(messageResponse, await app.accounts.signOut(signedIn(request).id)),
});
