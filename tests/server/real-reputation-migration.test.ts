import { describe, expect, it } from 'vitest';
import { migrate, readMigrations } from '../../server/src/infra/db/migrate.ts';
import { openEmptyPglite } from '../support/databases.ts';
import type { SqlParam } from '../../server/src/infra/db/db.ts';
import { insertUser } from '../support/server-money.ts';

describe('migration 024: offer places, and reputation recounted from real trades, each counterparty once', () => {
  it('places pending trades on their offers, frees buy-offer owners\' places, recounts counters and ratings, and refuses old writers', async () => {
    const db = await openEmptyPglite();
    try {
      const all = await readMigrations();
      await migrate(db, all.filter((m) => m.version < 24));
      await db.query(`INSERT INTO coins (label, ticker, decimal_places, usd_price, image) VALUES ('Bitcoin', 'BTC', 8, 97000, '/coins/btc.svg')`);
      await db.query(`INSERT INTO fiat_currencies (code, name, usd_rate) VALUES ('EUR', 'Euro', 0.93)`);
      const [seller, b1, b2, b3] = [await insertUser(db), await insertUser(db), await insertUser(db), await insertUser(db)];
      const offerOf = async (owner: string, type: 'buy' | 'sell') =>
        (
          await db.one<{ id: string }>(
            `INSERT INTO offers (user_id, offer_type, coin_id, currency_code, rate, min_amount, max_amount, payment_method_ids, created_at, updated_at)
             SELECT $1, $2, id, 'EUR', 1, 0.01, 1000, ARRAY[1], now(), now() FROM coins RETURNING id`,
            [owner, type],
          )
        ).id;
      const sells = await offerOf(seller.id, 'sell');
      // b3 buys on their own offer: the trades others open on it are theirs as the buyer.
      const buys = await offerOf(b3.id, 'buy');
      let opened = 0;
      /** A trade of 97 EUR (0.001 BTC at 97,000 USD, 97 USD), or of `crypto` BTC. */
      const trade = async (offer: string, buyer: string, facts: Record<string, SqlParam>, crypto = '0.001') => {
        opened += 1;
        const columns = Object.keys(facts);
        return (
          await db.one<{ id: string }>(
            `INSERT INTO trades (offer_id, buyer_id, seller_id, coin_id, currency_code, rate, coin_usd_price, trading_amount, fee_local,
                                 amount_local, trading_amount_crypto, fee_crypto, amount_crypto, payment_method, channel, escrow_slot, created_at
                                 ${columns.map((column) => `, ${column}`).join('')})
             SELECT $1, $2, $3, id, 'EUR', 1, 97000, 97, 0.97, 96.03, $4::numeric, 0, $4::numeric, 'SEPA', $5, 0, now() + $6 * interval '1 second'
                    ${columns.map((_, index) => `, $${index + 7}`).join('')}
             FROM coins RETURNING id`,
            [offer, buyer, seller.id, crypto, `channel${String(opened).padStart(15, '0')}`, opened, ...Object.values(facts)],
          )
        ).id;
      };
      const completed = { status: 'completed', buyer_paid: true, paid_at: new Date() };
      // Real completed trades: b1 ×3 and b2 ×1 with the seller; one below 10 USD (0.0001 BTC = 9.70 USD) by b1.
      const t1 = await trade(sells, b1.id, completed);
      const t2 = await trade(sells, b1.id, completed);
      const t3 = await trade(sells, b1.id, completed);
      const t4 = await trade(sells, b2.id, completed);
      const small = await trade(sells, b1.id, completed, '0.0001');
      // Expired unpaid, one real and one small, on b2.
      await trade(sells, b2.id, { status: 'cancelled' });
      await trade(sells, b2.id, { status: 'cancelled' }, '0.00001');
      // Pending: three on the sell offer (b1, b2, b1), two on b3's buy offer (the seller as the taker).
      const pending = [
        await trade(sells, b1.id, { buyer_place: 0 }),
        await trade(sells, b2.id, { buyer_place: 0 }),
        await trade(sells, b1.id, { buyer_place: 1 }),
        await trade(buys, b3.id, { buyer_place: 0 }),
        await trade(buys, b3.id, { buyer_place: 1 }),
      ];
      // What the code before 024 counted: every completion for both, the expiries for b2.
      await db.query(
        `INSERT INTO trader_trade_counts (user_id, slot, completed, concluded) VALUES ($1, 0, 5, 5), ($2, 0, 4, 4), ($3, 0, 1, 3), ($3, 4, 0, 0)`,
        [seller.id, b1.id, b2.id],
      );
      // Ratings of the seller: b1 rated 5, 5, then 1 (latest), and 5 on the small trade (latest of all, but it counts
      // for nothing); b2 rated 4. The seller rated b1 once.
      const rating = (tradeId: string, rater: string, ratee: string, score: number, minutes: number) =>
        db.query(
          `INSERT INTO trade_ratings (trade_id, rater_id, ratee_id, score, comment, created_at) VALUES ($1, $2, $3, $4, '', now() + $5 * interval '1 minute')`,
          [tradeId, rater, ratee, score, minutes],
        );
      await rating(t1, b1.id, seller.id, 5, 1);
      await rating(t2, b1.id, seller.id, 5, 2);
      await rating(t3, b1.id, seller.id, 1, 3);
      await rating(small, b1.id, seller.id, 5, 9);
      await rating(t4, b2.id, seller.id, 4, 4);
      await rating(t1, seller.id, b1.id, 3, 1);
      await db.query(
        'INSERT INTO trader_ratings (user_id, score_total, ratings) VALUES ($1, 20, 5), ($2, 3, 1)',
        [seller.id, b1.id],
      );

      expect(await migrate(db, all.filter((m) => m.version === 24))).toEqual(['024_offer_conditions_and_real_reputation.sql']);

      const places = await db.query<{ id: string; buyer_place: number | null; offer_place: number | null; counts_for_reputation: boolean }>(
        'SELECT id::text, buyer_place, offer_place, counts_for_reputation FROM trades WHERE id = ANY($1::bigint[]) ORDER BY trades.id',
        [pending],
      );
      expect(places).toEqual([
        { id: pending[0], buyer_place: 0, offer_place: 0, counts_for_reputation: true },
        { id: pending[1], buyer_place: 0, offer_place: 1, counts_for_reputation: true },
        { id: pending[2], buyer_place: 1, offer_place: 2, counts_for_reputation: true },
        // Opened by the seller on b3's buy offer: on the offer's places, none of b3's.
        { id: pending[3], buyer_place: null, offer_place: 0, counts_for_reputation: true },
        { id: pending[4], buyer_place: null, offer_place: 1, counts_for_reputation: true },
      ]);
      expect(await db.one('SELECT counts_for_reputation FROM trades WHERE id = $1', [small])).toEqual({ counts_for_reputation: false });
      expect(await db.query('SELECT max_open_trades, min_completed_trades, min_account_days, require_two_factor FROM offers ORDER BY id')).toEqual([
        { max_open_trades: 3, min_completed_trades: 0, min_account_days: 0, require_two_factor: false },
        { max_open_trades: 3, min_completed_trades: 0, min_account_days: 0, require_two_factor: false },
      ]);

      // Counters: the seller 4 completed of 4 (the small one gone); b1 3 of 3; b2 1 completed of 2 (the real expiry).
      const counts = await db.query<{ user_id: string; completed: number; concluded: number }>(
        'SELECT user_id::text, sum(completed)::int AS completed, sum(concluded)::int AS concluded FROM trader_trade_counts GROUP BY user_id ORDER BY user_id',
      );
      expect(counts).toEqual([
        { user_id: seller.id, completed: 4, concluded: 4 },
        { user_id: b1.id, completed: 3, concluded: 3 },
        { user_id: b2.id, completed: 1, concluded: 2 },
      ]);
      // Ratings: the seller's average is b1's latest real one (1) and b2's (4) over 2 raters; 4 real ratings.
      expect(await db.query('SELECT user_id::text, score_total::int, ratings, raters FROM trader_ratings ORDER BY user_id')).toEqual([
        { user_id: seller.id, score_total: 5, ratings: 4, raters: 2 },
        { user_id: b1.id, score_total: 3, ratings: 1, raters: 1 },
      ]);
      expect(await db.query('SELECT ratee_id::text, rater_id::text, trade_id::text, score FROM trader_raters ORDER BY ratee_id, rater_id')).toEqual([
        { ratee_id: seller.id, rater_id: b1.id, trade_id: t3, score: 1 },
        { ratee_id: seller.id, rater_id: b2.id, trade_id: t4, score: 4 },
        { ratee_id: b1.id, rater_id: seller.id, trade_id: t1, score: 3 },
      ]);

      // What a process of the previous version would write: a pending trade without an offer place or the
      // reputation flag. Refused, so no pending trade escapes its offer's cap.
      await expect(trade(sells, b3.id, { buyer_place: 0 })).rejects.toMatchObject({ code: '23502' });
      await expect(trade(sells, b3.id, { buyer_place: 0, counts_for_reputation: true })).rejects.toMatchObject({ code: '23514' });
    } finally {
      await db.close();
    }
  });
});
