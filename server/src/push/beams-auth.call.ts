import { z } from 'zod/mini';
import { beamsTokenResponse } from '../../../contracts/notifications.ts';
import { signedIn } from '../accounts/sessions.plugin.ts';
import { defineCall, json } from '../infra/http/call.ts';
import { refuse } from '../sentences.ts';

/**
 * GET /api/push/beams-auth/?user_id=<username> (signed-in; docs/api.md "Web push (Beams-compatible)"): the
 * Beams token that binds this browser's device to the caller (docs/pusher-and-beams.md "Beams tokens"). The answer is Beams'
 * TokenProvider's `{token}`, not the envelope; refusals are. Only the caller's own username gets one: a
 * token for someone else would let this browser receive their notifications. The token names the calling
 * session too: the device it binds goes when that session ends.
 */
export default defineCall({
  method: 'get',
  path: '/api/push/beams-auth/',
  tag: 'Web push',
  summary: 'Beams token (TokenProvider)',
  description:
    '→ `{"token": "<JWT>"}`, not enveloped, as Beams\' `TokenProvider` expects: HS256, `sub` the username, `sid` the calling session (the device it binds goes when that session ends), valid 24 hours. Another user\'s id → 403; none → 400.',
  access: 'session',
  query: { user_id: { description: "The caller's own username.", required: true } },
  answer: json(beamsTokenResponse),
  refusals: [403],
  // A Beams token: never compressed with text the caller chose (infra/api-compression.plugin.ts SECRET_ANSWER).
  compress: false,
  handle: async ({ app, request }) => {
    const session = signedIn(request);
    const userId = (request.query as { user_id?: string | string[] }).user_id;
    if (typeof userId !== 'string' || userId === '') throw refuse.beamsUserIdRequired();
    if (userId !== session.username) throw refuse.beamsOtherUser();
    return z.parse(beamsTokenResponse, { token: await app.push.tokens.issue(session.username, session.id) });
  },
});
