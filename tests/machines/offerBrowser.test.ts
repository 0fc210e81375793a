import { createActor } from 'xstate';
import { COIN_PRICE_CHANNEL, type Coin, type OfferList } from '../../contracts/index.ts';
import type { OfferListItem } from '../../contracts/index.ts';
import { bindOfferBrowser, offerBrowserLogic } from '../../src/machines/offerBrowser/offerBrowser.actors.ts';
import {
  offerBrowserMachine,
  type OfferBrowserEvent,
  type OfferBrowserFilters,
} from '../../src/machines/offerBrowser/offerBrowser.machine.ts';
import {
  selectCanNext,
  selectCanPrevious,
  selectFilters,
  selectHasLoaded,
  selectIsLoading,
  offerCoinPrice,
  selectLivePrices,
  selectOffers,
  selectShowFilters,
  selectStanding,
  selectTakeRefusals,
} from '../../src/machines/offerBrowser/offerBrowser.selectors.ts';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import type { Api } from '../../src/services/api.ts';
import { createMarketService, type MarketService } from '../../src/services/market.ts';
import { createTraderService } from '../../src/services/traders.ts';
import { selectPrices } from '../../src/machines/livePrices/livePrices.selectors.ts';
import { fakeRealtime } from '../support/chat.ts';
import { flush, scriptedActors } from '../support/machines.ts';
import { chosenOffers, components, noOffers, offerItem, offerPage, pageCursor } from '../support/offers.ts';

const SEARCH_QUIET_MS = 500;

/** Browse Offers with both calls faked; by default the components and the first page have arrived. */
async function startBrowser({ settle = true } = {}) {
  const fakes = scriptedActors(['loadComponents', 'loadOffers']);
  const actor = createActor(offerBrowserMachine.provide({ actors: fakes.actors as never })).start();
  const send = (event: OfferBrowserEvent) => actor.send(event);
  const snapshot = () => actor.getSnapshot();
  /** The list calls made so far (the inputs of `loadOffers`). */
  const loads = () => fakes.calls.filter((call) => call.id === 'loadOffers').map((call) => call.input);
  if (settle) {
    await fakes.resolve('loadComponents', components);
    await fakes.resolve('loadOffers', offerPage(1, 3));
  }
  return { actor, fakes, send, snapshot, loads };
}

