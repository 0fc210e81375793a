import type { SnapshotFrom } from 'xstate';
import { historySelectors } from '../shared/pagedList.ts';
import type { tradeHistoryMachine } from './tradeHistory.machine.ts';

type TradeHistorySnapshot = SnapshotFrom<typeof tradeHistoryMachine>;

export const { selectFilters, selectCoins, selectIsLoading, selectHasLoaded, selectCanNext, selectCanPrevious } = historySelectors;
export const selectTrades = (snapshot: TradeHistorySnapshot) => snapshot.context.trades;
