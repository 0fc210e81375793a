import {
  coinsResponse,
  editableOffer,
  messageResponse,
  offerComponents,
  offerList,
  offerToggleResponse,
  type OfferFilters,
  type OfferInput,
} from '../../contracts/index.ts';
import type { Api } from './api.ts';

/** Browse Offers' filters as the screen holds them; empty strings and lists are no filter. */
export type OfferSearch = {
  search: string;
  paymentMethods: string[];
  offerType: '' | 'buy' | 'sell';
  coinId: string;
  currencyCode: string;
};

/** The list call's filters carry only the non-empty entries (docs/api.md "market/offers list"). */
export function offerFilters(search: OfferSearch): OfferFilters {
  const filters: OfferFilters = {};
  if (search.search.trim()) filters.user__username__icontains = search.search.trim();
  if (search.paymentMethods.length) filters.payment_methods__overlap = search.paymentMethods;
  if (search.offerType) filters.offer_type = search.offerType;
  if (search.coinId) filters.coin__id = search.coinId;
  if (search.currencyCode) filters.currency__code = search.currencyCode;
  return filters;
}

/**
 * The marketplace calls `base/coins/` and `market/offers/` (docs/api.md "User calls", "market/offers list",
 * "Other market/offers calls").
 */
export function createMarketService(api: Api) {
  return {
    coins: () => api.read('base/coins/', {}, coinsResponse),
    /** Each coin's current USD price, for the live prices on the offer cards; quiet on failure (no price line). */
    coinPrices: () =>
      api
        .read('base/coins/', {}, coinsResponse, { noToast: true })
        .then((coins) => coins.map((coin) => ({ ticker: coin.ticker, price: coin.price }))),
    /** The offer form asks with `drop: 10` (docs/api.md "Other market/offers calls"); the list screen without. */
    offerComponents: (options: { forForm?: boolean } = {}) =>
      api.read('market/offers/', options.forForm ? { type: 'components', drop: 10 } : { type: 'components' }, offerComponents, {
        noToast: true,
      }),
    /** A page from its cursor (the page before's `next_cursor`) when there is one, else counted from the top. */
    listOffers: (input: { page: number; filters: OfferSearch; cursor?: string | null }) =>
      api.read(
        'market/offers/',
        { type: 'list', page: input.page, filters: offerFilters(input.filters), ...(input.cursor ? { cursor: input.cursor } : {}) },
        offerList,
        { noToast: true },
      ),
    getOffer: (input: { id: number }) => api.read('market/offers/', { type: 'get', ...input }, editableOffer),
    saveOffer: (input: Omit<OfferInput, 'type'>) => api.write('market/offers/', { type: 'create', ...input }, messageResponse),
    toggleOffer: (input: { id: number }) => api.write('market/offers/', { type: 'toggle', ...input }, offerToggleResponse),
  };
}

export type MarketService = ReturnType<typeof createMarketService>;
