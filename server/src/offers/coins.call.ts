import { emptyBody } from '../../../contracts/common.ts';
import { coinsResponse } from '../../../contracts/market.ts';
import { defineCall, envelope } from '../infra/http/call.ts';
import { ok } from '../infra/http/reply.ts';

/**
 * POST /api/base/coins/ (signed in): every coin with its networks and current USD price. The price is read from
 * the table the price source writes, so every server process answers the same figure.
 */
export default defineCall({
  method: 'post',
  path: '/api/base/coins/',
  tag: 'Market',
  summary: 'Coins',
  description: 'Every coin with its networks and current USD price.',
  access: 'session',
  request: { schema: emptyBody, optional: true },
  answer: envelope(coinsResponse),
  handle: async ({ app }) => ok(coinsResponse, await app.offers.coins()),
});
