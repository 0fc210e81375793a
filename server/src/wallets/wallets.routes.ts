import type { FastifyInstance } from 'fastify';
import { messageResponse } from '../../../contracts/security.ts';
import { walletAddresses, walletHistory, walletList, walletRequest, withdrawalPreview } from '../../../contracts/wallet.ts';
import { parseBody } from '../infra/http/parse-body.ts';
import { ok } from '../infra/http/reply.ts';
import { signedIn } from '../accounts/sessions.plugin.ts';

/**
 * POST /api/user/wallet/ (signed in): `list`, `addresses`, `preview_withdrawal`, `confirm_withdrawal`,
 * `history` (docs/api.md "User calls"). Every call acts on the caller's own wallets only.
 */
const isPreviewAsk = (body: unknown) =>
  typeof body === 'object' && body !== null && (body as { type?: unknown }).type === 'preview_withdrawal';

export default async function walletRoute(app: FastifyInstance) {
  app.post('/user/wallet/', async (request, reply) => {
    const { userId } = signedIn(request);
    let body;
    try {
      body = parseBody(walletRequest, request.body);
    } catch (error) {
      // A preview its schema refuses leaves nothing to confirm, like one the rules refuse.
      if (isPreviewAsk(request.body)) await app.wallets.withdrawals.discard(userId);
      throw error;
    }
    switch (body.type) {
      case 'list':
        return ok(walletList, await app.wallets.list(userId));
      case 'addresses':
        return ok(walletAddresses, await app.wallets.addresses.entries(userId));
      case 'preview_withdrawal':
        await app.withdrawalRateLimit.call(app, request, reply);
        return ok(withdrawalPreview, await app.wallets.withdrawals.preview(userId, body));
      case 'confirm_withdrawal':
        await app.withdrawalRateLimit.call(app, request, reply);
        return ok(messageResponse, await app.wallets.withdrawals.confirm(userId));
      case 'history':
        return ok(walletHistory, await app.wallets.history.page(userId, body));
    }
  });
}
