import {
  messageResponse,
  walletAddresses,
  walletHistory,
  walletList,
  withdrawalPreview,
  type WalletHistoryAsk,
  type WalletTransactionStatus,
  type WalletTransactionType,
  type WithdrawalAsk,
} from '../../contracts/index.ts';
import type { Api, CallOptions } from './api.ts';

/** Recent Transactions' filters as the screen holds them; empty strings are no filter. */
export type WalletHistoryFilters = {
  transType: '' | WalletTransactionType;
  status: '' | WalletTransactionStatus;
  coinId: string;
};

/** The history call's query: only the filters that are set. */
export function walletHistoryQuery(page: number, filters: WalletHistoryFilters): WalletHistoryAsk {
  return {
    page,
    filters: {
      ...(filters.transType ? { trans_type: filters.transType } : {}),
      ...(filters.status ? { status: filters.status } : {}),
      ...(filters.coinId ? { coin__id: filters.coinId } : {}),
    },
  };
}

/** The calls of `user/wallet/` (docs/api.md "User calls"). */
export function createWalletService(api: Api) {
  return {
    /**
     * Wallet failures clear the loading flag and show no local message (docs/web-app.md "Failures"): the shared toast
     * only, and none for a background re-read (`noToast`), which would otherwise repeat it every interval.
     */
    list: (options: CallOptions = {}) => api.read('user/wallet/', { type: 'list' }, walletList, options),
    addresses: () => api.read('user/wallet/', { type: 'addresses' }, walletAddresses),
    /** A preview failure clears the preview (docs/web-app.md "Failures"); the server's sentence is the toast. */
    previewWithdrawal: (ask: WithdrawalAsk) => api.write('user/wallet/', { type: 'preview_withdrawal', ...ask }, withdrawalPreview),
    /** Executes the preview the server kept: never retried, so nothing leaves twice. */
    confirmWithdrawal: () => api.write('user/wallet/', { type: 'confirm_withdrawal' }, messageResponse),
    history: (input: { page: number; filters: WalletHistoryFilters }) =>
      api.read('user/wallet/', { type: 'history', ...walletHistoryQuery(input.page, input.filters) }, walletHistory),
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
