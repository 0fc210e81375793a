import type { WalletHistory, WalletHistoryAsk } from '../../../contracts/wallet.ts';
import type { Queryable } from '../infra/db/db.ts';
import { FIAT_PLACES, fixed, rounded } from '../ledger/money.ts';
import { coinFilterOf, pageOf, pageWindow } from '../offers/offers.ts';
import { walletTransactionsRepository } from './wallet-transactions.repository.ts';

/** Transactions per page of Recent Transactions: the trade history's size (Previous/Next only). */
export const WALLET_HISTORY_PAGE_SIZE = 10;

/** `history`: a trader's deposits and withdrawals, newest first (docs/api.md "User calls"). */
export function transactionHistory(db: Queryable) {
  return {
    async page(userId: string, ask: WalletHistoryAsk): Promise<WalletHistory> {
      const { page } = ask;
      const found = await walletTransactionsRepository(db).history({
        userId,
        transType: ask.filters.trans_type || undefined,
        status: ask.filters.status || undefined,
        coinId: coinFilterOf(ask.filters.coin__id),
        ...pageWindow(page, WALLET_HISTORY_PAGE_SIZE),
      });
      const { rows, paginator } = pageOf(found, page, WALLET_HISTORY_PAGE_SIZE);
      return {
        transactions: rows.map((row) => ({
          id: Number(row.id),
          created: row.created_at.toISOString(),
          trans_type: row.trans_type,
          coin__image: row.image,
          coin__ticker: row.ticker,
          coin__decimal_places: row.decimal_places,
          network: row.network,
          amount_crypto: fixed(row.amount_crypto, row.decimal_places),
          // Frozen when the deposit arrived or the withdrawal was previewed: what it was worth then, not now.
          amount_usd: rounded(row.amount_usd, FIAT_PLACES),
          fee_crypto: fixed(row.fee_crypto, row.decimal_places),
          fee_usd: rounded(row.fee_usd, FIAT_PLACES),
          txid: row.txid,
          scope: row.scope,
          status: row.status,
        })),
        paginator,
      };
    },
  };
}
export type WalletHistoryService = ReturnType<typeof transactionHistory>;
