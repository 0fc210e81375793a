/** Marketplace answers for the offer tests, shaped by the zod contracts. */
import type { EditableOffer, OfferComponents, OfferList, OfferListItem, OfferPaginator, Paginator } from '../../contracts/index.ts';
import type { OfferSearch } from '../../src/services/market.ts';

export const components: OfferComponents = {
  payment_methods: [
    { id: 1, name: 'Bank Transfer' },
    { id: 2, name: 'SEPA' },
    { id: 3, name: 'Cash' },
  ],
  coins: [
    { id: 1, label: 'Bitcoin', ticker: 'btc', image: '/coins/btc.svg' },
    { id: 2, label: 'Ethereum', ticker: 'eth', image: '/coins/eth.svg' },
  ],
  currencies: [
    { code: 'EUR', name: 'Euro', fx_rate: '0.92' },
    { code: 'NGN', name: 'Nigerian Naira', fx_rate: '1530.5' },
  ],
};

/** An offer's conditions when its owner set none: anyone may take it, 3 pending trades at once. */
export const noConditions = { min_completed_trades: 0, min_account_days: 0, require_two_factor: false, max_open_trades: 3 };

export function offerItem(id: number, overrides: Partial<OfferListItem> = {}): OfferListItem {
  return {
    id,
    offer_type: 'sell',
    coin__image: '/coins/btc.svg',
    coin__label: 'Bitcoin',
    coin__ticker: 'btc',
    currency__code: 'EUR',
    rate: '0.95',
    min_amount: '50',
    max_amount: '1000',
    payment_methods: ['SEPA'],
    user__username: 'bob',
    user__rating: '4.8',
    user__trades_count: 12,
    user__ratings_count: 5,
    user__completion_rate: '92.31',
    user__rated_by: 4,
    created: '2025-01-02T10:00:00.000Z',
    ...noConditions,
    ...overrides,
  };
}

export const paginator = (page: number, pages: number): Paginator => ({
  prev: page > 1,
  next: page < pages,
  previous_page: page > 1 ? page - 1 : null,
  next_page: page < pages ? page + 1 : null,
});

/** Where the page after page `page` starts, as Browse Offers' paginator names it (its last offer: offerPage's). */
export const pageCursor = (page: number) => `2025-01-02T10:00:00.000000Z_${page * 100}`;

/** Browse Offers' paginator: the one every list has, and the next page's cursor. */
export const offerPaginator = (page: number, pages: number): OfferPaginator => ({
  ...paginator(page, pages),
  next_cursor: page < pages ? pageCursor(page) : null,
});

/** Page `page` of a list of `pages` pages, one offer each (ids tell the pages apart). */
export const offerPage = (page: number, pages: number, overrides: Partial<OfferListItem> = {}): OfferList => ({
  offers: [offerItem(page * 100, overrides)],
  paginator: offerPaginator(page, pages),
});

export const noOffers: OfferList = { offers: [], paginator: offerPaginator(1, 1) };

export const editable: EditableOffer = {
  id: 42,
  offer_type: 'sell',
  coin__id: 2,
  rate: '1530.25',
  payment_methods: ['Bank Transfer', 'Cash'],
  currency__code: 'NGN',
  terms: 'Pay within 15 minutes.',
  min_amount: '5000.00',
  max_amount: '250000.00',
  is_active: true,
  ...noConditions,
};

/**
 * Browse Offers' filters with `set` chosen, the rest empty, as the chart hands them to `loadOffers`; the
 * service turns them into the call's filters (tests/services/market.test.ts holds that rule's oracle).
 */
export const chosenOffers = (set: Partial<OfferSearch> = {}): OfferSearch => ({
  search: '',
  paymentMethods: [],
  offerType: '',
  coinId: '',
  currencyCode: '',
  ...set,
});
