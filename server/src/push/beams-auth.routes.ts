import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import { beamsTokenResponse } from '../../../contracts/notifications.ts';
import { signedIn } from '../accounts/sessions.plugin.ts';
import { SECRET_ANSWER } from '../infra/api-compression.plugin.ts';
import { refuse } from '../sentences.ts';

/**
 * GET /api/push/beams-auth/?user_id=<username> (signed-in; docs/api.md "Web push (Beams-compatible)"): the
 * Beams token that binds this browser's device to the caller (docs/pusher-and-beams.md "Beams tokens"). The answer is Beams'
 * TokenProvider's `{token}`, not the envelope; refusals are. Only the caller's own username gets one: a
 * token for someone else would let this browser receive their notifications. The token names the calling
 * session too: the device it binds goes when that session ends.
 */
export default async function beamsAuthRoute(app: FastifyInstance) {
  app.get<{ Querystring: { user_id?: string | string[] } }>('/push/beams-auth/', SECRET_ANSWER, async (request) => {
    const session = signedIn(request);
    const userId = request.query.user_id;
    if (typeof userId !== 'string' || userId === '') throw refuse.beamsUserIdRequired();
    if (userId !== session.username) throw refuse.beamsOtherUser();
    return z.parse(beamsTokenResponse, { token: await app.push.tokens.issue(session.username, session.id) });
  });
}
