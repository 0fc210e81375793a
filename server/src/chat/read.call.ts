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
    '`read` → `{read_up_to}`: the conversation counts as read by the caller up to its newest message, whose id it answers; the caller\'s entry in `market/chat/` then has `unread` 0 until the partner writes again. Only the caller\'s own side: the partner\'s count is theirs to clear. A channel the caller is not a party to answers 404 "This trade does not exist.", exactly like an unknown one.',
  access: 'trader',
  request: conversationReadRequest,
  answer: byType({ read: conversationRead }),
  refusals: [404],
  rateLimit: { types: { read: 'chatRead' } },
  handlers: ({ app, request }) => {
    const { userId } = signedIn(request);
    const { channel } = request.params as { channel: string };
    return { read: () => app.chat.markRead({ id: userId }, channel) };
  },
});
