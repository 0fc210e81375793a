import { assign, fromPromise, setup } from 'xstate';
import type { Coin, Paginator, TradeHistory, TradeHistoryRow } from '../../../contracts/index.ts';
import type { TradeHistoryQuery } from '../../services/trades.ts';
import { hasNextPage, hasPreviousPage, nextPageOf, previousPageOf } from '../shared/paging.ts';

export type TradeHistoryFilters = {
  tradeType: '' | 'buy' | 'sell';
  status: '' | 'pending' | 'completed' | 'cancelled';
  coinId: string;
};
export const noTradeFilters: TradeHistoryFilters = { tradeType: '', status: '', coinId: '' };

export type TradeHistoryContext = {
  coins: Coin[];
  filters: TradeHistoryFilters;
  page: number;
  trades: TradeHistoryRow[];
  paginator: Paginator | null;
};
export type TradeHistoryEvent =
  | { type: 'filter.tradeType'; value: TradeHistoryFilters['tradeType'] }
  | { type: 'filter.status'; value: TradeHistoryFilters['status'] }
  | { type: 'filter.coin'; value: string }
  | { type: 'filters.clear' }
  | { type: 'page.next' }
  | { type: 'page.previous' };

/** The `market/trade/` history query: only set filters are sent. */
export function toHistoryQuery(context: Pick<TradeHistoryContext, 'filters' | 'page'>): TradeHistoryQuery {
  const { filters, page } = context;
  return {
    page,
    ...(filters.tradeType ? { trade_type: filters.tradeType } : {}),
    filters: {
      ...(filters.status ? { status: filters.status } : {}),
      ...(filters.coinId ? { offer__coin__id: filters.coinId } : {}),
    },
  };
}

/** Recent Trades (/trades): type, status and coin filters with Previous/Next pages. */
export const tradeHistoryMachine = setup({
  types: { context: {} as TradeHistoryContext, events: {} as TradeHistoryEvent },
  actors: {
    loadCoins: fromPromise<Coin[]>(async () => {
      throw new Error('loadCoins is bound by the composition root');
    }),
    loadTrades: fromPromise<TradeHistory, TradeHistoryQuery>(async () => {
      throw new Error('loadTrades is bound by the composition root');
    }),
  },
  actions: {
    keepCoins: assign((_, params: { coins: Coin[] }) => ({ coins: params.coins })),
    keepTrades: assign((_, params: { history: TradeHistory }) => ({
      trades: params.history.trades,
      paginator: params.history.paginator,
    })),
    setFilter: assign(({ context }, params: Partial<TradeHistoryFilters>) => ({ filters: { ...context.filters, ...params }, page: 1 })),
    clearFilters: assign({ filters: noTradeFilters, page: 1 }),
    nextPage: assign(({ context }) => ({ page: nextPageOf(context) })),
    previousPage: assign(({ context }) => ({ page: previousPageOf(context) })),
  },
  guards: {
    hasNextPage: ({ context }) => hasNextPage(context),
    hasPreviousPage: ({ context }) => hasPreviousPage(context),
  },
}).createMachine({
  id: 'tradeHistory',
  description: "The signed-in trader's trades, newest first.",
  context: { coins: [], filters: noTradeFilters, page: 1, trades: [], paginator: null },
  type: 'parallel',
  states: {
    coins: {
      description: 'The choices of the coin filter.',
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'loadCoins',
            src: 'loadCoins',
            onDone: { target: 'ready', actions: { type: 'keepCoins', params: ({ event }) => ({ coins: event.output }) } },
            onError: { target: 'ready' },
          },
        },
        ready: {},
      },
    },
    list: {
      initial: 'loading',
      on: {
        'filter.tradeType': {
          target: '.loading',
          actions: { type: 'setFilter', params: ({ event }) => ({ tradeType: event.value }) },
        },
        'filter.status': {
          target: '.loading',
          actions: { type: 'setFilter', params: ({ event }) => ({ status: event.value }) },
        },
        'filter.coin': {
          target: '.loading',
          actions: { type: 'setFilter', params: ({ event }) => ({ coinId: event.value }) },
        },
        'filters.clear': { target: '.loading', actions: 'clearFilters' },
        'page.next': { guard: 'hasNextPage', target: '.loading', actions: 'nextPage' },
        'page.previous': { guard: 'hasPreviousPage', target: '.loading', actions: 'previousPage' },
      },
      states: {
        loading: {
          tags: ['busy'],
          invoke: {
            id: 'loadTrades',
            src: 'loadTrades',
            input: ({ context }) => toHistoryQuery(context),
            onDone: { target: 'idle', actions: { type: 'keepTrades', params: ({ event }) => ({ history: event.output }) } },
            onError: { target: 'idle', description: 'Spec section 8: the loading flag clears, no local message.' },
          },
        },
        idle: {},
      },
    },
  },
});
