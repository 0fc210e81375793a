import type { FastifyInstance } from 'fastify';
import { traderProfile, tradersRequest, traderStanding } from '../../../contracts/traders.ts';
import { parseBody } from '../infra/http/parse-body.ts';
import { ok } from '../infra/http/reply.ts';
import { signedIn } from '../accounts/sessions.plugin.ts';

/**
 * POST /api/market/traders/ (signed in; docs/api.md "Trader profiles"): a trader's public record (`profile`), and the
 * caller's own standing as offers' conditions weigh it (`standing`).
 */
export default async function tradersRoute(app: FastifyInstance) {
  app.post('/market/traders/', async (request) => {
    const body = parseBody(tradersRequest, request.body);

    switch (body.type) {
      case 'profile':
        return ok(traderProfile, await app.reputation.profile(body.username));

      case 'standing':
        return ok(traderStanding, await app.reputation.standing(signedIn(request).userId));
    }
  });
}
