import { messageResponse } from '../../../contracts/security.ts';
import { walletAddresses, walletHistory, walletList, walletRequest, withdrawalPreview } from '../../../contracts/wallet.ts';
import { byType, defineCall } from '../infra/http/call.ts';
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
  request: walletRequest,
  answer: byType({
    list: walletList,
    addresses: walletAddresses,
    preview_withdrawal: withdrawalPreview,
    confirm_withdrawal: messageResponse,
    history: walletHistory,
  }),
  refusals: [409],
  rateLimit: { types: { preview_withdrawal: 'withdrawal', confirm_withdrawal: 'withdrawal' } },
  onInvalidBody: async ({ app, request }) => {
    // A preview its schema refuses leaves nothing to confirm, like one the rules refuse.
    if (isPreviewAsk(request.body)) await app.wallets.withdrawals.discard(signedIn(request).userId);
  },
  handlers: ({ app, request }) => {
    const { userId } = signedIn(request);
    return {
      list: () => app.wallets.list(userId),
      addresses: () => app.wallets.addresses.entries(userId),
      preview_withdrawal: (body) => app.wallets.withdrawals.preview(userId, body),
      confirm_withdrawal: () => app.wallets.withdrawals.confirm(userId),
      history: (body) => app.wallets.history.page(userId, body),
    };
  },
});
