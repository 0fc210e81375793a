import type { FastifyInstance } from 'fastify';
import { MODERATION_CHANNEL, USER_CHANNEL_PREFIX, realtimeAuthRequest, realtimeAuthResponse, userChannelName } from '../../../../contracts/chat.ts';
import { z } from 'zod/mini';
import { parseBody } from '../http/parse-body.ts';
import { BEARER, sessionExpired } from '../../accounts/sessions.plugin.ts';
import { refuse } from '../../sentences.ts';
import { SECRET_ANSWER } from '../api-compression.plugin.ts';

const PRIVATE_PREFIX = 'private-';

/**
 * POST /api/realtime/auth/ (docs/api.md "Realtime"): signs a pusher-js subscription for the caller, who
 * proves who they are with their websocket token (or session token) as a bearer token. Only a trade's buyer
 * and seller get `private-<channel>` (and moderators, once the trade was disputed), only the trader their own
 * `private-user-<username>`, only moderators `private-moderation` (the role as stored now); nothing else is
 * signed (public channels need no signature; the product has no presence channels). The body is form-encoded
 * as pusher-js sends it, or JSON. The answer is pusher-js's `{auth}`, not the envelope; refusals are. With the
 * built-in server it also carries `channel_data` naming the session, which the signature covers: the socket is
 * tied to that session and closed when it ends.
 */
export default async function realtimeAuthRoute(app: FastifyInstance) {
  // Only in this route's scope: every other call stays JSON only.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
  });

  app.post('/realtime/auth/', { onRequest: app.realtimeAuthRateLimit, ...SECRET_ANSWER }, async (request) => {
    const match = BEARER.exec(request.headers.authorization ?? '');
    const session = match?.[1] ? await app.sessions.resolveRealtime(match[1]) : undefined;
    if (!session) throw sessionExpired();
    const body = parseBody(realtimeAuthRequest, request.body);
    const channel = body.channel_name;

    let allowed = false;
    const moderator = session.role === 'moderator';
    if (channel.startsWith(USER_CHANNEL_PREFIX)) allowed = channel === userChannelName(session.username);
    else if (channel === MODERATION_CHANNEL) allowed = moderator;
    else if (channel.startsWith(PRIVATE_PREFIX)) {
      allowed = await app.chat.mayListen({ id: session.userId, moderator }, channel.slice(PRIVATE_PREFIX.length));
    }
    if (!allowed) throw refuse.channelNotAllowed();

    return z.parse(realtimeAuthResponse, app.realtime.authorize(body.socket_id, channel, session.id));
  });
}
