import { assign, setup } from 'xstate';
import type { Coin, Paginator, TradeHistory, TradeHistoryRow } from '../../../contracts/index.ts';
import type { TradeHistoryFilters } from '../../services/trades.ts';
import { unboundPromise } from '../shared/unbound.ts';
import { paging } from '../shared/paging.ts';

export type { TradeHistoryFilters };
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
    setFilter: assign(({ context }, params: Partial<TradeHistoryFilters>) => ({ filters: { ...context.filters, ...params }, page: 1 })),
    clearFilters: assign({ filters: noTradeFilters, page: 1 }),
    nextPage: assign(({ context }) => ({ page: paging.next(context) })),
    previousPage: assign(({ context }) => ({ page: paging.previous(context) })),
  },
  guards: {
    hasNextPage: ({ context }) => paging.hasNext(context),
    hasPreviousPage: ({ context }) => paging.hasPrevious(context),
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
            input: ({ context }) => ({ page: context.page, filters: context.filters }),
            onDone: { target: 'idle', actions: { type: 'keepTrades', params: ({ event }) => ({ history: event.output }) } },
            onError: { target: 'idle', description: 'The loading flag clears; no message of its own.' },
          },
        },
        idle: {},
      },
    },
  },
});
