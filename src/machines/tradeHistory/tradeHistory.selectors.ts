import type { SnapshotFrom } from 'xstate';
import type { tradeHistoryMachine } from './tradeHistory.machine.ts';

type TradeHistorySnapshot = SnapshotFrom<typeof tradeHistoryMachine>;

export const selectTrades = (snapshot: TradeHistorySnapshot) => snapshot.context.trades;
export const selectFilters = (snapshot: TradeHistorySnapshot) => snapshot.context.filters;
export const selectCoins = (snapshot: TradeHistorySnapshot) => snapshot.context.coins;
export const selectIsLoading = (snapshot: TradeHistorySnapshot) => snapshot.hasTag('busy');
export const selectHasLoaded = (snapshot: TradeHistorySnapshot) => snapshot.context.paginator !== null;
export const selectCanNext = (snapshot: TradeHistorySnapshot) => snapshot.can({ type: 'page.next' });
export const selectCanPrevious = (snapshot: TradeHistorySnapshot) => snapshot.can({ type: 'page.previous' });