describe('Browse Offers chart', () => {
  afterEach(() => vi.useRealTimers());

  it('loads the components and page 1 without filters; the filters show once the components arrive', async () => {
    const { fakes, snapshot } = await startBrowser({ settle: false });
    expect(fakes.calls).toEqual([
      { id: 'loadComponents', input: undefined },
      { id: 'loadOffers', input: { page: 1, filters: chosenOffers(), cursor: null } },
    ]);
    expect(selectShowFilters(snapshot())).toBe(false);
    expect(selectIsLoading(snapshot())).toBe(true);
    expect(selectHasLoaded(snapshot())).toBe(false);

    await fakes.resolve('loadOffers', offerPage(1, 3));
    expect(selectShowFilters(snapshot()), 'the offers alone do not show the filters').toBe(false);
    expect(selectOffers(snapshot())).toEqual(offerPage(1, 3).offers);
    await fakes.resolve('loadComponents', components);
    expect(selectShowFilters(snapshot())).toBe(true);
    expect(snapshot().context.components).toEqual(components);
  });

  it('a components failure keeps the filters hidden; the list and its pages still work', async () => {
    const { fakes, send, snapshot, loads } = await startBrowser({ settle: false });
    await fakes.reject('loadComponents', new Error('An unknown error occurred'));
    expect(selectShowFilters(snapshot())).toBe(false);
    expect(snapshot().context.components).toBeNull();

    await fakes.resolve('loadOffers', offerPage(1, 2));
    expect(selectShowFilters(snapshot())).toBe(false);
    send({ type: 'page.next' });
    expect(loads().at(-1)).toEqual({ page: 2, filters: chosenOffers(), cursor: pageCursor(1) });
    await fakes.resolve('loadOffers', offerPage(2, 2));
    expect(selectShowFilters(snapshot())).toBe(false);
    expect(fakes.calls.filter((call) => call.id === 'loadComponents')).toHaveLength(1);
  });

  it('the trader search waits for 500 ms of quiet: several keystrokes make one load, with the last text', async () => {
    const { fakes, send, snapshot, loads } = await startBrowser();
    vi.useFakeTimers();
    const before = loads().length;

    for (const text of ['a', 'al', 'ali']) {
      send({ type: 'filter.search', value: text });
      await vi.advanceTimersByTimeAsync(SEARCH_QUIET_MS - 100);
    }
    expect(loads().length, 'no load while typing').toBe(before);
    expect(selectFilters(snapshot()).search).toBe('ali');

    await vi.advanceTimersByTimeAsync(99);
    expect(loads().length, '1 ms short of the quiet period').toBe(before);
    await vi.advanceTimersByTimeAsync(1);
    expect(loads().slice(before)).toEqual([{ page: 1, filters: chosenOffers({ search: 'ali' }), cursor: null }]);
    expect(selectIsLoading(snapshot())).toBe(true);

    await fakes.resolve('loadOffers', noOffers);
    await vi.advanceTimersByTimeAsync(10 * SEARCH_QUIET_MS);
    expect(loads().length, 'nothing more once quiet').toBe(before + 1);
    expect(selectOffers(snapshot())).toEqual([]);
  });

  it('erasing the search also waits, then reloads without it', async () => {
    const { fakes, send, loads } = await startBrowser();
    vi.useFakeTimers();
    send({ type: 'filter.search', value: 'ali' });
    await vi.advanceTimersByTimeAsync(SEARCH_QUIET_MS);
    await fakes.resolve('loadOffers', noOffers);
    send({ type: 'filter.search', value: '' });
    await vi.advanceTimersByTimeAsync(SEARCH_QUIET_MS - 1);
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenOffers({ search: 'ali' }), cursor: null });
    await vi.advanceTimersByTimeAsync(1);
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenOffers(), cursor: null });
  });

  const changes: [string, OfferBrowserEvent, OfferBrowserFilters][] = [
    ['the payment methods', { type: 'filter.paymentMethods', value: ['SEPA'] }, chosenOffers({ paymentMethods: ['SEPA'] })],
    ['the offer type', { type: 'filter.offerType', value: 'sell' }, chosenOffers({ offerType: 'sell' })],
    ['the cryptocurrency', { type: 'filter.coin', value: '2' }, chosenOffers({ coinId: '2' })],
    ['the fiat currency', { type: 'filter.currency', value: 'NGN' }, chosenOffers({ currencyCode: 'NGN' })],
  ];

  it.each(changes)('changing %s goes back to page 1 and reloads at once', async (_, event, filters) => {
    const { fakes, send, snapshot, loads } = await startBrowser();
    send({ type: 'page.next' });
    await fakes.resolve('loadOffers', offerPage(2, 3));
    expect(snapshot().context.page).toBe(2);

    send(event);
    expect(snapshot().context.page).toBe(1);
    expect(selectIsLoading(snapshot())).toBe(true);
    expect(loads().at(-1)).toEqual({ page: 1, filters, cursor: null });
    expect(selectShowFilters(snapshot()), 'the filters stay on screen while the list reloads').toBe(true);
    expect(fakes.calls.filter((call) => call.id === 'loadComponents'), 'the components are not fetched again').toHaveLength(1);
  });

  it('a search change also goes back to page 1, once the typing stops', async () => {
    const { fakes, send, snapshot, loads } = await startBrowser();
    send({ type: 'page.next' });
    await fakes.resolve('loadOffers', offerPage(2, 3));
    vi.useFakeTimers();
    send({ type: 'filter.search', value: 'bob' });
    expect(snapshot().context.page).toBe(1);
    await vi.advanceTimersByTimeAsync(SEARCH_QUIET_MS);
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenOffers({ search: 'bob' }), cursor: null });
  });

  it('filters add up: each change keeps the others', async () => {
    const { send, loads } = await startBrowser();
    send({ type: 'filter.offerType', value: 'buy' });
    send({ type: 'filter.coin', value: '1' });
    send({ type: 'filter.paymentMethods', value: ['Cash', 'SEPA'] });
    expect(loads().at(-1)).toEqual({
      page: 1,
      filters: chosenOffers({ offerType: 'buy', coinId: '1', paymentMethods: ['Cash', 'SEPA'] }), cursor: null
    });
  });

  it('"Clear All" resets every filter, goes back to page 1 and reloads', async () => {
    const { fakes, send, snapshot, loads } = await startBrowser();
    send({ type: 'filter.currency', value: 'EUR' });
    send({ type: 'filter.offerType', value: 'sell' });
    await fakes.resolve('loadOffers', offerPage(1, 3));
    send({ type: 'page.next' });
    await fakes.resolve('loadOffers', offerPage(2, 3));
    vi.useFakeTimers();
    send({ type: 'filter.search', value: 'bo' });
    const before = loads().length;

    send({ type: 'filters.clear' });
    expect(selectFilters(snapshot())).toEqual(chosenOffers());
    expect(snapshot().context.page).toBe(1);
    expect(loads().slice(before)).toEqual([{ page: 1, filters: chosenOffers(), cursor: null }]);
    await vi.advanceTimersByTimeAsync(SEARCH_QUIET_MS);
    expect(loads().length, 'the pending search was dropped too').toBe(before + 1);
  });

  it('Next and Previous follow the paginator: its next_page and previous_page, and only when it says so', async () => {
    const { fakes, send, snapshot, loads } = await startBrowser({ settle: false });
    await fakes.resolve('loadComponents', components);
    // The server names the pages; the chart does not count them itself.
    const middle: OfferList = {
      offers: [offerItem(7)],
      paginator: { prev: true, next: true, previous_page: 3, next_page: 9, next_cursor: pageCursor(7) },
    };
    await fakes.resolve('loadOffers', middle);
    expect(selectCanNext(snapshot())).toBe(true);
    expect(selectCanPrevious(snapshot())).toBe(true);

    send({ type: 'page.next' });
    expect(loads().at(-1)).toEqual({ page: 9, filters: chosenOffers(), cursor: pageCursor(7) });
    await fakes.resolve('loadOffers', { offers: [offerItem(9)], paginator: { prev: true, next: false, previous_page: 8, next_page: null, next_cursor: null } });
    expect(selectCanNext(snapshot())).toBe(false);
    const count = loads().length;
    send({ type: 'page.next' });
    expect(loads().length, 'Next on the last page does nothing').toBe(count);
    expect(snapshot().context.page).toBe(9);

    send({ type: 'page.previous' });
    expect(loads().at(-1)).toEqual({ page: 8, filters: chosenOffers(), cursor: null });
    await fakes.resolve('loadOffers', offerPage(1, 1));
    expect(selectCanPrevious(snapshot())).toBe(false);
    send({ type: 'page.previous' });
    expect(loads().length, 'Previous on the first page does nothing').toBe(count + 1);
  });

  it('Next asks for the page from where the last one ended (its next_cursor); Previous for the page before from where it started', async () => {
    const { fakes, send, snapshot, loads } = await startBrowser();
    for (const page of [2, 3]) {
      send({ type: 'page.next' });
      expect(loads().at(-1)).toEqual({ page, filters: chosenOffers(), cursor: pageCursor(page - 1) });
      await fakes.resolve('loadOffers', offerPage(page, 4));
    }
    send({ type: 'page.previous' });
    expect(loads().at(-1)).toEqual({ page: 2, filters: chosenOffers(), cursor: pageCursor(1) });
    await fakes.resolve('loadOffers', offerPage(2, 4));
    send({ type: 'offers.reload' });
    expect(loads().at(-1), 'a reload asks for the same page').toEqual({ page: 2, filters: chosenOffers(), cursor: pageCursor(1) });
    await fakes.resolve('loadOffers', offerPage(2, 4));
    send({ type: 'page.previous' });
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenOffers(), cursor: null });
    await fakes.resolve('loadOffers', offerPage(1, 4));
    send({ type: 'page.next' });
    await fakes.resolve('loadOffers', offerPage(2, 4));
    send({ type: 'filter.coin', value: '2' });
    expect(loads().at(-1), 'a filter starts from the top again').toEqual({ page: 1, filters: chosenOffers({ coinId: '2' }), cursor: null });
    expect(snapshot().context.cursors).toEqual({});
  });

  it('Next and Previous carry the filters', async () => {
    const { fakes, send, loads } = await startBrowser();
    send({ type: 'filter.coin', value: '2' });
    await fakes.resolve('loadOffers', offerPage(1, 2));
    send({ type: 'page.next' });
    expect(loads().at(-1)).toEqual({ page: 2, filters: chosenOffers({ coinId: '2' }), cursor: pageCursor(1) });
  });

  it('before any page has arrived, Next and Previous are disabled', async () => {
    const { send, snapshot, loads } = await startBrowser({ settle: false });
    expect(selectCanNext(snapshot())).toBe(false);
    expect(selectCanPrevious(snapshot())).toBe(false);
    send({ type: 'page.next' });
    expect(loads()).toHaveLength(1);
  });

  it('a new filter while a load is in flight drops the stale one: its answer never lands', async () => {
    const { fakes, send, snapshot, loads } = await startBrowser();
    send({ type: 'filter.offerType', value: 'buy' });
    const stale = fakes.calls.length - 1;
    send({ type: 'filter.offerType', value: 'sell' });
    expect(fakes.isRunning('loadOffers')).toBe(true);
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenOffers({ offerType: 'sell' }), cursor: null });

    const buyOffers = { offers: [offerItem(1, { offer_type: 'buy' })], paginator: offerPage(1, 2).paginator };
    await fakes.resolveCall(stale, buyOffers);
    expect(selectIsLoading(snapshot()), 'still waiting for the sell offers').toBe(true);
    expect(selectOffers(snapshot())).toEqual(offerPage(1, 3).offers);

    const sellOffers = { offers: [offerItem(2, { offer_type: 'sell' })], paginator: offerPage(1, 1).paginator };
    await fakes.resolve('loadOffers', sellOffers);
    expect(selectOffers(snapshot())).toEqual(sellOffers.offers);
    expect(selectCanNext(snapshot())).toBe(false);
  });

  it('a stale failure does not end the current load either', async () => {
    const { fakes, send, snapshot } = await startBrowser();
    send({ type: 'filter.coin', value: '1' });
    const stale = fakes.calls.length - 1;
    send({ type: 'filter.coin', value: '2' });
    await fakes.rejectCall(stale, new Error('Internet server error'));
    expect(selectIsLoading(snapshot())).toBe(true);
  });

  it('typing while a load is in flight drops it: no answer lands while the search waits', async () => {
    const { fakes, send, snapshot } = await startBrowser();
    vi.useFakeTimers();
    send({ type: 'filter.currency', value: 'EUR' });
    const stale = fakes.calls.length - 1;
    send({ type: 'filter.search', value: 'al' });
    expect(fakes.isRunning('loadOffers')).toBe(false);
    expect(selectIsLoading(snapshot())).toBe(false);
    await fakes.resolveCall(stale, noOffers);
    expect(selectOffers(snapshot()), 'the EUR answer, for no search, never shows').toEqual(offerPage(1, 3).offers);
  });

  it('a page answer that arrives after a filter change is dropped', async () => {
    const { fakes, send, snapshot } = await startBrowser();
    send({ type: 'page.next' });
    const stale = fakes.calls.length - 1;
    send({ type: 'filter.offerType', value: 'buy' });
    await fakes.resolveCall(stale, offerPage(2, 3));
    expect(snapshot().context.page).toBe(1);
    expect(selectOffers(snapshot())).toEqual(offerPage(1, 3).offers);
  });

  it('a failed list load ends the busy state without a message; reload tries again', async () => {
    const { fakes, send, snapshot, loads } = await startBrowser();
    send({ type: 'filter.offerType', value: 'sell' });
    await fakes.reject('loadOffers', new Error('Internet server error'));
    expect(selectIsLoading(snapshot())).toBe(false);
    send({ type: 'offers.reload' });
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenOffers({ offerType: 'sell' }), cursor: null });
    expect(selectIsLoading(snapshot())).toBe(true);
  });

  it('the coins’ prices failing to load leaves the cards without live prices; the list is unaffected', async () => {
    const fakes = scriptedActors(['loadComponents', 'loadOffers', 'loadPrices']);
    const actor = createActor(offerBrowserMachine.provide({ actors: fakes.actors as never })).start();
    await fakes.reject('loadPrices', new Error('Internet server error'));
    expect(actor.getSnapshot().matches({ prices: 'unavailable' })).toBe(true);
    expect(selectLivePrices(actor.getSnapshot())).toBeUndefined();
    await fakes.resolve('loadOffers', offerPage(1, 1));
    expect(selectOffers(actor.getSnapshot())).toEqual(offerPage(1, 1).offers);
    expect(offerCoinPrice(offerItem(1), undefined)).toBeNull();
  });
});

