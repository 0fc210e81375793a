import { disputeDetail, disputeList, moderationMessageResponse, moderationRequest, resolveResponse } from '../../../contracts/moderation.ts';
import { byType, defineCall } from '../infra/http/call.ts';
import { signedInStaff } from '../accounts/sessions.plugin.ts';

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
  request: moderationRequest,
  answer: byType({ list: disputeList, get: disputeDetail, message: moderationMessageResponse, resolve: resolveResponse }),
  refusals: [403, 404, 409],
  // The same limit as a trader's chat messages, keyed by the moderator's account.
  rateLimit: { types: { message: 'chatMessage' } },
  handlers: ({ app, request }) => {
    // Named in the audit log entry each message and settlement writes (docs/operators.md "Audit log").
    const moderator = signedInStaff(request);
    return {
      list: () => app.moderation.list(),
      get: (body) => app.moderation.get(body.channel),
      message: (body) => app.moderation.message(moderator, body.channel, body.text),
      resolve: (body) => app.moderation.resolve(moderator, body.channel, body.outcome, body.resolution),
    };
  },
});
