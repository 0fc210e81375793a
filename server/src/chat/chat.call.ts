import { chatMessage, chatMessages, chatRequest, typingResponse } from '../../../contracts/chat.ts';
import { conversations, conversationsRequest } from '../../../contracts/trade.ts';
import { defineCall, envelope, info, named } from '../infra/http/call.ts';
import { ok } from '../infra/http/reply.ts';
import { signedIn } from '../accounts/sessions.plugin.ts';

/** POST /api/market/chat/ (signed in) — `conversations`: the caller's trade conversations, with `online`. */
export const conversationsCall = defineCall({
  method: 'post',
  path: '/api/market/chat/',
  tag: 'Chat',
  summary: 'Conversations',
  description:
    'One conversation per trade of the caller, by latest activity, at most 200. `search` keeps the partners whose username contains it; `online` says whether the partner has a live realtime connection right now.',
  access: 'trader',
  request: named('ConversationsRequest', conversationsRequest),
  answer: envelope(info(named('Conversations', conversations))),
  handle: async ({ app, request, body }) => {
    const { userId, username } = signedIn(request);
    return ok(conversations, await app.trades.conversations({ id: userId, username }, body.search));
  },
});

/** POST /api/market/chat/{channel}/ (signed in) — `messages`, `send_message`, `typing` (docs/api.md "Chat calls"). */
export const tradeChatCall = defineCall({
  method: 'post',
  path: '/api/market/chat/{channel}/',
  tag: 'Chat',
  summary: 'A trade\'s chat',
  description:
    '`messages` → the conversation\'s messages, oldest first, the newest 500 at most. `send_message` → the stored message, also published as `new_message` (409 on a completed or cancelled trade; 429 over `CHAT_MESSAGES_PER_MINUTE`). `typing` → `{sent}`: at most once per 500 ms, extra ones answer `{sent:false}`. A channel the caller is not a party to answers 404 "This trade does not exist.", exactly like an unknown one.',
  access: 'trader',
  request: named('ChatRequest', chatRequest),
  answer: envelope(info(named('ChatMessages', chatMessages), 'messages'), info(named('ChatMessage', chatMessage), 'send_message'), info(named('Typing', typingResponse), 'typing')),
  refusals: [404, 409],
  rateLimit: { types: { send_message: 'chatMessage' } },
  handle: async ({ app, request, body }) => {
    const { userId, username } = signedIn(request);
    const user = { id: userId, username };
    const { channel } = request.params as { channel: string };
    switch (body.type) {
      case 'messages':
        return ok(chatMessages, await app.chat.messages(user, channel));
      case 'send_message':
        return ok(chatMessage, await app.chat.send(user, channel, body.text));
      case 'typing':
        return ok(typingResponse, await app.chat.typing(user, channel));
    }
  },
});
