import { offerComponents, offerList, type OfferFilters } from '../../contracts/index.ts';
import { createMarketService, offerFilters, type OfferSearch } from '../../src/services/market.ts';
import { apiWith, fakeServer, noToast, ok, recordingApi } from '../support/api.ts';
import { components, offerPage, pageCursor } from '../support/offers.ts';

/** Browse Offers with nothing chosen, written out here rather than taken from the chart. */
const blank: OfferSearch = { search: '', paymentMethods: [], offerType: '', coinId: '', currencyCode: '' };

/** docs/api.md "market/offers list", written out here: only the non-empty entries, the search trimmed. */
function specFilters(search: OfferSearch): OfferFilters {
  return Object.fromEntries(
    Object.entries({
      user__username__icontains: search.search.trim(),
      payment_methods__overlap: search.paymentMethods,
      offer_type: search.offerType,
      coin__id: search.coinId,
      currency__code: search.currencyCode,
    }).filter(([, value]) => value.length > 0),
  );
}

/** Every combination of a few values of each filter, empty ones (and a blank search) included. */
function allSearches(): OfferSearch[] {
  const searches: OfferSearch[] = [];
  for (const search of ['', '   ', 'ali', '  ali '])
    for (const paymentMethods of [[], ['SEPA'], ['SEPA', 'Cash']])
      for (const offerType of ['', 'buy', 'sell'] as const)
        for (const coinId of ['', '2'])
          for (const currencyCode of ['', 'EUR']) searches.push({ search, paymentMethods, offerType, coinId, currencyCode });
  return searches;
}

describe('offerFilters (docs/api.md "market/offers list")', () => {
  it('sends nothing for blank filters', () => {
    expect(offerFilters(blank)).toStrictEqual({});
  });

  it.each([
    ['a trader search', { search: 'ali' }, { user__username__icontains: 'ali' }],
    ['a search with spaces around it', { search: '  ali ' }, { user__username__icontains: 'ali' }],
    ['payment methods', { paymentMethods: ['SEPA', 'Cash'] }, { payment_methods__overlap: ['SEPA', 'Cash'] }],
    ['an offer type', { offerType: 'buy' as const }, { offer_type: 'buy' }],
    ['a coin', { coinId: '2' }, { coin__id: '2' }],
    ['a fiat currency', { currencyCode: 'EUR' }, { currency__code: 'EUR' }],
  ])('sends only %s when only that is set', (_, set, expected) => {
    expect(offerFilters({ ...blank, ...set })).toStrictEqual(expected);
  });

  it('leaves out every empty entry: a blank search, no methods, "any" type, all coins, all currencies', () => {
    const request = offerFilters({ search: '   ', paymentMethods: [], offerType: '', coinId: '', currencyCode: '' });
    expect(request).toStrictEqual({});
    expect(Object.keys(request)).toEqual([]);
  });

  it('sends all five when all are set', () => {
    expect(offerFilters({ search: 'bob', paymentMethods: ['Cash'], offerType: 'sell', coinId: '1', currencyCode: 'NGN' })).toStrictEqual({
      user__username__icontains: 'bob',
      payment_methods__overlap: ['Cash'],
      offer_type: 'sell',
      coin__id: '1',
      currency__code: 'NGN',
    });
  });

  it('matches the rule for every combination of set and empty filters, with no key for an empty one', () => {
    const searches = allSearches();
    expect(searches).toHaveLength(144);
    for (const search of searches) {
      const filters = offerFilters(search);
      expect(filters, JSON.stringify(search)).toStrictEqual(specFilters(search));
      const empty = (value: unknown) => value === undefined || (Array.isArray(value) ? value.length === 0 : String(value).trim() === '');
      expect(Object.values(filters).some(empty), JSON.stringify(search)).toBe(false);
    }
  });

  it('leaves the screen’s filters as they were', () => {
    const search: OfferSearch = { search: ' ali ', paymentMethods: ['SEPA'], offerType: 'buy', coinId: '2', currencyCode: 'EUR' };
    const copy = structuredClone(search);
    offerFilters(search);
    expect(search).toStrictEqual(copy);
  });
});

