import { assign, setup } from 'xstate';
import type { OfferComponents, OfferConditions, OfferList, OfferListItem, OfferPaginator } from '../../../contracts/index.ts';
import type { TraderStanding } from '../../../contracts/traders.ts';
import type { OfferSearch } from '../../services/market.ts';
import type { LivePricesLogic, PriceQuote } from '../livePrices/livePrices.machine.ts';
import { keepAnswer, readInto } from '../shared/reading.ts';
import { standingRead } from '../shared/standing.ts';
import { unboundChart, unboundPromise, unboundRule } from '../shared/unbound.ts';
import { filterBy, loadingPage, pageGuards, pagedList, pageTurns } from '../shared/pagedList.ts';

export type OfferBrowserFilters = OfferSearch;
export const emptyFilters: OfferBrowserFilters = { search: '', paymentMethods: [], offerType: '', coinId: '', currencyCode: '' };

export type OfferBrowserContext = {
  components: OfferComponents | null;
  filters: OfferBrowserFilters;
  page: number;
  /**
   * Where each page reached by Next starts, by page number: the `next_cursor` of the page before it. A page is read
   * from there however deep it is, and Previous reads the page that was there, not one shifted by offers published
   * meanwhile. A new filter starts over.
   */
  cursors: Record<number, string>;
  offers: OfferListItem[];
  paginator: OfferPaginator | null;
  /** Each coin's USD price when the screen opened: where the live prices start. */
  coinPrices: PriceQuote[];
  /**
   * The trader's own facts as offers' conditions weigh them (`market/traders/` standing), null until they have
   * loaded: the page of offers is the same for everyone, so it cannot say who may take which.
   */
  standing: TraderStanding | null;
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
  | { type: 'offers.reload' }
  | { type: 'offer.take'; offer: OfferListItem };

/** What the list call is asked: the page, the filters, and where the page starts when the page before named it. */
export type OfferPageRequest = { page: number; filters: OfferBrowserFilters; cursor: string | null };

/** The shared loading of a page (shared/pagedList.ts), asking for the page from its cursor. */
const fromCursor = <State extends { invoke: object }>(state: State) => ({
  ...state,
  invoke: {
    ...state.invoke,
    input: ({ context }: { context: OfferBrowserContext }): OfferPageRequest => ({
      page: context.page,
      filters: context.filters,
      cursor: context.cursors[context.page] ?? null,
    }),
  },
});

/** Browse Offers (docs/api.md "market/offers list"): filters, a debounced trader search, and Previous/Next pages. */
export const offerBrowserMachine = setup({
  types: { context: {} as OfferBrowserContext, events: {} as OfferBrowserEvent },
  actors: {
    loadComponents: unboundPromise<OfferComponents>('loadComponents'),
    // The service turns the screen's filters into the call's (only the non-empty ones).
    loadOffers: unboundPromise<OfferList, OfferPageRequest>('loadOffers'),
    loadPrices: unboundPromise<PriceQuote[]>('loadPrices'),
    loadStanding: unboundPromise<TraderStanding>('loadStanding'),
    // The shared live prices chart (livePrices.machine.ts), declared by its type: this file stands alone.
    livePrices: unboundChart<LivePricesLogic>('livePrices'),
  },
  delays: { searchDebounce: 500 },
  actions: {
    keepComponents: assign((_, params: { components: OfferComponents }) => ({ components: params.components })),
    keepOffers: assign((_, params: { list: OfferList }) => ({ offers: params.list.offers, paginator: params.list.paginator })),
    keepPrices: assign((_, params: { prices: PriceQuote[] }) => ({ coinPrices: params.prices })),
    keepStanding: assign((_, params: { standing: TraderStanding }) => ({ standing: params.standing })),
    /** Opens the Trade Preview dialog on the offer (bound in the route, where the dialog's actor lives). */
    takeOffer: (_, _params: { offer: OfferListItem }) => {},
    setFilter: assign(({ context }, params: Partial<OfferBrowserFilters>) => ({ ...pagedList.filter(context, params), cursors: {} })),
    clearFilters: assign(() => ({ ...pagedList.cleared(emptyFilters), cursors: {} })),
    nextPage: assign(({ context }) => {
      const { page } = pagedList.next(context);
      const start = context.paginator?.next_cursor;
      return { page, cursors: start ? { ...context.cursors, [page]: start } : context.cursors };
    }),
    previousPage: assign(({ context }) => pagedList.previous(context)),
  },
  guards: {
    ...pageGuards,
    /**
     * The trader meets the offer's counterparty conditions (domain/offerConditions.ts, the rule the server refuses
     * an open by), or their standing is unknown and the server will say; bound with the chart (offerBrowser.actors.ts).
     */
    canTake: unboundRule<{ offer: OfferConditions; standing: TraderStanding | null }>('canTake'),
  },
}).createMachine({
  id: 'offerBrowser',
  description:
    'The offer list with its filters (they show once their choices have loaded), and each card’s live price of its coin.',
  context: { components: null, filters: emptyFilters, page: 1, cursors: {}, offers: [], paginator: null, coinPrices: [], standing: null },
  type: 'parallel',
  on: {
    'offer.take': {
      description: 'A card\'s trade button: opens the Trade Preview dialog, unless the trader misses the offer\'s conditions.',
      guard: { type: 'canTake', params: ({ context, event }) => ({ offer: event.offer, standing: context.standing }) },
      actions: { type: 'takeOffer', params: ({ event }) => ({ offer: event.offer }) },
    },
  },
  states: {
    components: {
      description: 'The choices of the filters: payment methods, coins, fiat currencies.',
      initial: 'loading',
      states: {
        loading: {
          invoke: readInto('loadComponents', ['keepComponents', 'components'], {
            done: 'ready',
            failed: 'unavailable',
            failure: 'The choices could not load: nothing shows, the filters stay hidden.',
          }),
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
        'filter.paymentMethods': filterBy('paymentMethods'),
        'filter.offerType': filterBy('offerType'),
        'filter.coin': filterBy('coinId'),
        'filter.currency': filterBy('currencyCode'),
        'filters.clear': { target: '.loading', description: '"Clear All" resets every filter and reloads.', actions: 'clearFilters' },
        ...pageTurns(),
        'offers.reload': { target: '.loading' },
      },
      states: {
        debouncing: {
          after: { searchDebounce: { target: 'loading' } },
        },
        loading: fromCursor(
          loadingPage('loadOffers', { target: 'idle', actions: keepAnswer('keepOffers', 'list') }, { failure: 'A list that fails to load shows no message.' }),
        ),
        idle: {},
      },
    },
    prices: {
      description: 'The coins’ current USD prices, then the coin_price channel: each card shows its coin in the offer’s currency.',
      initial: 'loading',
      states: {
        loading: {
          invoke: readInto('loadPrices', ['keepPrices', 'prices'], {
            done: 'live',
            failed: 'unavailable',
            failure: 'The prices could not load: the cards show no price line.',
          }),
        },
        live: {
          invoke: { id: 'livePrices', src: 'livePrices', input: ({ context }) => ({ prices: context.coinPrices }) },
        },
        unavailable: {},
      },
    },
    standing: standingRead,
  },
});
