import type { SnapshotFrom } from 'xstate';
import type { walletHistoryMachine } from './walletHistory.machine.ts';

type WalletHistorySnapshot = SnapshotFrom<typeof walletHistoryMachine>;

export const selectTransactions = (snapshot: WalletHistorySnapshot) => snapshot.context.transactions;
export const selectFilters = (snapshot: WalletHistorySnapshot) => snapshot.context.filters;
export const selectCoins = (snapshot: WalletHistorySnapshot) => snapshot.context.coins;
export const selectIsLoading = (snapshot: WalletHistorySnapshot) => snapshot.hasTag('busy');
export const selectHasLoaded = (snapshot: WalletHistorySnapshot) => snapshot.context.paginator !== null;
export const selectCanNext = (snapshot: WalletHistorySnapshot) => snapshot.can({ type: 'page.next' });
export const selectCanPrevious = (snapshot: WalletHistorySnapshot) => snapshot.can({ type: 'page.previous' });
/** A pending row is on the page: it refreshes by itself (between refreshes and during one). */
export const selectIsWatching = (snapshot: WalletHistorySnapshot) =>
  snapshot.matches({ list: 'watching' }) || snapshot.matches({ list: 'refreshing' });
