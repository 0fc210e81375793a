import type { WalletItem } from '../../../contracts/wallet.ts';
import type { Queryable } from '../infra/db/db.ts';
import { fixed } from '../ledger/money.ts';
import { walletsRepository } from './wallets.repository.ts';

/** A trader's wallets (docs/api.md "User calls"). */
export function walletsService(db: Queryable) {
  return {
    /**
     * `list`: every coin, with the trader's available balance (0 without an account yet) in the coin's places
     * and its current USD price, read from the table the price source writes, like base/coins/. Coins in
     * escrow are not available, so they are not in this balance.
     */
    async list(userId: string): Promise<WalletItem[]> {
      const rows = await walletsRepository(db).list(userId);
      return rows.map((row) => ({
        id: row.id,
        balance: fixed(row.balance, row.decimal_places),
        coin__price: row.usd_price,
        coin__ticker: row.ticker,
        coin__label: row.label,
        coin__image: row.image,
        coin__decimal_places: row.decimal_places,
      }));
    },
  };
}
