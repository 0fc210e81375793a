import { traderProfile, tradersRequest, traderStanding } from '../../../contracts/traders.ts';
import { byType, defineCall } from '../infra/http/call.ts';
import { signedIn } from '../accounts/sessions.plugin.ts';

/**
 * POST /api/market/traders/ (signed in; docs/api.md "Trader profiles"): a trader's public record (`profile`), and the
 * caller's own standing as offers' conditions weigh it (`standing`).
 */
export default defineCall({
  method: 'post',
  path: '/api/market/traders/',
  tag: 'Market',
  summary: 'Trader profile',
  description:
    '`profile` → a trader\'s public record: account age, figures as on Browse Offers with `rated_by` (distinct raters), each rater\'s latest rating (the newest 10) and their live offers. `username` is matched ignoring case. 404 "This trader does not exist.". `standing` → the caller\'s own `{completed_trades, account_age_days, two_factor}`, what offers\' conditions weigh.',
  access: 'session',
  request: tradersRequest,
  answer: byType({ profile: traderProfile, standing: traderStanding }),
  refusals: [404],
  handlers: ({ app, request }) => ({
    profile: (body) => app.reputation.profile(body.username),
    standing: () => app.reputation.standing(signedIn(request).userId),
  }),
});
