import { MODERATION_CHANNEL, USER_CHANNEL_PREFIX, realtimeAuthRequest, realtimeAuthResponse, userChannelName } from '../../../../contracts/chat.ts';
import { z } from 'zod/mini';
import { OPERATORS_CHANNEL } from '../../../../contracts/operator.ts';
import { defineCall, json } from '../http/call.ts';
import { signedIn } from '../../accounts/sessions.plugin.ts';
import { refuse } from '../../sentences.ts';

const PRIVATE_PREFIX = 'private-';

/**
 * POST /api/realtime/auth/ (docs/api.md "Realtime"): signs a pusher-js subscription for the caller, who
 * proves who they are with their websocket token (or session token) as a bearer token. Only a trade's buyer
 * and seller get `private-<channel>` (and moderators, once the trade was disputed), only the trader their own
 * `private-user-<username>`, only moderators `private-moderation` and only operators `private-operators` (the
 * role as stored now); nothing else is signed (public channels need no signature; the product has no presence
 * channels). The body is form-encoded
 * as pusher-js sends it, or JSON. The answer is pusher-js's `{auth}`, not the envelope; refusals are. With the
 * built-in server it also carries `channel_data` naming the session, which the signature covers: the socket is
 * tied to that session and closed when it ends.
 */
export default defineCall({
  method: 'post',
  path: '/api/realtime/auth/',
  tag: 'Realtime',
  summary: 'Channel authorization (pusher-js)',
  description:
    'Form-encoded as pusher-js sends it, or JSON, with `Authorization: Bearer <websocket_token>` (the session token works too) → `{"auth":"key:signature","channel_data":"{\\"session\\":\\"<id>\\"}"}`, not enveloped: pusher-js reads it as it is and sends channel_data back with the subscription. The signature covers `socket_id:channel:channel_data`, so the built-in server ties the socket to that session and closes it (4009) when the session ends; with an external server (`PUSHER_HOST`, `PUSHER_CLUSTER`) the answer is `{"auth"}` alone. 401 "Session expired" without a live session; 403 "You may not listen on this channel." (`private-operators` is an operator\'s only, `private-moderation` a moderator\'s); at most 300 a minute per address (429).',
  access: 'websocket',
  rateLimit: { call: 'realtimeAuth' },
  compress: false,
  request: { schema: realtimeAuthRequest, contentTypes: ['application/x-www-form-urlencoded', 'application/json'] },
  answer: json(realtimeAuthResponse),
  refusals: [403],
  handle: async ({ app, request, body }) => {
    const session = signedIn(request);
    const channel = body.channel_name;

    let allowed = false;
    const moderator = session.role === 'moderator';
    if (channel.startsWith(USER_CHANNEL_PREFIX)) allowed = channel === userChannelName(session.username);
    else if (channel === MODERATION_CHANNEL) allowed = moderator;
    else if (channel === OPERATORS_CHANNEL) allowed = session.role === 'operator';
    else if (channel.startsWith(PRIVATE_PREFIX)) {
      allowed = await app.chat.mayListen({ id: session.userId, moderator }, channel.slice(PRIVATE_PREFIX.length));
    }
    if (!allowed) throw refuse.channelNotAllowed();

    return z.parse(realtimeAuthResponse, app.realtime.authorize(body.socket_id, channel, session.id));
  },
});
