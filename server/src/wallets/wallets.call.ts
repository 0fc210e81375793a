import { messageResponse } from '../../../contracts/security.ts';
import { walletAddresses, walletHistory, walletList, walletRequest, withdrawalPreview } from '../../../contracts/wallet.ts';
import { defineCall, envelope, info, MESSAGE, named } from '../infra/http/call.ts';
import { ok } from '../infra/http/reply.ts';
import { signedIn } from '../accounts/sessions.plugin.ts';

const isPreviewAsk = (body: unknown) =>
  typeof body === 'object' && body !== null && (body as { type?: unknown }).type === 'preview_withdrawal';

/**
 * POST /api/user/wallet/ (signed in): `list`, `addresses`, `preview_withdrawal`, `confirm_withdrawal`,
 * `history` (docs/api.md "User calls"). Every call acts on the caller's own wallets only.
 */
export default defineCall({
  method: 'post',
  path: '/api/user/wallet/',
  tag: 'User',
  summary: 'Wallets and withdrawals',
  description:
    "The trader's own wallets only. `list` → one item per coin with the available balance. `addresses` → the trader's own deposit address on each network. `preview_withdrawal` → the fees and what will leave the balance; kept as the pending withdrawal for 2 minutes. `confirm_withdrawal` → a sentence; executes the kept preview exactly once (409 without one). `history` → `{transactions, paginator}`, newest first, 10 a page. Withdrawals are refused (409) for 24 hours after a password reset or a two-factor change and limited per minute (429).",
  access: 'trader',
  request: named('WalletRequest', walletRequest),
  answer: envelope(
    info(named('WalletList', walletList), 'list'),
    info(named('WalletAddresses', walletAddresses), 'addresses'),
    info(named('WithdrawalPreview', withdrawalPreview), 'preview_withdrawal'),
    info(MESSAGE, 'confirm_withdrawal'),
    info(named('WalletHistory', walletHistory), 'history'),
  ),
  refusals: [409],
  rateLimit: { types: { preview_withdrawal: 'withdrawal', confirm_withdrawal: 'withdrawal' } },
  onInvalidBody: async ({ app, request }) => {
    // A preview its schema refuses leaves nothing to confirm, like one the rules refuse.
    if (isPreviewAsk(request.body)) await app.wallets.withdrawals.discard(signedIn(request).userId);
  },
  handle: async ({ app, request, body }) => {
    const { userId } = signedIn(request);
    switch (body.type) {
      case 'list':
        return ok(walletList, await app.wallets.list(userId));
      case 'addresses':
        return ok(walletAddresses, await app.wallets.addresses.entries(userId));
      case 'preview_withdrawal':
        return ok(withdrawalPreview, await app.wallets.withdrawals.preview(userId, body));
      case 'confirm_withdrawal':
        return ok(messageResponse, await app.wallets.withdrawals.confirm(userId));
      case 'history':
        return ok(walletHistory, await app.wallets.history.page(userId, body));
    }
  },
});
