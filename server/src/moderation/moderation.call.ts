import { chatMessage } from '../../../contracts/chat.ts';
import { disputeDetail, disputeList, moderationMessageResponse, moderationRequest, resolveResponse } from '../../../contracts/moderation.ts';
import { defineCall, envelope, info, MESSAGE, named } from '../infra/http/call.ts';
import { ok } from '../infra/http/reply.ts';
import { signedIn } from '../accounts/sessions.plugin.ts';

/**
 * POST /api/market/moderation/ (signed in, moderators only; docs/api.md "Moderation"): the dispute desk's `list`,
 * `get`, `message` and `resolve`. Anyone else is refused (401 without a session, 403 for a trader) before the body
 * is even read (`access: 'moderator'` checks as the request arrives), so a trader learns nothing here, not even
 * which bodies would be valid or whether theirs is JSON.
 */
export default defineCall({
  method: 'post',
  path: '/api/market/moderation/',
  tag: 'Moderation',
  summary: 'Dispute desk',
  description:
    'Moderators only: any other caller gets 403 "Only moderators can use the dispute desk." before the body is read. `list` → the open disputes, oldest first. `get` → one trade\'s facts and chat. `message` → the stored message, sent as "Moderator". `resolve` (`release` or `refund`) → a sentence; 409 when another settlement won.',
  access: 'moderator',
  request: named('ModerationRequest', moderationRequest),
  answer: envelope(
    info(named('DisputeList', disputeList), 'list'),
    info(named('DisputeDetail', disputeDetail), 'get'),
    info(named('ChatMessage', chatMessage), 'message'),
    info(MESSAGE, 'resolve'),
  ),
  refusals: [403, 404, 409],
  // The same limit as a trader's chat messages, keyed by the moderator's account.
  rateLimit: { types: { message: 'chatMessage' } },
  handle: async ({ app, request, body }) => {
    const session = signedIn(request);
    // Named in the audit log entry each message and settlement writes (docs/operators.md "Audit log").
    const moderator = { id: session.userId, username: session.username, role: session.role };

    switch (body.type) {
      case 'list':
        return ok(disputeList, await app.moderation.list());
      case 'get':
        return ok(disputeDetail, await app.moderation.get(body.channel));
      case 'message':
        return ok(moderationMessageResponse, await app.moderation.message(moderator, body.channel, body.text));
      case 'resolve':
        return ok(resolveResponse, await app.moderation.resolve(moderator, body.channel, body.outcome, body.resolution));
    }
  },
});
