import type { WalletHistory, WalletHistoryAsk } from '../../../contracts/wallet.ts';
import type { Queryable } from '../infra/db/db.ts';
import { FIAT_PLACES, fixed, rounded } from '../ledger/money.ts';
import { paginator } from '../offers/offers.ts';
import { MAX_INT4 } from '../offers/reference-data.repository.ts';
import { walletTransactionsRepository } from './wallet-transactions.repository.ts';

/** Transactions per page of Recent Transactions: the trade history's size (Previous/Next only). */
export const WALLET_HISTORY_PAGE_SIZE = 10;

/** `history`: a trader's deposits and withdrawals, newest first (docs/api.md "User calls"). */
export function transactionHistory(db: Queryable) {
  return {
    async page(userId: string, ask: WalletHistoryAsk): Promise<WalletHistory> {
      const coin = ask.filters.coin__id;
      const coinId = coin === undefined || coin === '' ? undefined : Number(coin);
      // A coin id no integer column can hold names no coin: an empty page, not a database error.
      const noSuchCoin = coinId !== undefined && !(coinId >= 1 && coinId <= MAX_INT4);
      const { page } = ask;
      const rows = await walletTransactionsRepository(db).history({
        userId,
        transType: ask.filters.trans_type || undefined,
        status: ask.filters.status || undefined,
        coinId: noSuchCoin ? 0 : coinId,
        limit: WALLET_HISTORY_PAGE_SIZE,
        offset: (page - 1) * WALLET_HISTORY_PAGE_SIZE,
      });
      const hasMore = rows.length > WALLET_HISTORY_PAGE_SIZE;
      return {
        transactions: rows.slice(0, WALLET_HISTORY_PAGE_SIZE).map((row) => ({
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
        paginator: paginator(page, hasMore),
      };
    },
  };
}
export type WalletHistoryService = ReturnType<typeof transactionHistory>;
