import type { FastifyInstance } from 'fastify';
import { chatMessage, chatMessages, chatRequest, typingResponse } from '../../../contracts/chat.ts';
import { conversations, conversationsRequest } from '../../../contracts/trade.ts';
import { parseBody } from '../infra/http/parse-body.ts';
import { ok } from '../infra/http/reply.ts';
import { signedIn } from '../accounts/sessions.plugin.ts';

/**
 * POST /api/market/chat/ (signed in) — `conversations`: the caller's trade conversations, with `online`.
 * POST /api/market/chat/{channel}/ — `messages`, `send_message`, `typing` (docs/api.md "Chat calls").
 */
export default async function chatRoute(app: FastifyInstance) {
  app.post('/market/chat/', async (request) => {
    const body = parseBody(conversationsRequest, request.body);
    const { userId, username } = signedIn(request);
    return ok(conversations, await app.trades.conversations({ id: userId, username }, body.search));
  });

  app.post<{ Params: { channel: string } }>('/market/chat/:channel/', async (request, reply) => {
    const body = parseBody(chatRequest, request.body);
    const { userId, username } = signedIn(request);
    const user = { id: userId, username };
    const { channel } = request.params;
    switch (body.type) {
      case 'messages':
        return ok(chatMessages, await app.chat.messages(user, channel));
      case 'send_message':
        await app.chatMessageRateLimit.call(app, request, reply);
        return ok(chatMessage, await app.chat.send(user, channel, body.text));
      case 'typing':
        return ok(typingResponse, await app.chat.typing(user, channel));
    }
  });
}
