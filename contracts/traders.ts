import { z } from 'zod/mini';
import { offerListItem } from './market.ts';

/** POST /api/market/traders/ (signed in; an addition, docs/api.md "Trader profiles"). */

/** The most ratings with comments a profile shows: the newest ones. */
export const PROFILE_RATINGS_LIMIT = 10;

export const tradersRequest = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('profile'),
    username: z.string({ error: 'username is required' }).check(z.minLength(1, 'username is required'), z.maxLength(30)),
  }),
]);

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
  /** Completed trades. */
  trades_count: z.int(),
  /** As on offers (`user__completion_rate`): completed over concluded, percent with 2 places, or null. */
  completion_rate: z.nullable(z.string()),
  /** Average, 2 places; "0.00" with no ratings. */
  rating: z.string(),
  ratings_count: z.int(),
  /** The newest ratings, newest first. */
  ratings: z.array(traderRating),
  /** Their active offers, newest first, as Browse Offers shows them. */
  offers: z.array(offerListItem),
});
export type TraderProfile = z.infer<typeof traderProfile>;
