import { emptyBody } from '../../../contracts/common.ts';
import { overview } from '../../../contracts/user.ts';
import { defineCall, envelope } from '../infra/http/call.ts';
import { ok } from '../infra/http/reply.ts';
import { signedIn } from './sessions.plugin.ts';

/** POST /api/user/overview/ (signed in) — the dashboard figures. */
export default defineCall({
  method: 'post',
  path: '/api/user/overview/',
  tag: 'User',
  summary: 'Dashboard figures',
  description:
    '`total_balance` is the USD value of everything the trader holds, escrow included, at current prices, to 2 places; `open_chats` counts pending trades; `recent_trades` holds the newest 5.',
  access: 'trader',
  request: { schema: emptyBody, optional: true },
  answer: envelope(overview),
  handle: async ({ app, request }) => {
    const { userId } = signedIn(request);
    return ok(overview, await app.overview.forUser(userId));
  },
});
