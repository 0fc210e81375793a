import { assign, setup } from 'xstate';
import type { Paginator } from '../../../contracts/market.ts';
import type { TraderRow, TraderSearchResult } from '../../../contracts/operator.ts';
import { pageGuards, pageTurns, pagedList } from '../shared/pagedList.ts';
import { unboundPromise } from '../shared/unbound.ts';

export type TraderSearchInput = {
  /** The search the page was opened with (`/operator/traders?q=`), if any. */
  query: string;
};

export type TraderSearchContext = {
  /** What is typed in the search box. */
  query: string;
  /** The search the rows answer (the query as it was when they were asked for). */
  searched: string;
  page: number;
  paginator: Paginator | null;
  traders: TraderRow[];
};

export type TraderSearchEvent =
  | { type: 'query.change'; value: string }
  | { type: 'search.submit' }
  | { type: 'page.next' }
  | { type: 'page.previous' };

/** /operator/traders: anyone by username or email (part of either), newest first, in pages. */
export const traderSearchMachine = setup({
  types: { context: {} as TraderSearchContext, events: {} as TraderSearchEvent, input: {} as TraderSearchInput },
  actors: {
    searchTraders: unboundPromise<TraderSearchResult, { query: string; page: number }>('searchTraders'),
  },
  actions: {
    setQuery: assign((_, params: { value: string }) => ({ query: params.value })),
    /** A new search starts from its first page. */
    firstPage: assign(({ context }) => ({ page: 1, searched: context.query })),
    keepTraders: assign((_, params: { result: TraderSearchResult }) => ({ traders: params.result.traders, paginator: params.result.paginator })),
    nextPage: assign(({ context }) => pagedList.next(context)),
    previousPage: assign(({ context }) => pagedList.previous(context)),
  },
  guards: pageGuards,
  delays: {
    /** The pause after the last keystroke before the search is asked for (docs/web-app.md "Fixed figures"). */
    searchDebounce: 500,
  },
}).createMachine({
  id: 'traderSearch',
  description: 'Traders by username or email, asked for once the operator stops typing, with Previous/Next.',
  context: ({ input }) => ({ query: input.query, searched: input.query, page: 1, paginator: null, traders: [] }),
  initial: 'loading',
  on: {
    'query.change': { target: '.debouncing', actions: { type: 'setQuery', params: ({ event }) => ({ value: event.value }) } },
    'search.submit': { target: '.loading', actions: 'firstPage', description: 'Enter: at once, no pause.' },
    ...pageTurns(),
  },
  states: {
    debouncing: {
      description: 'Typing: the search waits for a pause.',
      after: { searchDebounce: { target: 'loading', actions: 'firstPage' } },
    },
    loading: {
      tags: ['busy'],
      description: 'The page of the search asked for; the rows shown stay meanwhile.',
      invoke: {
        id: 'searchTraders',
        src: 'searchTraders',
        input: ({ context }) => ({ query: context.searched, page: context.page }),
        onDone: { target: 'idle', actions: { type: 'keepTraders', params: ({ event }) => ({ result: event.output }) } },
        onError: { target: 'idle', description: 'The rows stay; the shared toast says why.' },
      },
    },
    idle: { description: 'The rows, or "No trader matches …".' },
  },
});

export type TraderSearchLogic = typeof traderSearchMachine;
