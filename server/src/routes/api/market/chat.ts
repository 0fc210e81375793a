import type { FastifyInstance } from 'fastify';
import { conversations, conversationsRequest } from '../../../../../contracts/trade.ts';
import { parseBody } from '../../../http/parse-body.ts';
import { ok } from '../../../http/reply.ts';
import { signedIn } from '../../../plugins/auth.ts';

/**
 * POST /api/market/chat/ (signed in) — `conversations`: the caller's trade conversations. Messages, sending
 * and realtime come with the chat.
 */
export default async function chatRoute(app: FastifyInstance) {
  app.post('/market/chat/', async (request) => {
    const body = parseBody(conversationsRequest, request.body);
    const { userId, username } = signedIn(request);
    return ok(conversations, await app.trades.conversations({ id: userId, username }, body.search));
  });
}