describe('Browse Offers and the offers\' conditions', () => {
  const newcomer = { completed_trades: 0, account_age_days: 2, two_factor: false };
  const seasoned = { completed_trades: 12, account_age_days: 400, two_factor: true };
  const open = offerItem(1);
  const guarded = offerItem(2, { min_completed_trades: 5, min_account_days: 30 });
  const secured = offerItem(3, { require_two_factor: true });

  /** Browse Offers with the conditions' rule bound, its calls faked and the route's `takeOffer` recorded. */
  async function startWithStanding() {
    const fakes = scriptedActors(['loadComponents', 'loadOffers', 'loadStanding']);
    const taken: OfferListItem[] = [];
    const actor = createActor(
      offerBrowserLogic.provide({ actors: fakes.actors as never, actions: { takeOffer: (_, { offer }) => void taken.push(offer) } }),
    ).start();
    await fakes.resolve('loadOffers', { offers: [open, guarded, secured], paginator: offerPage(1, 1).paginator });
    return { actor, fakes, taken, snapshot: () => actor.getSnapshot() };
  }

  it('asks for the trader\'s standing once; an offer whose conditions they miss is refused with the server\'s sentence, the others are taken', async () => {
    const { actor, fakes, taken, snapshot } = await startWithStanding();
    expect(fakes.calls.filter((call) => call.id === 'loadStanding')).toEqual([{ id: 'loadStanding', input: undefined }]);
    await fakes.resolve('loadStanding', newcomer);
    expect(selectStanding(snapshot())).toEqual(newcomer);
    expect(selectTakeRefusals(snapshot())).toEqual(
      new Map([
        [2, 'This offer is for traders with at least 5 completed trades.'],
        [3, 'This offer is for traders with two-factor authentication on.'],
      ]),
    );
    for (const offer of [open, guarded, secured]) actor.send({ type: 'offer.take', offer });
    expect(taken).toEqual([open]);
    // The page changing keeps the standing: it is the trader's, not the page's.
    actor.send({ type: 'page.next' });
    expect(fakes.calls.filter((call) => call.id === 'loadStanding')).toHaveLength(1);
  });

  it('a trader who meets every condition may take every offer', async () => {
    const { actor, fakes, taken, snapshot } = await startWithStanding();
    await fakes.resolve('loadStanding', seasoned);
    expect(selectTakeRefusals(snapshot())).toEqual(new Map());
    for (const offer of [open, guarded, secured]) actor.send({ type: 'offer.take', offer });
    expect(taken).toEqual([open, guarded, secured]);
  });

  it('while the standing is loading, or when it failed to, every offer may be taken: the server refuses with the condition named', async () => {
    const { actor, fakes, taken, snapshot } = await startWithStanding();
    actor.send({ type: 'offer.take', offer: guarded });
    await fakes.reject('loadStanding', new Error('Network error'));
    expect(snapshot().matches({ standing: 'unknown' })).toBe(true);
    expect(selectTakeRefusals(snapshot())).toEqual(new Map());
    actor.send({ type: 'offer.take', offer: secured });
    expect(taken).toEqual([guarded, secured]);
  });
});

