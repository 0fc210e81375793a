/** Wallet history answers for the Recent Transactions tests, shaped by the zod contracts. */
import type { WalletHistory, WalletTransaction } from '../../contracts/index.ts';
import type { WalletHistoryFilters } from '../../src/services/wallets.ts';
import { paginator } from './offers.ts';

export { coins } from './trades.ts';

/** A bitcoin transaction id as the chain writes it: 64 hex digits. */
export const btcTxid = '3f9a1c0b5e7d2a4c6e8f0a1b3c5d7e9f1a2b3c4d5e6f708192a3b4c5d6e77d2e';

/** A completed external deposit of 0.5 BTC, unless `overrides` say otherwise. */
export function transactionRow(id: number, overrides: Partial<WalletTransaction> = {}): WalletTransaction {
  return {
    id,
    created: '2026-11-21T17:22:00.000',
    trans_type: 'deposit',
    coin__image: '/coins/btc.svg',
    coin__ticker: 'btc',
    coin__decimal_places: 8,
    network: 'bitcoin',
    amount_crypto: '0.50000000',
    amount_usd: '32500.00',
    fee_crypto: '0',
    fee_usd: '0',
    txid: btcTxid,
    scope: 'external',
    status: 'completed',
    ...overrides,
  };
}

/** Page `page` of `pages` pages, one transaction each (ids tell the pages apart). */
export const transactionPage = (page: number, pages: number, overrides: Partial<WalletTransaction> = {}): WalletHistory => ({
  transactions: [transactionRow(page * 100, overrides)],
  paginator: paginator(page, pages),
});

/** The same page with a deposit still waiting for its confirmation. */
export const pendingPage = (page: number, pages: number): WalletHistory => transactionPage(page, pages, { status: 'pending' });

export const noTransactions: WalletHistory = { transactions: [], paginator: paginator(1, 1) };

/**
 * Recent Transactions' filters with `set` chosen, the rest empty, as the chart hands them to
 * `loadTransactions`; the service turns them into the call's query.
 */
export const chosenTransactions = (set: Partial<WalletHistoryFilters> = {}): WalletHistoryFilters => ({
  transType: '',
  status: '',
  coinId: '',
  ...set,
});
