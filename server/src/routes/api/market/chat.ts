import type { FastifyInstance } from 'fastify';
import { conversations, conversationsRequest } from '../../../../../contracts/trade.ts';
import { parseBody } from '../../../http/parse-body.ts';
import { ok } from '../../../http/reply.ts';
import { likeContains } from '../../../market/offers.ts';
import { signedIn } from '../../../plugins/auth.ts';
import { tradesRepository } from '../../../repositories/trades.ts';
import { CONVERSATIONS_LIMIT } from '../../../trades/trades.ts';

/**
 * POST /api/market/chat/ (signed in) — `conversations`: the caller's trade conversations, newest activity
 * first, optionally only those whose partner's username contains `search` (any case, wildcards literal).
 * Messages, sending and realtime come with the chat (issue 5).
 */
export default async function chatRoute(app: FastifyInstance) {
  app.post('/market/chat/', async (request) => {
    const body = parseBody(conversationsRequest, request.body);
    const { userId, username } = signedIn(request);
    const search = body.search?.trim() ?? '';
    const rows = await tradesRepository(app.db).conversations(
      userId,
      username,
      search === '' ? undefined : likeContains(search),
      CONVERSATIONS_LIMIT,
    );
    return ok(
      conversations,
      rows.map((row) => ({ ...row, last_message: row.last_message ?? '' })),
    );
  });
}
