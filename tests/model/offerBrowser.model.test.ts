import { SimulatedClock, createActor, type AnyMachineSnapshot } from 'xstate';
import { COIN_PRICE_CHANNEL, type OfferList } from '../../contracts/index.ts';
import { bindLivePrices } from '../../src/machines/livePrices/livePrices.actors.ts';
import type { PriceQuote } from '../../src/machines/livePrices/livePrices.machine.ts';
import { selectPrices } from '../../src/machines/livePrices/livePrices.selectors.ts';
import type { OfferListItem } from '../../contracts/index.ts';
import { offerBrowserLogic } from '../../src/machines/offerBrowser/offerBrowser.actors.ts';
import { offerBrowserMachine, type OfferBrowserFilters } from '../../src/machines/offerBrowser/offerBrowser.machine.ts';
import {
  selectCanNext,
  selectCanPrevious,
  selectFilters,
  selectHasLoaded,
  selectIsLoading,
  selectLivePrices,
  selectOffers,
  selectShowFilters,
  selectStanding,
  selectTakeRefusals,
} from '../../src/machines/offerBrowser/offerBrowser.selectors.ts';
import { fakeRealtime } from '../support/chat.ts';
import {
  Coverage,
  afterEvent,
  describePath,
  replay,
  scriptedActors,
  walk,
  type ActorCall,
  type ModelEvent,
  type ModelPath,
} from '../support/machines.ts';
import { components, noOffers, offerItem, offerPage } from '../support/offers.ts';

const blank: OfferBrowserFilters = { search: '', paymentMethods: [], offerType: '', coinId: '', currencyCode: '' };
const isBlank = (filters: OfferBrowserFilters) => JSON.stringify(filters) === JSON.stringify(blank);

/** The server's answer: two pages without filters, nothing with any filter. */
const answer = (page: number, filters: OfferBrowserFilters): OfferList => (isBlank(filters) ? offerPage(page, 2) : noOffers);
const debounced = afterEvent('searchDebounce', 'offerBrowser.list.debouncing');
/** A trader two days old without a completed trade, and two offers: one anyone may take, one for 5 completed trades. */
const newcomer = { completed_trades: 0, account_age_days: 2, two_factor: false };
const anyone = offerItem(901);
const seasonedOnly = offerItem(902, { min_completed_trades: 5 });
const coinPrices: PriceQuote[] = [
  { ticker: 'btc', price: '60000.00' },
  { ticker: 'eth', price: '3000.10' },
];

/**
 * What can happen on Browse Offers: each call's outcomes, the search quietening down, and what the
 * trader can click. The filters show only once the components have loaded, so only then can they
 * change; one filter at a time (then "Clear All") keeps the graph small and still takes every edge.
 */
function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const { filters, page } = snapshot.context as { filters: OfferBrowserFilters; page: number };
  // The coins' prices settle first, each way: their region shares nothing with the others, so walking the
  // rest once (with the prices live) takes every edge without tripling the graph.
  if (snapshot.matches({ prices: 'loading' })) {
    return [
      { type: 'xstate.done.actor.loadPrices', output: coinPrices },
      { type: 'xstate.error.actor.loadPrices', error: new Error('Internet server error') },
    ];
  }
  if (snapshot.matches({ prices: 'unavailable' })) return [];
  // So does the trader's standing; unknown, every offer may be taken (the server decides), which one try shows.
  if (snapshot.matches({ standing: 'loading' })) {
    return [
      { type: 'xstate.done.actor.loadStanding', output: newcomer },
      { type: 'xstate.error.actor.loadStanding', error: new Error('Internet server error') },
    ];
  }
  if (snapshot.matches({ standing: 'unknown' })) return [{ type: 'offer.take', offer: seasonedOnly }];
  const list: ModelEvent[] = [];
  if (snapshot.matches({ components: 'loading' })) {
    list.push(
      { type: 'xstate.done.actor.loadComponents', output: components },
      { type: 'xstate.error.actor.loadComponents', error: new Error('An unknown error occurred') },
    );
  }
  if (snapshot.matches({ list: 'loading' })) {
    list.push(
      { type: 'xstate.done.actor.loadOffers', output: answer(page, filters) },
      { type: 'xstate.error.actor.loadOffers', error: new Error('Internet server error') },
    );
  }
  if (snapshot.matches({ list: 'debouncing' })) list.push(debounced);
  if (snapshot.matches({ components: 'ready' })) {
    if (isBlank(filters)) {
      list.push(
        { type: 'filter.search', value: 'ali' },
        { type: 'filter.paymentMethods', value: ['SEPA', 'Cash'] },
        { type: 'filter.offerType', value: 'sell' },
        { type: 'filter.coin', value: '2' },
        { type: 'filter.currency', value: 'EUR' },
      );
    } else {
      list.push({ type: 'filters.clear' });
    }
  }
  list.push({ type: 'page.next' }, { type: 'page.previous' });
  if (snapshot.matches({ list: 'idle' })) list.push({ type: 'offers.reload' });
  // A card's trade button, on the first page as it opened.
  if (snapshot.matches({ list: 'idle' }) && isBlank(filters) && page === 1) {
    list.push({ type: 'offer.take', offer: anyone }, { type: 'offer.take', offer: seasonedOnly });
  }
  return list;
}

