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

/**
 * The figures of the trader whose id is the SQL expression `userId`, as a LATERAL subquery of one row with
 * the columns of TraderFigures. Both sources are counters kept in the statements that change them (the
 * slots of trader_trade_counts, migrations 010, 019 and 024; trader_ratings, 019 and 024), so a trader costs at most
 * BALANCE_SLOTS slot rows and one totals row whatever their history: no trade or rating is read.
 *
 * Browse Offers' page writes the same figures in offer_list_page (migration 040): a change here is a change there.
 *
 * The arithmetic is PostgreSQL's numeric, never a float, and round() rounds half away from zero. Exact:
 * with a divisor below 2^31 a quotient that is not exactly on a half is at least 1/(200 · divisor) away
 * from one, far more than numeric's 16 places of division can blur.
 */
export const TRADER_FIGURES = (userId: string) => `(
  SELECT counts.completed AS trades_count,
         CASE WHEN counts.concluded > 0 THEN round(counts.completed * 100::numeric / counts.concluded, 2)::text END AS completion_rate,
         CASE WHEN r.raters > 0 THEN round(r.score_total::numeric / r.raters, 2)::text ELSE '${UNRATED}' END AS rating,
         coalesce(r.ratings, 0) AS ratings_count,
         coalesce(r.raters, 0) AS rated_by
  FROM (
    SELECT coalesce(sum(n.completed), 0)::integer AS completed, coalesce(sum(n.concluded), 0)::integer AS concluded
    FROM trader_trade_counts n WHERE n.user_id = ${userId}
  ) counts
  LEFT JOIN trader_ratings r ON r.user_id = ${userId}
)`;

/** What an offer's conditions weigh of a taker, as stored (domain/offerConditions.ts makes the standing of it). */
export interface StandingRow {
  /** Completed trades as reputation counts them (the counters, never the trades). */
  completed_trades: number;
  created_at: Date;
  two_factor: boolean;
}

/** One trader's figures (a profile); a page of offers reads them in its own query (offer_list_page, migration 040). */
export function traderStatsRepository(db: Queryable) {
  return {
    figuresOf: (userId: string): Promise<TraderFigures> =>
      db.one<TraderFigures>(`SELECT f.* FROM ${TRADER_FIGURES('$1::bigint')} f`, [userId]),

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
