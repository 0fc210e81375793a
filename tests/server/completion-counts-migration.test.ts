import { describe, expect, it } from 'vitest';
import { migrate, readMigrations } from '../../server/src/infra/db/migrate.ts';
import { openEmptyPglite } from '../support/databases.ts';
import type { Queryable, SqlParam } from '../../server/src/infra/db/db.ts';
import { insertUser } from '../support/server-money.ts';

/** Every counter row of these users, by user then slot. */
const countRows = (db: Queryable, users: Record<string, string>) =>
  db
    .query<{ user_id: string; slot: number; completed: number; concluded: number }>(
      'SELECT user_id, slot, completed, concluded FROM trader_trade_counts WHERE user_id = ANY($1::bigint[]) ORDER BY user_id, slot',
      [Object.values(users)],
    )
    .then((rows) => rows.map((row) => [Object.keys(users).find((name) => users[name] === row.user_id), row.slot, row.completed, row.concluded]));

describe('migration 020: concluded recounted under "a trade counts once it has ended, against the party who failed it"', () => {
  it('counts completed trades for both parties, expired and refunded ones for the buyer alone, and nothing else; completed untouched', async () => {
    const db = await openEmptyPglite();
    try {
      const all = await readMigrations();
      await migrate(db, all.filter((m) => m.version < 20));
      await db.query(`INSERT INTO coins (label, ticker, decimal_places, usd_price, image) VALUES ('Bitcoin', 'BTC', 8, 97000, '/coins/btc.svg')`);
      await db.query(`INSERT INTO fiat_currencies (code, name, usd_rate) VALUES ('EUR', 'Euro', 0.93)`);
      const [seller, b1, b2, b3, mod] = [await insertUser(db), await insertUser(db), await insertUser(db), await insertUser(db), await insertUser(db)];
      const users = { seller: seller.id, b1: b1.id, b2: b2.id, b3: b3.id, mod: mod.id };
      const { id: offer } = await db.one<{ id: string }>(
        `INSERT INTO offers (user_id, offer_type, coin_id, currency_code, rate, min_amount, max_amount, payment_method_ids, created_at, updated_at)
         SELECT $1, 'sell', id, 'EUR', 1, 1, 1000, ARRAY[1], now(), now() FROM coins RETURNING id`,
        [seller.id],
      );
      let opened = 0;
      const trade = (buyer: string, slot: number, facts: Record<string, SqlParam>) => {
        opened += 1;
        const columns = Object.keys(facts);
        return db.query(
          `INSERT INTO trades (offer_id, buyer_id, seller_id, coin_id, currency_code, rate, coin_usd_price, trading_amount, fee_local,
                               amount_local, trading_amount_crypto, fee_crypto, amount_crypto, payment_method, channel, escrow_slot, created_at
                               ${columns.map((column) => `, ${column}`).join('')})
           SELECT $1, $2, $3, id, 'EUR', 1, 97000, 97, 0.97, 96.03, 0.001, 0.00001, 0.00099, 'SEPA', $4, $5, now()
                  ${columns.map((_, index) => `, $${index + 6}`).join('')}
           FROM coins`,
          [offer, buyer, seller.id, `channel${String(opened).padStart(15, '0')}`, slot, ...Object.values(facts)],
        );
      };
      const paid = { buyer_paid: true, paid_at: new Date() };
      const disputed = { disputed_at: new Date(), disputed_by: seller.id, dispute_reason: 'Nothing arrived' };
      const settled = (outcome: string) => ({ resolution: outcome, resolution_text: 'Checked', resolved_by: mod.id, resolved_at: new Date() });
      // 1. Completed by the seller's release, escrow slot 5.
      await trade(b1.id, 5, { ...paid, status: 'completed' });
      // 2. The review's attack: b1 marked paid, never paid; disputed; a moderator refunded. Slot 7.
      await trade(b1.id, 7, { paid_at: new Date(), ...disputed, ...settled('refund'), status: 'cancelled', cancelled_by: mod.id });
      // 3. Expired on b2: the payment window, never paid.
      await trade(b2.id, 0, { status: 'cancelled' });
      // 4. Cancelled by b2 before paying.
      await trade(b2.id, 0, { status: 'cancelled', cancelled_by: b2.id });
      // 5. Paid and disputed, still open.
      await trade(b3.id, 0, { ...paid, ...disputed, dispute_raised: true, buyer_place: 0 });
      // 6. Paid, disputed, released by a moderator. Slot 9.
      await trade(b3.id, 9, { ...paid, ...disputed, ...settled('release'), status: 'completed' });
      // What 019's code wrote for these: concluded for both parties at every mark_paid (1, 2, 5, 6), for the buyer
      // at the expiry (3), completed for both at each completion (1, 6), each on the trade's escrow slot.
      await db.query(
        `INSERT INTO trader_trade_counts (user_id, slot, completed, concluded) VALUES
           ($1, 5, 1, 1), ($1, 7, 0, 1), ($1, 0, 0, 1), ($1, 9, 1, 1),
           ($2, 5, 1, 1), ($2, 7, 0, 1),
           ($3, 0, 0, 1),
           ($4, 0, 0, 1), ($4, 9, 1, 1)`,
        [seller.id, b1.id, b2.id, b3.id],
      );

      expect(await migrate(db, all.filter((m) => m.version === 20))).toEqual(['020_completion_counts_on_end.sql']);
      // Recounted into slot 0 (the slots of `completed` stay): the seller 2 (trades 1, 6), no longer 4; b1 2 (1 and
      // the refund); b2 1 (the expiry); b3 1 (trade 6; 5 is still open); the moderator nothing.
      const expected = [
        ['seller', 0, 0, 2], ['seller', 5, 1, 0], ['seller', 7, 0, 0], ['seller', 9, 1, 0],
        ['b1', 0, 0, 2], ['b1', 5, 1, 0], ['b1', 7, 0, 0],
        ['b2', 0, 0, 1],
        ['b3', 0, 0, 1], ['b3', 9, 1, 0],
      ];
      // Users' ids ascend in creation order: seller, b1, b2, b3.
      expect(await countRows(db, users)).toEqual(expected);
    } finally {
      await db.close();
    }
  });
});
