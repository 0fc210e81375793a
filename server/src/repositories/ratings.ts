import { PREPARED, type Queryable } from '../db/db.ts';

/** What a rating statement found when it wrote nothing, so the refusal can name the reason. */
export interface RateableTrade {
  id: string;
  status: 'pending' | 'completed' | 'cancelled';
  buyer_id: string;
  seller_id: string;
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
      db.maybe<RateableTrade>('SELECT id, status, buyer_id, seller_id FROM trades WHERE channel = $1', [channel], PREPARED),

    /**
     * The rating of the other party of a completed trade by `raterId`, and its place in the ratee's totals,
     * in one statement: the insert takes the trade only while it is completed and only with `raterId` as one
     * of its parties, and the totals grow only by the row it inserted. A second rating of the same trade by
     * the same party (a double click, a racing request) meets the primary key, inserts nothing and so adds
     * nothing: ON CONFLICT waits for a racing insert to commit and then skips. Answers the ratee's id, or
     * undefined when nothing was written.
     */
    rate: async (tradeId: string, raterId: string, score: number, comment: string, at: Date): Promise<string | undefined> =>
      (
        await db.maybe<{ user_id: string }>(
          `WITH rated AS (
             INSERT INTO trade_ratings (trade_id, rater_id, ratee_id, score, comment, created_at)
             SELECT t.id, $2::bigint, CASE WHEN t.buyer_id = $2::bigint THEN t.seller_id ELSE t.buyer_id END, $3::smallint, $4::text, $5::timestamptz
             FROM trades t
             WHERE t.id = $1::bigint AND t.status = 'completed' AND $2::bigint IN (t.buyer_id, t.seller_id)
             ON CONFLICT (trade_id, rater_id) DO NOTHING
             RETURNING ratee_id, score
           )
           INSERT INTO trader_ratings (user_id, score_total, ratings)
           SELECT ratee_id, score, 1 FROM rated
           ON CONFLICT (user_id) DO UPDATE
             SET score_total = trader_ratings.score_total + excluded.score_total, ratings = trader_ratings.ratings + 1
           RETURNING user_id`,
          [tradeId, raterId, score, comment, at],
          PREPARED,
        )
      )?.user_id,

    /** The newest `limit` ratings of a trader, newest first, with who gave them (a profile). */
    newestOf: (userId: string, limit: number): Promise<TraderRatingRow[]> =>
      db.query<TraderRatingRow>(
        `SELECT r.score, r.comment, (SELECT u.username FROM users u WHERE u.id = r.rater_id) AS rater, r.created_at
         FROM trade_ratings r WHERE r.ratee_id = $1
         ORDER BY r.created_at DESC, r.trade_id DESC LIMIT $2`,
        [userId, limit],
      ),

    /** A user by name, whatever its case (usernames are unique without case, migration 001). */
    userNamed: (username: string): Promise<{ id: string; username: string; created_at: Date } | undefined> =>
      db.maybe('SELECT id, username, created_at FROM users WHERE lower(username) = lower($1)', [username]),
  };
}
