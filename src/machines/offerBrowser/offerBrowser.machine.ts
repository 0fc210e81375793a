import { assign, fromPromise, setup } from 'xstate';
import type { OfferComponents, OfferFilters, OfferList, OfferListItem, Paginator } from '../../../contracts/index.ts';
import { hasNextPage, hasPreviousPage, nextPageOf, previousPageOf } from '../shared/paging.ts';

export type OfferBrowserFilters = {
  search: string;
  paymentMethods: string[];
  offerType: '' | 'buy' | 'sell';
  coinId: string;
  currencyCode: string;
};
export const emptyFilters: OfferBrowserFilters = { search: '', paymentMethods: [], offerType: '', coinId: '', currencyCode: '' };

export type OfferBrowserContext = {
  components: OfferComponents | null;
  filters: OfferBrowserFilters;
  page: number;
  offers: OfferListItem[];
  paginator: Paginator | null;
};
export type OfferBrowserEvent =
  | { type: 'filter.search'; value: string }
  | { type: 'filter.paymentMethods'; value: string[] }
  | { type: 'filter.offerType'; value: OfferBrowserFilters['offerType'] }
  | { type: 'filter.coin'; value: string }
  | { type: 'filter.currency'; value: string }
  | { type: 'filters.clear' }
  | { type: 'page.next' }
  | { type: 'page.previous' }
  | { type: 'offers.reload' };

/** Spec section 7: the filters object carries only the non-empty entries. */
export function toRequestFilters(filters: OfferBrowserFilters): OfferFilters {
  const request: OfferFilters = {};
  if (filters.search.trim()) request.user__username__icontains = filters.search.trim();
  if (filters.paymentMethods.length) request.payment_methods__overlap = filters.paymentMethods;
  if (filters.offerType) request.offer_type = filters.offerType;
  if (filters.coinId) request.coin__id = filters.coinId;
  if (filters.currencyCode) request.currency__code = filters.currencyCode;
  return request;
}

/** Browse Offers (spec sections 2 and 4): filters, a debounced trader search, and Previous/Next pages. */
export const offerBrowserMachine = setup({
  types: { context: {} as OfferBrowserContext, events: {} as OfferBrowserEvent },
  actors: {
    loadComponents: fromPromise<OfferComponents>(async () => {
      throw new Error('loadComponents is bound by the composition root');
    }),
    loadOffers: fromPromise<OfferList, { page: number; filters: OfferFilters }>(async () => {
      throw new Error('loadOffers is bound by the composition root');
    }),
  },
  delays: { searchDebounce: 500 },
  actions: {
    keepComponents: assign((_, params: { components: OfferComponents }) => ({ components: params.components })),
    keepOffers: assign((_, params: { list: OfferList }) => ({ offers: params.list.offers, paginator: params.list.paginator })),
    setFilter: assign(({ context }, params: Partial<OfferBrowserFilters>) => ({
      filters: { ...context.filters, ...params },
      page: 1,
    })),
    clearFilters: assign({ filters: emptyFilters, page: 1 }),
    nextPage: assign(({ context }) => ({ page: nextPageOf(context) })),
    previousPage: assign(({ context }) => ({ page: previousPageOf(context) })),
  },
  guards: {
    hasNextPage: ({ context }) => hasNextPage(context),
    hasPreviousPage: ({ context }) => hasPreviousPage(context),
  },
}).createMachine({
  id: 'offerBrowser',
  description: 'The offer list with its filters; the filters show once their choices have loaded.',
  context: { components: null, filters: emptyFilters, page: 1, offers: [], paginator: null },
  type: 'parallel',
  states: {
    components: {
      description: 'The choices of the filters: payment methods, coins, fiat currencies.',
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'loadComponents',
            src: 'loadComponents',
            onDone: {
              target: 'ready',
              actions: { type: 'keepComponents', params: ({ event }) => ({ components: event.output }) },
            },
            onError: { target: 'unavailable', description: 'Spec section 8: nothing shows; the filters stay hidden.' },
          },
        },
        ready: { description: 'The filters show.' },
        unavailable: {},
      },
    },
    list: {
      initial: 'loading',
      on: {
        'filter.search': {
          target: '.debouncing',
          description: 'Typing in the trader search waits 500 ms of quiet before reloading.',
          actions: { type: 'setFilter', params: ({ event }) => ({ search: event.value }) },
        },
        'filter.paymentMethods': {
          target: '.loading',
          actions: { type: 'setFilter', params: ({ event }) => ({ paymentMethods: event.value }) },
        },
        'filter.offerType': {
          target: '.loading',
          actions: { type: 'setFilter', params: ({ event }) => ({ offerType: event.value }) },
        },
        'filter.coin': {
          target: '.loading',
          actions: { type: 'setFilter', params: ({ event }) => ({ coinId: event.value }) },
        },
        'filter.currency': {
          target: '.loading',
          actions: { type: 'setFilter', params: ({ event }) => ({ currencyCode: event.value }) },
        },
        'filters.clear': { target: '.loading', description: '"Clear All" resets every filter and reloads.', actions: 'clearFilters' },
        'page.next': { guard: 'hasNextPage', target: '.loading', actions: 'nextPage' },
        'page.previous': { guard: 'hasPreviousPage', target: '.loading', actions: 'previousPage' },
        'offers.reload': { target: '.loading' },
      },
      states: {
        debouncing: {
          after: { searchDebounce: { target: 'loading' } },
        },
        loading: {
          tags: ['busy'],
          invoke: {
            id: 'loadOffers',
            src: 'loadOffers',
            input: ({ context }) => ({ page: context.page, filters: toRequestFilters(context.filters) }),
            onDone: { target: 'idle', actions: { type: 'keepOffers', params: ({ event }) => ({ list: event.output }) } },
            onError: { target: 'idle', description: 'Spec section 8: a list failure shows no message.' },
          },
        },
        idle: {},
      },
    },
  },
});
