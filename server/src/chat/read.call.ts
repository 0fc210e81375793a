import { conversationRead, conversationReadRequest } from '../../../contracts/chat.ts';
import { byType, defineCall } from '../infra/http/call.ts';
import { signedIn } from '../accounts/sessions.plugin.ts';

/**
 * POST /api/market/chat/{channel}/read/ (signed in) — `read`: the caller has read the conversation, so their list
 * counts nothing unread in it (docs/api.md "Chat calls"). A call of its own, apart from sending: a message never
 * waits on it.
 */
export default defineCall({
  method: 'post',
  path: '/api/market/chat/{channel}/read/',
  tag: 'Chat',
  summary: 'Mark a conversation read',
  description:
    '`read` (optional `up_to`: the id of the newest message the caller has shown) → `{read_up_to}`: the conversation counts as read by the caller up to `up_to` or its newest message, whichever is older (without `up_to`: its newest), and never less than an earlier mark; it answers the id the mark stands at. The caller\'s entry in `market/chat/` then counts only the partner\'s messages after it; a mark that moved publishes that entry as `conversation` on the caller\'s own user channel (their other tabs), never the partner\'s. A negative or non-integer `up_to` is refused (400); one past the newest message counts as the newest. Only the caller\'s own side: the partner\'s count is theirs to clear. A channel the caller is not a party to answers 404 "This trade does not exist.", exactly like an unknown one.',
  access: 'trader',
  request: conversationReadRequest,
  answer: byType({ read: conversationRead }),
  refusals: [404],
  rateLimit: { types: { read: 'chatRead' } },
  handlers: ({ app, request }) => {
    const { userId } = signedIn(request);
    const { channel } = request.params as { channel: string };
    return { read: (body) => app.chat.markRead({ id: userId }, channel, body.up_to) };
  },
});
