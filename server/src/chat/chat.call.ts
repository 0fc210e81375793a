import { chatMessage, chatMessages, chatRequest, tradeSummary, typingResponse } from '../../../contracts/chat.ts';
import { conversations, conversationsRequest } from '../../../contracts/trade.ts';
import { byType, defineCall, envelope } from '../infra/http/call.ts';
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
  request: conversationsRequest,
  answer: envelope(conversations),
  handle: async ({ app, request, body }) => {
    const { userId, username } = signedIn(request);
    return ok(conversations, await app.trades.conversations({ id: userId, username }, body.search));
  },
});

/** POST /api/market/chat/{channel}/ (signed in) — `messages`, `send_message`, `typing`, `summary` (docs/api.md "Chat calls"). */
export const tradeChatCall = defineCall({
  method: 'post',
  path: '/api/market/chat/{channel}/',
  tag: 'Chat',
  summary: 'A trade\'s chat',
  description:
    '`messages` → the conversation\'s messages, oldest first, the newest 500 at most. `send_message` → the stored message, also published as `new_message` (409 on a completed or cancelled trade; 429 over `CHAT_MESSAGES_PER_MINUTE`). `typing` → `{sent}`: at most once per 500 ms, extra ones answer `{sent:false}`. `summary` → the trade\'s terms from the caller\'s side (`role`, the coin and `amount_crypto`, `trading_amount`, `rate`, `payment_method`) and `pay_by`, the end of the payment window. A channel the caller is not a party to answers 404 "This trade does not exist.", exactly like an unknown one.',
  access: 'trader',
  request: chatRequest,
  answer: byType({ messages: chatMessages, send_message: chatMessage, typing: typingResponse, summary: tradeSummary }),
  refusals: [404, 409],
  rateLimit: { types: { send_message: 'chatMessage' } },
  handlers: ({ app, request }) => {
    const { userId, username } = signedIn(request);
    const user = { id: userId, username };
    const { channel } = request.params as { channel: string };
    return {
      messages: () => app.chat.messages(user, channel),
      send_message: (body) => app.chat.send(user, channel, body.text),
      typing: () => app.chat.typing(user, channel),
      summary: () => app.chat.summary(user, channel),
    };
  },
});
