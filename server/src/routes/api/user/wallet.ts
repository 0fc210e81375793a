import type { FastifyInstance } from 'fastify';
import { walletList, walletRequest } from '../../../../../contracts/trade.ts';
import { parseBody } from '../../../http/parse-body.ts';
import { ok } from '../../../http/reply.ts';
import { signedIn } from '../../../plugins/auth.ts';
import { walletsService } from '../../../wallets/wallets.ts';

/** POST /api/user/wallet/ (signed in) — `list`: the trader's wallets. */
export default async function walletRoute(app: FastifyInstance) {
  app.post('/user/wallet/', async (request) => {
    parseBody(walletRequest, request.body);
    return ok(walletList, await walletsService(app.db).list(signedIn(request).userId));
  });
}
