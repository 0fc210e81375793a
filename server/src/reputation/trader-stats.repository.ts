import { PREPARED, type Queryable } from '../infra/db/db.ts';

/** The rating of a trader nobody has rated: "0.00" until feedback exists (docs/rules.md "Reputation"). */
export const UNRATED = '0.00';

/** A trader's record as offers and profiles show it (docs/rules.md "Reputation"). */
export interface TraderFigures {
  /** Completed trades, as either party. */
  trades_count: number;
  /** completed / concluded in percent, 2 places; null while nothing of theirs has concluded. */
  completion_rate: string | null;
  /** The average of each rater's latest score, 2 places; UNRATED with no ratings. */
  rating: string;
  /** Ratings received, every one. */
  ratings_count: number;
  /** Distinct raters: what the average is over. */
  rated_by: number;
}

/** What an offer's conditions weigh of a taker, as stored (domain/offerConditions.ts makes the standing of it). */
export interface StandingRow {
  /** Completed trades as reputation counts them (the counters, never the trades). */
  completed_trades: number;
  created_at: Date;
  two_factor: boolean;
}

export function traderStatsRepository(db: Queryable) {
  return {
    /**
     * One trader's figures (a profile), from the database function trader_figures (migration 042), which Browse
     * Offers' page (offer_list_page) reads for each owner too: a profile and an offer card cannot show a trader
     * differently. PostgreSQL inlines it into this statement: two reads by key (the counters' slots and the ratings'
     * totals), no trade or rating read.
     */
    figuresOf: (userId: string): Promise<TraderFigures> => db.one<TraderFigures>('SELECT f.* FROM trader_figures($1::bigint) f', [userId]),

    /** A trader's facts for offers' conditions: one user row and at most BALANCE_SLOTS counter rows. */
    standingOf: (userId: string): Promise<StandingRow> =>
      db.one<StandingRow>(
        `SELECT (SELECT coalesce(sum(n.completed), 0)::integer FROM trader_trade_counts n WHERE n.user_id = u.id) AS completed_trades,
                u.created_at, u.totp_secret IS NOT NULL AS two_factor
         FROM users u WHERE u.id = $1`,
        [userId],
        PREPARED,
      ),
  };
}