const model = walk(offerBrowserLogic, { events });

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['loadComponents', 'loadOffers', 'loadPrices', 'loadStanding']);
  const realtime = fakeRealtime();
  const clock = new SimulatedClock();
  const actors = { ...fakes.actors, livePrices: bindLivePrices(realtime.service) };
  const taken: OfferListItem[] = [];
  const actor = createActor(offerBrowserLogic.provide({ actors: actors as never, actions: { takeOffer: (_, { offer }) => void taken.push(offer) } }), {
    clock,
    inspect: coverage?.inspect,
  }).start();

  // The oracle, from docs/api.md "market/offers list": what the trader set, which page, what the last answer was.
  let filters = blank;
  let page = 1;
  // Where each page reached by Next starts: the next_cursor of the page before it.
  let cursors: Record<number, string> = {};
  let filtersLoaded = false;
  let shown: OfferList | null = null;
  let loading = true;
  let waitingForQuiet = false;
  let prices: 'loading' | 'live' | 'unavailable' = 'loading';
  // docs/rules.md "Offers": a trader who misses a condition cannot take the offer; with no standing known, the server decides.
  let standing: typeof newcomer | null = null;
  const expectedTaken: OfferListItem[] = [];
  const expectedCalls: ActorCall[] = [
    { id: 'loadComponents', input: undefined },
    { id: 'loadOffers', input: { page: 1, filters: blank, cursor: null } },
    { id: 'loadPrices', input: undefined },
    { id: 'loadStanding', input: undefined },
  ];
  // The chart hands the list call the screen's filters as they stand; the service sends only the
  // non-empty ones (its oracle is in tests/services/market.test.ts).
  const load = () => {
    loading = true;
    waitingForQuiet = false;
    expectedCalls.push({ id: 'loadOffers', input: { page, filters, cursor: cursors[page] ?? null } });
  };
  const setFilter = (change: Partial<OfferBrowserFilters>) => {
    filters = { ...filters, ...change };
    page = 1;
    cursors = {};
  };

  await replay(
    actor,
    path,
    fakes,
    (snapshot, step) => {
      const event = step.event as ModelEvent & { value?: never };
      switch (event.type) {
        case 'xstate.done.actor.loadComponents':
          filtersLoaded = true;
          break;
        case 'xstate.done.actor.loadPrices':
          prices = 'live';
          break;
        case 'xstate.error.actor.loadPrices':
          prices = 'unavailable';
          break;
        case 'xstate.done.actor.loadStanding':
          standing = event.output as typeof newcomer;
          break;
        case 'offer.take': {
          const offer = (event as ModelEvent & { offer: OfferListItem }).offer;
          if (standing === null || standing.completed_trades >= offer.min_completed_trades) expectedTaken.push(offer);
          break;
        }
        case 'xstate.done.actor.loadOffers':
          shown = event.output as OfferList;
          loading = false;
          break;
        case 'xstate.error.actor.loadOffers':
          loading = false;
          break;
        case 'filter.search':
          // A keystroke drops the load in flight: its answer would be for the old text.
          setFilter({ search: event.value });
          loading = false;
          waitingForQuiet = true;
          break;
        case 'filter.paymentMethods':
          setFilter({ paymentMethods: event.value });
          load();
          break;
        case 'filter.offerType':
          setFilter({ offerType: event.value });
          load();
          break;
        case 'filter.coin':
          setFilter({ coinId: event.value });
          load();
          break;
        case 'filter.currency':
          setFilter({ currencyCode: event.value });
          load();
          break;
        case 'filters.clear':
          setFilter(blank);
          load();
          break;
        case 'page.next':
          if (shown?.paginator.next) {
            page = shown.paginator.next_page!;
            if (shown.paginator.next_cursor) cursors = { ...cursors, [page]: shown.paginator.next_cursor };
            load();
          }
          break;
        case 'page.previous':
          if (shown?.paginator.prev) {
            page = shown.paginator.previous_page!;
            load();
          }
          break;
        case 'offers.reload':
          load();
          break;
        case debounced.type:
          load();
          break;
      }

      expect(selectShowFilters(snapshot as never), 'filters shown').toBe(filtersLoaded);
      expect(selectFilters(snapshot as never)).toEqual(filters);
      expect(snapshot.context.page).toBe(page);
      expect(snapshot.context.cursors).toEqual(cursors);
      expect(selectIsLoading(snapshot as never), 'busy').toBe(loading);
      expect(fakes.isRunning('loadOffers'), 'a list call runs').toBe(loading);
      expect(snapshot.matches({ list: 'debouncing' })).toBe(waitingForQuiet);
      expect(selectHasLoaded(snapshot as never)).toBe(shown !== null);
      expect(selectOffers(snapshot as never)).toEqual(shown?.offers ?? []);
      expect(selectCanNext(snapshot as never), 'Next enabled').toBe(shown?.paginator.next ?? false);
      expect(selectCanPrevious(snapshot as never), 'Previous enabled').toBe(shown?.paginator.prev ?? false);
      // The cards' live prices run once the coins' prices have loaded, whatever the list does.
      const live = selectLivePrices(snapshot as never);
      expect(live !== undefined, 'live prices').toBe(prices === 'live');
      expect(realtime.listeners(COIN_PRICE_CHANNEL)).toBe(prices === 'live' ? 1 : 0);
      if (live) expect(Object.keys(selectPrices(live.getSnapshot()))).toEqual(['btc', 'eth']);
      expect(selectStanding(snapshot as never)).toEqual(standing);
      expect(taken, 'offers taken').toEqual(expectedTaken);
      // The page's offers (none with conditions) are open to anyone.
      expect(selectTakeRefusals(snapshot as never)).toEqual(new Map());
    },
    { clock },
  );

  expect(fakes.calls).toEqual(expectedCalls);
  actor.stop();
}

describe('offerBrowser: every path through the chart', () => {
  it('has a graph to walk', () => {
    expect(model.states).toBeGreaterThan(50);
    expect(model.paths.length).toBeGreaterThan(model.states);
  });

  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(path);
  });

  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(offerBrowserMachine);
    for (const path of model.paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.allTransitions).toContain(
      'offerBrowser.list.debouncing —xstate.after.searchDebounce.offerBrowser.list.debouncing#0→ offerBrowser.list.loading',
    );
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices what the walk leaves out', async () => {
    const coverage = new Coverage(offerBrowserMachine);
    const leftOut = (path: ModelPath) =>
      path.steps.some(({ event }) => event.type === debounced.type || event.type === 'xstate.error.actor.loadComponents');
    for (const path of model.paths.filter((path) => !leftOut(path))) await run(path, coverage);
    expect(coverage.missingStates()).toEqual(['offerBrowser.components.unavailable']);
    expect(coverage.missingTransitions()).toEqual([
      'offerBrowser.components.loading —xstate.error.actor.loadComponents#0→ offerBrowser.components.unavailable',
      'offerBrowser.list.debouncing —xstate.after.searchDebounce.offerBrowser.list.debouncing#0→ offerBrowser.list.loading',
    ]);
  });
});
