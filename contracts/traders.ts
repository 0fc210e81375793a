import { z } from 'zod/mini';
import { apiNames } from './common.ts';
import { offerListItem } from './market.ts';

/** POST /api/market/traders/ (signed in; an addition, docs/api.md "Trader profiles"). */

/** The most ratings with comments a profile shows: the newest ones. */
export const PROFILE_RATINGS_LIMIT = 10;

export const tradersRequest = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('profile'),
    username: z.string({ error: 'username is required' }).check(z.minLength(1, 'username is required'), z.maxLength(30)),
  }),
  /** The caller's own standing, what offers' conditions are checked against (docs/api.md "Trader profiles"). */
  z.object({ type: z.literal('standing') }),
]).register(apiNames, { id: 'TradersRequest' });

/**
 * `standing`: the caller's facts as an offer's conditions weigh them (domain/offerConditions.ts), for Browse
 * Offers to tell before a trade whether the caller may take an offer. Only the caller's own: two-factor is private.
 */
export const traderStanding = z.object({
  /** Completed trades as reputation counts them (trades worth at least REPUTATION_MIN_TRADE_USD). */
  completed_trades: z.int(),
  /** Whole days since the account was made. */
  account_age_days: z.int(),
  /** Whether two-factor authentication is on. */
  two_factor: z.boolean(),
}).register(apiNames, { id: 'TraderStanding' });
export type TraderStanding = z.infer<typeof traderStanding>;

export const traderRating = z.object({
  score: z.int(),
  /** May be empty. */
  comment: z.string(),
  /** Who rated, by username. */
  rater: z.string(),
  /** ISO 8601. */
  created: z.string(),
});
export type TraderRating = z.infer<typeof traderRating>;

/** A trader's public record (an unknown username answers 404). */
export const traderProfile = z.object({
  username: z.string(),
  /** ISO 8601. */
  joined: z.string(),
  /** Whole days since the account was made. */
  account_age_days: z.int(),
  /** Completed trades that count toward reputation (worth at least REPUTATION_MIN_TRADE_USD). */
  trades_count: z.int(),
  /** As on offers (`user__completion_rate`): completed over concluded, percent with 2 places, or null. */
  completion_rate: z.nullable(z.string()),
  /** Average of each rater's latest score, 2 places; "0.00" with no ratings. */
  rating: z.string(),
  /** Ratings received, every one (a trader who rated them twice counts twice here, once in `rating`). */
  ratings_count: z.int(),
  /** How many distinct traders rated them: what `rating` averages over. */
  rated_by: z.int(),
  /** Each rater's latest rating, newest first (the ones `rating` averages). */
  ratings: z.array(traderRating),
  /** Their active offers, newest first, as Browse Offers shows them. */
  offers: z.array(offerListItem),
}).register(apiNames, { id: 'TraderProfile' });
export type TraderProfile = z.infer<typeof traderProfile>;