describe('Browse Offers bound to the market service', () => {
  const coin = (ticker: string, price: string): Coin => ({
    id: ticker.length,
    label: ticker,
    ticker,
    image: `/coins/${ticker}.svg`,
    decimal_places: 8,
    price,
    networks: [],
  });
  const coins = [coin('btc', '60000.00'), coin('eth', '3000.10')];

  function fakeApi() {
    const sent: { how: 'read' | 'write'; path: string; body: unknown; options: unknown }[] = [];
    const answers: Record<string, unknown> = { components, list: offerPage(1, 1) };
    const answer = (how: 'read' | 'write') => async (path: string, body: unknown, _schema: unknown, options?: unknown) => {
      sent.push({ how, path, body, options });
      return path === 'base/coins/' ? coins : answers[(body as { type: string }).type];
    };
    return { api: { read: answer('read'), write: answer('write') } as unknown as Api, sent };
  }

  it('starts each coin’s live price from base/coins/ (without toasts) and follows coin_price', async () => {
    const { api, sent } = fakeApi();
    const realtime = fakeRealtime();
    const actor = createActor(bindOfferBrowser({ market: createMarketService(api), realtime: realtime.service } as FlowDeps, () => {})).start();
    await flush();
    expect(sent.filter(({ path }) => path === 'base/coins/')).toStrictEqual([
      { how: 'read', path: 'base/coins/', body: {}, options: { noToast: true } },
    ]);
    const prices = () => selectPrices(selectLivePrices(actor.getSnapshot())!.getSnapshot());
    expect(prices()).toEqual({ btc: { price: '60000.00', direction: null }, eth: { price: '3000.10', direction: null } });
    expect(realtime.listeners(COIN_PRICE_CHANNEL)).toBe(1);

    const offer = offerItem(1, { coin__ticker: 'btc', rate: '0.95' });
    expect(offerCoinPrice(offer, prices())).toEqual({ amount: '57000', direction: null });
    realtime.emit(COIN_PRICE_CHANNEL, 'price', { ticker: 'btc', price: '60000.01' });
    expect(offerCoinPrice(offer, prices())).toEqual({ amount: '57000.0095', direction: 'up' });
    expect(offerCoinPrice(offerItem(2, { coin__ticker: 'ltc' }), prices()), 'a coin without a price').toBeNull();

    actor.stop();
    expect(realtime.listeners(COIN_PRICE_CHANNEL), 'leaving Browse Offers ends the subscription').toBe(0);
  });

  it('asks market/traders/ for the trader\'s standing without toasts, and takes an offer through the route\'s dialog', async () => {
    const { api, sent } = fakeApi();
    const standing = { completed_trades: 0, account_age_days: 0, two_factor: false };
    const traders = createTraderService({
      read: async (path: string, body: unknown, _schema: unknown, options?: unknown) => {
        sent.push({ how: 'read', path, body, options });
        return standing;
      },
    } as unknown as Api);
    const taken: OfferListItem[] = [];
    const deps = { market: createMarketService(api), traders, realtime: fakeRealtime().service } as FlowDeps;
    const actor = createActor(bindOfferBrowser(deps, (offer) => taken.push(offer))).start();
    await flush();
    expect(sent.filter(({ path }) => path === 'market/traders/')).toStrictEqual([
      { how: 'read', path: 'market/traders/', body: { type: 'standing' }, options: { noToast: true } },
    ]);
    expect(selectStanding(actor.getSnapshot())).toEqual(standing);
    actor.send({ type: 'offer.take', offer: offerItem(7, { min_account_days: 1 }) });
    actor.send({ type: 'offer.take', offer: offerItem(8) });
    expect(taken.map((offer) => offer.id)).toEqual([8]);
    actor.stop();
  });

  it('asks market/offers/ for the components (no drop) and each list page with the filters, without toasts', async () => {
    const { api, sent } = fakeApi();
    const market: MarketService = createMarketService(api);
    const actor = createActor(bindOfferBrowser({ market, realtime: fakeRealtime().service } as FlowDeps, () => {})).start();
    await flush();
    actor.send({ type: 'filter.paymentMethods', value: ['SEPA'] });
    await flush();
    expect(sent).toStrictEqual([
      { how: 'read', path: 'market/offers/', body: { type: 'components' }, options: { noToast: true } },
      { how: 'read', path: 'market/offers/', body: { type: 'list', page: 1, filters: {} }, options: { noToast: true } },
      { how: 'read', path: 'base/coins/', body: {}, options: { noToast: true } },
      {
        how: 'read',
        path: 'market/offers/',
        body: { type: 'list', page: 1, filters: { payment_methods__overlap: ['SEPA'] } },
        options: { noToast: true },
      },
    ]);
    expect(selectShowFilters(actor.getSnapshot())).toBe(true);
    expect(selectOffers(actor.getSnapshot())).toEqual(offerPage(1, 1).offers);
    actor.stop();
  });

  it('sends the screen’s filters in the list format: only the non-empty ones, the search trimmed, the methods as a list', async () => {
    const { api, sent } = fakeApi();
    const actor = createActor(bindOfferBrowser({ market: createMarketService(api), realtime: fakeRealtime().service } as FlowDeps, () => {})).start();
    await flush();
    vi.useFakeTimers();
    try {
      actor.send({ type: 'filter.offerType', value: 'sell' });
      actor.send({ type: 'filter.paymentMethods', value: ['SEPA', 'Cash'] });
      actor.send({ type: 'filter.coin', value: '2' });
      actor.send({ type: 'filter.currency', value: 'EUR' });
      actor.send({ type: 'filter.search', value: '  bob ' });
      await vi.advanceTimersByTimeAsync(SEARCH_QUIET_MS);
      actor.send({ type: 'filter.paymentMethods', value: [] });
      actor.send({ type: 'filter.search', value: '   ' });
      await vi.advanceTimersByTimeAsync(SEARCH_QUIET_MS);
      actor.send({ type: 'filters.clear' });
      await flush();
    } finally {
      vi.useRealTimers();
    }
    expect(sent.filter(({ body }) => (body as { type: string }).type === 'list').map(({ body }) => body)).toStrictEqual([
      { type: 'list', page: 1, filters: {} },
      { type: 'list', page: 1, filters: { offer_type: 'sell' } },
      { type: 'list', page: 1, filters: { payment_methods__overlap: ['SEPA', 'Cash'], offer_type: 'sell' } },
      { type: 'list', page: 1, filters: { payment_methods__overlap: ['SEPA', 'Cash'], offer_type: 'sell', coin__id: '2' } },
      {
        type: 'list',
        page: 1,
        filters: { payment_methods__overlap: ['SEPA', 'Cash'], offer_type: 'sell', coin__id: '2', currency__code: 'EUR' },
      },
      {
        type: 'list',
        page: 1,
        filters: {
          user__username__icontains: 'bob',
          payment_methods__overlap: ['SEPA', 'Cash'],
          offer_type: 'sell',
          coin__id: '2',
          currency__code: 'EUR',
        },
      },
      { type: 'list', page: 1, filters: { user__username__icontains: 'bob', offer_type: 'sell', coin__id: '2', currency__code: 'EUR' } },
      { type: 'list', page: 1, filters: { offer_type: 'sell', coin__id: '2', currency__code: 'EUR' } },
      { type: 'list', page: 1, filters: {} },
    ]);
    actor.stop();
  });
});
