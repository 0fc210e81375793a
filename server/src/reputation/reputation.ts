import type { TradeRequest } from '../../../contracts/trade.ts';
import { PROFILE_RATINGS_LIMIT, type TraderProfile, type TraderStanding } from '../../../contracts/traders.ts';
import { accountAgeDays } from '../../../domain/offerConditions.ts';
import type { Db, Queryable } from '../infra/db/db.ts';
import { retrying } from '../infra/db/retry.ts';
import { offersService } from '../offers/offers.ts';
import { ratingsRepository } from './ratings.repository.ts';
import { traderStatsRepository } from './trader-stats.repository.ts';
import { refuse, sentences } from '../sentences.ts';
import { isTradeChannel } from '../trades/channels.ts';

/**
 * The most offers a profile lists, the newest: a profile is one answer, and a trader with hundreds of
 * live offers would make it as large as hundreds of Browse Offers cards.
 */
export const PROFILE_OFFERS_LIMIT = 50;

export type RateAsk = Extract<TradeRequest, { type: 'rate' }>;

/**
 * A trader's facts as offers' conditions weigh them (domain/offerConditions.ts): completed trades as reputation
 * counts them, the account's age in whole days at `now`, and whether two-factor is on. Counters and one user row.
 */
export async function standingOf(db: Queryable, userId: string, now: Date): Promise<TraderStanding> {
  const row = await traderStatsRepository(db).standingOf(userId);
  return { completed_trades: row.completed_trades, account_age_days: accountAgeDays(row.created_at, now), two_factor: row.two_factor };
}

export interface ReputationDeps {
  db: Db;
  now: () => Date;
  /** After a rating committed: the trade's conversation is published again, so the rater's `my_rating` shows it. */
  changed: (channel: string) => Promise<void>;
  /** After a rating committed: the ratee's average on Browse Offers changed. */
  ratingsChanged: () => Promise<void>;
}

/** Ratings after completed trades, and the trader profiles that show them (docs/rules.md "Reputation"). */
export function reputationService(deps: ReputationDeps) {
  const { db } = deps;

  return {
    /**
     * market/trade/ `rate`: the caller rates the other party of a completed trade, once. A channel the caller
     * is no party to answers exactly like an unknown one (404), as every trade action does.
     */
    async rate(user: { id: string }, ask: RateAsk): Promise<string> {
      const ratings = ratingsRepository(db);
      const trade = isTradeChannel(ask.channel) ? await ratings.tradeOnChannel(ask.channel) : undefined;
      if (!trade || (trade.buyer_id !== user.id && trade.seller_id !== user.id)) throw refuse.tradeNotFound();
      if (trade.status !== 'completed') throw refuse.onlyCompletedRated();
      // A rating that counts for nothing would only confuse: such a trade is not rated at all (docs/rules.md "Reputation").
      if (!trade.counts_for_reputation) throw refuse.tooSmallToRate();
      const ratee = await retrying(() => ratings.rate(trade.id, user.id, ask.score, ask.comment ?? '', deps.now()));
      // A completed trade stays completed, so a statement that wrote nothing met this party's earlier rating.
      if (ratee === undefined) throw refuse.alreadyRated();
      await deps.ratingsChanged();
      await deps.changed(ask.channel);
      return sentences.rated;
    },

    /** market/traders/ `profile`: a trader's public record, by username in any case; unknown answers 404. */
    async profile(username: string): Promise<TraderProfile> {
      const ratings = ratingsRepository(db);
      const trader = await ratings.userNamed(username);
      if (!trader) throw refuse.traderNotFound();
      // Independent reads: on PostgreSQL they run side by side on pooled connections.
      const [figures, newest, offers] = await Promise.all([
        traderStatsRepository(db).figuresOf(trader.id),
        ratings.newestOf(trader.id, PROFILE_RATINGS_LIMIT),
        offersService(db).activeOf(trader.id, PROFILE_OFFERS_LIMIT),
      ]);
      return {
        username: trader.username,
        joined: trader.created_at.toISOString(),
        account_age_days: accountAgeDays(trader.created_at, deps.now()),
        ...figures,
        ratings: newest.map((row) => ({ score: row.score, comment: row.comment, rater: row.rater, created: row.created_at.toISOString() })),
        offers,
      };
    },

    /** market/traders/ `standing`: the caller's own facts, as the open of an offer with conditions weighs them. */
    standing: (userId: string): Promise<TraderStanding> => standingOf(db, userId, deps.now()),
  };
}

export type ReputationService = ReturnType<typeof reputationService>;
