import { assign, setup } from 'xstate';
import type { Coin, TradeHistory, TradeHistoryRow } from '../../../contracts/index.ts';
import type { TradeHistoryFilters } from '../../services/trades.ts';
import { unboundPromise } from '../shared/unbound.ts';
import { coinChoices, filterAndPage, filterBy, loadingPage, pageGuards, pagedList, type HistoryList, type HistoryListEvent } from '../shared/pagedList.ts';

export type { TradeHistoryFilters };
export const noTradeFilters: TradeHistoryFilters = { tradeType: '', status: '', coinId: '' };

export type TradeHistoryContext = HistoryList<TradeHistoryFilters> & { trades: TradeHistoryRow[] };
export type TradeHistoryEvent = { type: 'filter.tradeType'; value: TradeHistoryFilters['tradeType'] } | HistoryListEvent<TradeHistoryFilters>;

/** Recent Trades (/trades): type, status and coin filters with Previous/Next pages. */
export const tradeHistoryMachine = setup({
  types: { context: {} as TradeHistoryContext, events: {} as TradeHistoryEvent },
  actors: {
    loadCoins: unboundPromise<Coin[]>('loadCoins'),
    // The service turns the screen's filters into the call's query (only the set ones).
    loadTrades: unboundPromise<TradeHistory, { page: number; filters: TradeHistoryFilters }>('loadTrades'),
  },
  actions: {
    keepCoins: assign((_, params: { coins: Coin[] }) => ({ coins: params.coins })),
    keepTrades: assign((_, params: { history: TradeHistory }) => ({
      trades: params.history.trades,
      paginator: params.history.paginator,
    })),
    setFilter: assign(({ context }, params: Partial<TradeHistoryFilters>) => pagedList.filter(context, params)),
    clearFilters: assign(() => pagedList.cleared(noTradeFilters)),
    nextPage: assign(({ context }) => pagedList.next(context)),
    previousPage: assign(({ context }) => pagedList.previous(context)),
  },
  guards: pageGuards,
}).createMachine({
  id: 'tradeHistory',
  description: "The signed-in trader's trades, newest first.",
  context: { coins: [], filters: noTradeFilters, page: 1, trades: [], paginator: null },
  type: 'parallel',
  states: {
    coins: coinChoices(),
    list: {
      initial: 'loading',
      on: {
        'filter.tradeType': filterBy('tradeType'),
        ...filterAndPage(),
      },
      states: {
        loading: loadingPage('loadTrades', {
          target: 'idle',
          actions: { type: 'keepTrades', params: ({ event }: { event: { output: TradeHistory } }) => ({ history: event.output }) },
        }),
        idle: {},
      },
    },
  },
});
