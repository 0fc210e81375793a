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

/** The marketplace calls of spec section 7 (`base/coins/`, `market/offers/`). */
export function createMarketService(api: Api) {
  return {
    coins: () => api.read('base/coins/', {}, coinsResponse),
    /** The offer form asks with `drop: 10` (spec section 9); the list screen without. */
    offerComponents: (options: { forForm?: boolean } = {}) =>
      api.read('market/offers/', options.forForm ? { type: 'components', drop: 10 } : { type: 'components' }, offerComponents, {
        noToast: true,
      }),
    listOffers: (input: { page: number; filters: OfferFilters }) =>
      api.read('market/offers/', { type: 'list', ...input }, offerList, { noToast: true }),
    getOffer: (input: { id: number }) => api.read('market/offers/', { type: 'get', ...input }, editableOffer),
    saveOffer: (input: Omit<OfferInput, 'type'>) => api.write('market/offers/', { type: 'create', ...input }, messageResponse),
    toggleOffer: (input: { id: number }) => api.write('market/offers/', { type: 'toggle', ...input }, offerToggleResponse),
  };
}

export type MarketService = ReturnType<typeof createMarketService>;