describe('createMarketService(api).listOffers', () => {
  it('reads market/offers/ with {type: "list", page, filters} in the list format, without a toast, and returns the answer', async () => {
    const { api, calls } = recordingApi({ list: offerPage(2, 3) });
    const market = createMarketService(api);
    const answer = await market.listOffers({ page: 2, filters: { ...blank, offerType: 'sell', coinId: '2' } });
    expect(answer).toEqual(offerPage(2, 3));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.how).toBe('read');
    expect(calls[0]!.path).toBe('market/offers/');
    expect(calls[0]!.body).toStrictEqual({ type: 'list', page: 2, filters: { offer_type: 'sell', coin__id: '2' } });
    expect(calls[0]!.schema).toBe(offerList);
    expect(calls[0]!.options).toStrictEqual({ noToast: true });
  });

  it('sends the cursor a page starts from when there is one, and none otherwise', async () => {
    const { api, calls } = recordingApi({ list: offerPage(3, 3) });
    const market = createMarketService(api);
    await market.listOffers({ page: 3, filters: { ...blank, coinId: '2' }, cursor: pageCursor(2) });
    await market.listOffers({ page: 3, filters: blank, cursor: null });
    expect(calls.map(({ body }) => body)).toStrictEqual([
      { type: 'list', page: 3, filters: { coin__id: '2' }, cursor: pageCursor(2) },
      { type: 'list', page: 3, filters: {} },
    ]);
  });

  it.each(allSearches().map((search) => [JSON.stringify(search), search] as const))(
    'sends exactly {type: "list", page, filters} for %s',
    async (_, search) => {
      const { api, calls } = recordingApi({ list: offerPage(1, 1) });
      await createMarketService(api).listOffers({ page: 4, filters: search });
      expect(calls.map(({ how, path, body }) => ({ how, path, body }))).toStrictEqual([
        { how: 'read', path: 'market/offers/', body: { type: 'list', page: 4, filters: specFilters(search) } },
      ]);
    },
  );

  it('still asks for the components separately: no drop for the list screen, drop 10 for the form, without toasts', async () => {
    const { api, calls } = recordingApi({ components });
    const market = createMarketService(api);
    await market.offerComponents();
    await market.offerComponents({ forForm: true });
    expect(calls).toStrictEqual([
      { how: 'read', path: 'market/offers/', body: { type: 'components' }, schema: offerComponents, options: { noToast: true } },
      { how: 'read', path: 'market/offers/', body: { type: 'components', drop: 10 }, schema: offerComponents, options: { noToast: true } },
    ]);
  });
});

describe('createMarketService over HTTP', () => {
  it('POSTs the list body with only the non-empty filters and X-No-Toast', async () => {
    const server = fakeServer(ok(offerPage(1, 1)));
    const market = createMarketService(apiWith(server).api);
    await expect(market.listOffers({ page: 1, filters: blank })).resolves.toEqual(offerPage(1, 1));
    await market.listOffers({
      page: 3,
      filters: { search: ' bob ', paymentMethods: ['SEPA', 'Cash'], offerType: '', coinId: '1', currencyCode: '' },
    });
    expect(server.sent.map((sent) => ({ url: sent.url, body: sent.body, noToast: noToast(sent) }))).toStrictEqual([
      { url: '/api/market/offers/', body: { type: 'list', page: 1, filters: {} }, noToast: true },
      {
        url: '/api/market/offers/',
        body: { type: 'list', page: 3, filters: { user__username__icontains: 'bob', payment_methods__overlap: ['SEPA', 'Cash'], coin__id: '1' } },
        noToast: true,
      },
    ]);
  });
});

describe('createMarketService(api).coinPrices', () => {
  const bitcoin = {
    id: 1,
    label: 'Bitcoin',
    ticker: 'BTC',
    image: '/coins/btc.svg',
    decimal_places: 8,
    price: '60000.00',
    networks: [{ id: 1, name: 'Bitcoin', key: 'bitcoin', image: '/networks/bitcoin.svg' }],
  };

  it('reads base/coins/ without a toast and keeps each coin’s ticker and USD price, as sent', async () => {
    const server = fakeServer(ok([bitcoin, { ...bitcoin, id: 2, ticker: 'ETH', price: '3000.10', networks: [] }]));
    const { api, onError } = apiWith(server);
    await expect(createMarketService(api).coinPrices()).resolves.toStrictEqual([
      { ticker: 'BTC', price: '60000.00' },
      { ticker: 'ETH', price: '3000.10' },
    ]);
    expect(server.sent.map((sent) => ({ url: sent.url, body: sent.body, noToast: noToast(sent) }))).toStrictEqual([
      { url: '/api/base/coins/', body: {}, noToast: true },
    ]);
    expect(onError).not.toHaveBeenCalled();
  });
});
