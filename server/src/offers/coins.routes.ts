import type { FastifyInstance } from 'fastify';
import { emptyBody } from '../../../contracts/common.ts';
import { coinsResponse } from '../../../contracts/market.ts';
import { parseBody } from '../infra/http/parse-body.ts';
import { ok } from '../infra/http/reply.ts';

/**
 * POST /api/base/coins/ (signed in) — every coin with its networks and current USD price. The price is
 * read from the table the price source writes, so every server process answers the same figure.
 */
export default async function coinsRoute(app: FastifyInstance) {
  app.post('/base/coins/', async (request) => {
    parseBody(emptyBody, request.body);
    return ok(coinsResponse, await app.offers.coins());
  });
}
