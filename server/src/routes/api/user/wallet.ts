import type { FastifyInstance } from 'fastify';
import { walletList, walletRequest } from '../../../../../contracts/trade.ts';
import { parseBody } from '../../../http/parse-body.ts';
import { ok } from '../../../http/reply.ts';
import { fixed } from '../../../lib/money.ts';
import { signedIn } from '../../../plugins/auth.ts';
import { walletsRepository } from '../../../repositories/wallets.ts';

/**
 * POST /api/user/wallet/ (signed in) — `list` (spec section 3, "Wallet item"): every coin, with the
 * caller's available balance (0 without an account yet) in the coin's places and its current USD price,
 * read from the table the price source writes, like base/coins/. Coins in escrow are not available, so
 * they are not in this balance.
 */
export default async function walletRoute(app: FastifyInstance) {
  app.post('/user/wallet/', async (request) => {
    parseBody(walletRequest, request.body);
    const { userId } = signedIn(request);
    const rows = await walletsRepository(app.db).list(userId);
    return ok(
      walletList,
      rows.map((row) => ({
        id: row.id,
        balance: fixed(row.balance, row.decimal_places),
        coin__price: row.usd_price,
        coin__ticker: row.ticker,
        coin__label: row.label,
        coin__image: row.image,
        coin__decimal_places: row.decimal_places,
      })),
    );
  });
}
