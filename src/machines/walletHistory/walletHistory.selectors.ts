import type { SnapshotFrom } from 'xstate';
import { historySelectors } from '../shared/pagedList.ts';
import type { walletHistoryMachine } from './walletHistory.machine.ts';

type WalletHistorySnapshot = SnapshotFrom<typeof walletHistoryMachine>;

export const { selectFilters, selectCoins, selectIsLoading, selectHasLoaded, selectCanNext, selectCanPrevious } = historySelectors;
export const selectTransactions = (snapshot: WalletHistorySnapshot) => snapshot.context.transactions;
/** A pending row is on the page: it refreshes by itself (between refreshes and during one). */
export const selectIsWatching = (snapshot: WalletHistorySnapshot) =>
  snapshot.matches({ list: 'watching' }) || snapshot.matches({ list: 'refreshing' });
