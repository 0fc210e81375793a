import type { Queryable } from '../infra/db/db.ts';

export interface WalletRow {
  id: number;
  ticker: string;
  label: string;
  image: string;
  decimal_places: number;
  usd_price: string;
  /** Available balance; "0" without an account. */
  balance: string;
}

/** A user's holdings per coin, read from the ledger's cached balances. */
export function walletsRepository(db: Queryable) {
  return {
    /** Every coin with the user's available balance, in coin order. */
    list: (userId: string) =>
      db.query<WalletRow>(
        `SELECT c.id, c.ticker, c.label, c.image, c.decimal_places, c.usd_price, coalesce(a.balance, 0) AS balance
         FROM coins c LEFT JOIN ledger_account_balances a ON a.coin_id = c.id AND a.user_id = $1 AND a.kind = 'available'
         ORDER BY c.id`,
        [userId],
      ),

    /** The coins that travel on a network, with their places and current USD price (a decimal string). */
    coinsOn: (network: string) =>
      db.query<{ id: number; ticker: string; decimal_places: number; usd_price: string }>(
        `SELECT c.id, c.ticker, c.decimal_places, c.usd_price::text AS usd_price
         FROM coin_networks n JOIN coins c ON c.id = n.coin_id WHERE n.key = $1`,
        [network],
      ),

    /** Everything the user owns per coin (available and escrow: coins in an open trade are still theirs) with its current USD price. */
    holdings: (userId: string) =>
      db.query<{ held: string; usd_price: string }>(
        `SELECT sum(a.balance) AS held, c.usd_price
         FROM ledger_account_balances a JOIN coins c ON c.id = a.coin_id
         WHERE a.user_id = $1
         GROUP BY c.id, c.usd_price`,
        [userId],
      ),
  };
}
