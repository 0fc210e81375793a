import type { FastifyInstance } from 'fastify';
import { messageResponse } from '../../../contracts/security.ts';
import { TRADE_CHANNEL_HEADER, tradeHistory, tradePreview, tradeRequest } from '../../../contracts/trade.ts';
import { clientAddress } from '../infra/http/client-address.ts';
import { parseBody } from '../infra/http/parse-body.ts';
import { ok } from '../infra/http/reply.ts';
import { signedIn } from '../accounts/sessions.plugin.ts';

/**
 * POST /api/market/trade/ (signed in; docs/api.md "market/trade preview and open", "market/trade history",
 * "Trade actions"): `preview` and `open` on an offer, the caller's `history`, and the actions `cancel`,
 * `mark_paid`, `release_coin` (with its second proof), `raise_dispute` on a trade's channel.
 */
export default async function tradeRoute(app: FastifyInstance) {
  app.post('/market/trade/', async (request, reply) => {
    const body = parseBody(tradeRequest, request.body);
    const session = signedIn(request);
    // The session and the address count for a release's second proof: its window is the session's, its lockout the address's.
    const user = { id: session.userId, username: session.username, sessionId: session.id, client: clientAddress(request) };

    switch (body.type) {
      case 'preview':
        return ok(tradePreview, await app.trades.preview(user.id, body));

      case 'open': {
        await app.tradeOpenRateLimit.call(app, request, reply);
        const opened = await app.trades.open(user, body);
        // `info` stays the toast's sentence (docs/api.md "Chat calls"); the web app lands in the new conversation by this.
        reply.header(TRADE_CHANNEL_HEADER, opened.channel);
        return ok(messageResponse, opened.info);
      }

      case 'history':
        return ok(tradeHistory, await app.trades.history(user.id, body));

      case 'cancel':
        return ok(messageResponse, await app.trades.act(user, 'cancel', body.channel));

      case 'release_coin':
        return ok(messageResponse, await app.trades.act(user, 'release_coin', body.channel, { proof: { password: body.password, code: body.code } }));

      case 'mark_paid':
        return ok(messageResponse, await app.trades.act(user, 'mark_paid', body.channel, { payerAccount: body.payer_account }));

      case 'raise_dispute':
        return ok(messageResponse, await app.trades.act(user, 'raise_dispute', body.channel, { reason: body.reason }));

      case 'rate':
        return ok(messageResponse, await app.reputation.rate(user, body));
    }
  });
}
