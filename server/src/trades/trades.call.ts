import { messageResponse } from '../../../contracts/security.ts';
import { TRADE_CHANNEL_HEADER, tradeAction, tradeHistory, tradePreview, tradeRequest } from '../../../contracts/trade.ts';
import { clientAddress } from '../infra/http/client-address.ts';
import { defineCall, info } from '../infra/http/call.ts';
import { ok } from '../infra/http/reply.ts';
import { signedIn } from '../accounts/sessions.plugin.ts';
import { wordsOf } from './trades.ts';

/**
 * POST /api/market/trade/ (signed in; docs/api.md "market/trade preview and open", "market/trade history",
 * "Trade actions"): `preview` and `open` on an offer, the caller's `history`, the parties' actions on a trade's
 * channel (every `type` of contracts/trade.ts `tradeAction`: `cancel`, `mark_paid`, `release_coin` with its second
 * proof, `raise_dispute`), and `rate` after a completed trade.
 */
export default defineCall({
  method: 'post',
  path: '/api/market/trade/',
  tag: 'Market',
  summary: 'Trades',
  description:
    '`preview` → the figures of a trade on an offer. `open` (with `rate`, the offer\'s rate as the taker saw it) → one sentence; the header `X-Trade-Channel` names the new trade\'s channel. `history` → `{trades, paginator}`, newest first, 10 a page. ' +
    tradeAction.options.map((action) => `\`${action}\``).join(', ') +
    ' on a trade\'s `channel`, and `rate` after a completed trade → one sentence. `release_coin` carries the second proof, `password` or (two-factor on) `code`, unless the session\'s confirmation window is open: 403 "Please confirm the release with your password." / "…with your authenticator code." when it is missing or wrong (counted towards the sign-in lockout, 429). 409 "Selling is paused for 24 hours after a security change." for `open` as the seller and `release_coin` after a password reset, a two-factor change or a new allowlist address. 403 the wrong party, one\'s own offer, or an offer\'s condition the taker misses (the sentence names it); 404 an unknown trade or offer; 409 for the trade\'s state, a changed rate, an offer at its `max_open_trades`, a buyer taker at `MAX_OPEN_TRADES`, a seller under the security hold, or a trade too small to rate; 429 opening trades too fast.',
  access: 'trader',
  request: tradeRequest,
  answer: {
    kind: 'envelope',
    infos: [
      info(tradePreview, 'preview'),
      info(tradeHistory, 'history'),
      // Every party action answers its sentence, so a new one in the contract is documented with no change here.
      info(messageResponse, 'open', ...tradeAction.options, 'rate'),
    ],
    headers: { [TRADE_CHANNEL_HEADER]: "`open` only: the new trade's chat channel." },
  },
  refusals: [403, 404, 409],
  rateLimit: { types: { open: 'tradeOpen' } },
  handle: async ({ app, request, reply, body }) => {
    const session = signedIn(request);
    // The session and the address count for a release's second proof: its window is the session's, its lockout the address's.
    const user = {
      id: session.userId,
      username: session.username,
      sessionId: session.id,
      client: clientAddress(request),
      releaseConfirmedUntil: session.releaseConfirmedUntil,
    };

    switch (body.type) {
      case 'preview':
        return ok(tradePreview, await app.trades.preview(user.id, body));

      case 'open': {
        const opened = await app.trades.open(user, body);
        // `info` stays the toast's sentence (docs/api.md "Chat calls"); the web app lands in the new conversation by this.
        reply.header(TRADE_CHANNEL_HEADER, opened.channel);
        return ok(messageResponse, opened.info);
      }

      case 'history':
        return ok(tradeHistory, await app.trades.history(user.id, body));

      case 'rate':
        return ok(messageResponse, await app.reputation.rate(user, body));

      default:
        // A party's action (contracts/trade.ts `tradeAction`): trades.ts `wordsOf` reads what it says, `act` decides.
        return ok(messageResponse, await app.trades.act(user, body.type, body.channel, wordsOf(body)));
    }
  },
});
