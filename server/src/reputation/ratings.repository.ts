import { PREPARED, type Queryable } from '../infra/db/db.ts';

/** What a rating statement found when it wrote nothing, so the refusal can name the reason. */
export interface RateableTrade {
  id: string;
  status: 'pending' | 'completed' | 'cancelled';
  buyer_id: string;
  seller_id: string;
  /** Decided at open (migration 024): a trade that does not count toward reputation is not rated. */
  counts_for_reputation: boolean;
}

export interface TraderRatingRow {
  score: number;
  comment: string;
  rater: string;
  created_at: Date;
}

export function ratingsRepository(db: Queryable) {
  return {
    /** The trade on `channel` with who its parties are, or undefined. */
    tradeOnChannel: (channel: string): Promise<RateableTrade | undefined> =>
      db.maybe<RateableTrade>('SELECT id, status, buyer_id, seller_id, counts_for_reputation FROM trades WHERE channel = $1', [channel], PREPARED),

    /**
     * The rating of the other party of a completed trade that counts toward reputation by `raterId`, and its place
     * in the ratee's totals, in one statement: the insert takes the trade only while it is completed and counts, and
     * only with `raterId` as one of its parties. A second rating of the same trade by the same party (a double click,
     * a racing request) meets the primary key, inserts nothing and so adds nothing: ON CONFLICT waits for a racing
     * insert to commit and then skips.
     *
     * One counterparty counts once in the average (migration 024): the rating becomes the rater's latest of this
     * ratee (trader_raters, one row per pair), and the totals take the score it replaced back out. The upsert of that
     * row locks it, so two ratings of one pair racing (on two trades) apply one after the other, the second seeing the
     * first's score as the one it replaces: the totals always hold each rater's latest score once. `ratings` grows by
     * one either way; `raters` only with a rater's first. Answers the ratee's id, or undefined when nothing was written.
     */
    rate: async (tradeId: string, raterId: string, score: number, comment: string, at: Date): Promise<string | undefined> =>
      (
        await db.maybe<{ user_id: string }>(
          `WITH rated AS (
             INSERT INTO trade_ratings (trade_id, rater_id, ratee_id, score, comment, created_at)
             SELECT t.id, $2::bigint, CASE WHEN t.buyer_id = $2::bigint THEN t.seller_id ELSE t.buyer_id END, $3::smallint, $4::text, $5::timestamptz
             FROM trades t
             WHERE t.id = $1::bigint AND t.status = 'completed' AND t.counts_for_reputation AND $2::bigint IN (t.buyer_id, t.seller_id)
             ON CONFLICT (trade_id, rater_id) DO NOTHING
             RETURNING trade_id, rater_id, ratee_id, score, created_at
           ), latest AS (
             INSERT INTO trader_raters AS l (ratee_id, rater_id, trade_id, score, rated_at)
             SELECT ratee_id, rater_id, trade_id, score, created_at FROM rated
             ON CONFLICT (ratee_id, rater_id) DO UPDATE
               SET trade_id = excluded.trade_id, score = excluded.score, rated_at = excluded.rated_at, previous_score = l.score
             RETURNING ratee_id, score, previous_score
           )
           INSERT INTO trader_ratings AS s (user_id, score_total, ratings, raters)
           SELECT ratee_id, score, 1, 1 FROM latest
           ON CONFLICT (user_id) DO UPDATE
             SET score_total = s.score_total + excluded.score_total - (SELECT coalesce(previous_score, 0) FROM latest),
                 ratings = s.ratings + 1,
                 raters = s.raters + (SELECT CASE WHEN previous_score IS NULL THEN 1 ELSE 0 END FROM latest)
           RETURNING user_id`,
          [tradeId, raterId, score, comment, at],
          PREPARED,
        )
      )?.user_id,

    /** Each rater's latest rating of a trader (what the average is over), the newest `limit`, newest first (a profile). */
    newestOf: (userId: string, limit: number): Promise<TraderRatingRow[]> =>
      db.query<TraderRatingRow>(
        `SELECT l.score, r.comment, (SELECT u.username FROM users u WHERE u.id = l.rater_id) AS rater, l.rated_at AS created_at
         FROM trader_raters l JOIN trade_ratings r ON r.trade_id = l.trade_id AND r.rater_id = l.rater_id
         WHERE l.ratee_id = $1
         ORDER BY l.rated_at DESC, l.trade_id DESC LIMIT $2`,
        [userId, limit],
      ),

    /** A user by name, whatever its case (usernames are unique without case, migration 001). */
    userNamed: (username: string): Promise<{ id: string; username: string; created_at: Date } | undefined> =>
      db.maybe('SELECT id, username, created_at FROM users WHERE lower(username) = lower($1)', [username]),
  };
}
