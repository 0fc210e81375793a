import type { WalletHistory, WalletHistoryAsk } from '../../../contracts/wallet.ts';
import type { Queryable } from '../db/db.ts';
import { Unavailable } from '../refusals.ts';

/** `history`: a trader's deposits and withdrawals, newest first. PLACEHOLDER: being built (issue 11). */
export function transactionHistory(_db: Queryable) {
  return {
    async page(_userId: string, _ask: WalletHistoryAsk): Promise<WalletHistory> {
      throw new Unavailable('Wallet history is not built yet.');
    },
  };
}
export type WalletHistoryService = ReturnType<typeof transactionHistory>;
