import type { Coin } from '../../../contracts/index.ts';
import { paging, type Paged } from './paging.ts';

/**
 * The pieces the paged history lists (Recent Trades, Recent Transactions) are built from, so filtering and
 * paging are written once while each chart stays one file the Stately visualizer loads on its own: the coin
 * filter's choices, the filters and pages the list reloads on, the loading of a page, the updates and guards
 * behind them, and what the screens read. A chart adds its own type filter, its call, and whatever its rows
 * need (a pending transaction's refresh). The names it declares in `setup` are the ones used here: `loadCoins`,
 * `keepCoins`, `setFilter`, `clearFilters`, `nextPage`, `previousPage`, and the guards of `pageGuards`. Browse
 * Offers, a paged list with filters of its own, takes `filterBy`, `pageTurns`, the updates and the guards.
 */

/** The filters every history list has besides its own type filter. */
type Filters = { status: string; coinId: string };
/** What a history list's context holds of its list: the filters as set, the page asked for, the last paginator. */
export type FilteredPage<F extends Filters> = Paged & { filters: F };

/** A history list's context besides its rows: the coin filter's choices, the filters, the page, the last paginator. */
export type HistoryList<F extends Filters> = FilteredPage<F> & { coins: Coin[] };

/** The events every history list takes alike, besides its own type filter (the frame src/ui/history/HistoryPage.tsx sends them). */
export type HistoryListEvent<F extends Filters> =
  | { type: 'filter.status'; value: F['status'] }
  | { type: 'filter.coin'; value: string }
  | { type: 'filters.clear' }
  | { type: 'page.next' }
  | { type: 'page.previous' };

/** The coin filter's choices (a parallel region): asked for once; a failure leaves the filter without choices. */
export const coinChoices = () => ({
  description: 'The choices of the coin filter.',
  initial: 'loading' as const,
  states: {
    loading: {
      invoke: {
        id: 'loadCoins',
        src: 'loadCoins' as const,
        onDone: {
          target: 'ready',
          actions: { type: 'keepCoins' as const, params: ({ event }: { event: { output: Coin[] } }) => ({ coins: event.output }) },
        },
        onError: { target: 'ready' },
      },
    },
    ready: {},
  },
});

/**
 * A filter's transition: the event's value becomes the filter `name` (`setFilter`) and the list loads again,
 * from its first page.
 */
export const filterBy = <const Name extends string>(name: Name) => ({
  target: '.loading' as const,
  actions: { type: 'setFilter' as const, params: <Value>({ event }: { event: { value: Value } }) => ({ [name]: event.value }) as Record<Name, Value> },
});

/** Previous/Next load the list again, only where the server's paginator has a page there. */
export const pageTurns = () => ({
  'page.next': { guard: 'hasNextPage' as const, target: '.loading', actions: 'nextPage' as const },
  'page.previous': { guard: 'hasPreviousPage' as const, target: '.loading', actions: 'previousPage' as const },
});

/** The history list region's shared transitions: the status and coin filters, "Clear All", Previous/Next. */
export const filterAndPage = () => ({
  'filter.status': filterBy('status'),
  'filter.coin': filterBy('coinId'),
  'filters.clear': { target: '.loading', actions: 'clearFilters' as const },
  ...pageTurns(),
});

/**
 * A paged list's `loading` state (the histories, Browse Offers, the audit log): the call `src` (invoked as `src`)
 * asked for the page and filters as they stand, `onDone` keeps its answer; a failure goes back to `idle`, the rows
 * shown staying (`failure` says what shows; by default only the busy flag clears, the shared toast says why).
 * `description` words the state, where the chart says more of it.
 */
export const loadingPage = <const Src extends string, OnDone>(
  src: Src,
  onDone: OnDone,
  { description, failure = 'The loading flag clears; no message of its own.' }: { description?: string; failure?: string } = {},
) => ({
  tags: ['busy' as const],
  ...(description === undefined ? {} : { description }),
  invoke: {
    id: src,
    src,
    input: <F>({ context }: { context: Paged & { filters: F } }) => ({ page: context.page, filters: context.filters }),
    onDone,
    onError: { target: 'idle', description: failure },
  },
});

/** The updates behind the shared transitions, for the chart's `assign` actions. */
export const pagedList = {
  /** One filter changed: the others stay, the list starts again from its first page. */
  filter: <F extends object>({ filters }: { filters: F }, change: Partial<F>) => ({ filters: { ...filters, ...change }, page: 1 }),
  /** "Clear All": nothing chosen, the first page. */
  cleared: <F extends object>(none: F) => ({ filters: none, page: 1 }),
  next: (list: Paged) => ({ page: paging.next(list) }),
  previous: (list: Paged) => ({ page: paging.previous(list) }),
};

/** The guards of Previous/Next, for the chart's `setup`: a page there only when the server's paginator says so. */
export const pageGuards = {
  hasNextPage: ({ context }: { context: Paged }) => paging.hasNext(context),
  hasPreviousPage: ({ context }: { context: Paged }) => paging.hasPrevious(context),
};

/** What a screen reads of a history list alike: its snapshot, as far as these selectors need it. */
type HistorySnapshot<F extends Filters> = {
  context: HistoryList<F>;
  hasTag: (tag: 'busy') => boolean;
  can: (event: { type: 'page.next' } | { type: 'page.previous' }) => boolean;
};

/** The selectors both history screens read alike; each chart's selectors file adds its rows. */
export const historySelectors = {
  selectFilters: <F extends Filters>(snapshot: HistorySnapshot<F>) => snapshot.context.filters,
  selectCoins: <F extends Filters>(snapshot: HistorySnapshot<F>) => snapshot.context.coins,
  selectIsLoading: <F extends Filters>(snapshot: HistorySnapshot<F>) => snapshot.hasTag('busy'),
  /** Whether an answer came: before it, the empty list's sentence does not show. */
  selectHasLoaded: <F extends Filters>(snapshot: HistorySnapshot<F>) => snapshot.context.paginator !== null,
  selectCanNext: <F extends Filters>(snapshot: HistorySnapshot<F>) => snapshot.can({ type: 'page.next' }),
  selectCanPrevious: <F extends Filters>(snapshot: HistorySnapshot<F>) => snapshot.can({ type: 'page.previous' }),
};
