import { createActor, type AnyMachineSnapshot } from 'xstate';
import type { Coin, TradeHistory } from '../../contracts/index.ts';
import { tradeHistoryMachine, type TradeHistoryFilters } from '../../src/machines/tradeHistory/tradeHistory.machine.ts';
import {
  selectCanNext,
  selectCanPrevious,
  selectCoins,
  selectFilters,
  selectHasLoaded,
  selectIsLoading,
  selectTrades,
} from '../../src/machines/tradeHistory/tradeHistory.selectors.ts';
import {
  Coverage,
  describePath,
  replay,
  scriptedActors,
  walk,
  type ActorCall,
  type ModelEvent,
  type ModelPath,
} from '../support/machines.ts';
import { coins, noTrades, tradePage } from '../support/trades.ts';

/** Nothing chosen, written out here rather than taken from the chart. */
const blank: TradeHistoryFilters = { tradeType: '', status: '', coinId: '' };
const isBlank = (filters: TradeHistoryFilters) => JSON.stringify(filters) === JSON.stringify(blank);

/** The server's answer: two pages without filters, nothing with any filter. */
const answer = (page: number, filters: TradeHistoryFilters): TradeHistory => (isBlank(filters) ? tradePage(page, 2) : noTrades);

/**
 * What can happen on Recent Trades: each call's outcomes and, once the coins call has settled, what the
 * trader can click. The coin filter has choices only if the coins arrived; one filter at a time (then
 * "Clear All") keeps the graph small and still takes every edge. Previous/Next are pressed in every
 * state, loading included.
 */
function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const { filters, page, coins: known } = snapshot.context as { filters: TradeHistoryFilters; page: number; coins: Coin[] };
  const list: ModelEvent[] = [];
  if (snapshot.matches({ coins: 'loading' })) {
    list.push(
      { type: 'xstate.done.actor.loadCoins', output: coins },
      { type: 'xstate.error.actor.loadCoins', error: new Error('An unknown error occurred') },
    );
  }
  if (snapshot.matches({ list: 'loading' })) {
    list.push(
      { type: 'xstate.done.actor.loadTrades', output: answer(page, filters) },
      { type: 'xstate.error.actor.loadTrades', error: new Error('Internet server error') },
    );
  }
  // Pressing filters before the coins arrive is the actor tests' case; here it would only triple the graph.
  if (snapshot.matches({ coins: 'loading' })) return list;
  if (isBlank(filters)) {
    list.push({ type: 'filter.tradeType', value: 'sell' }, { type: 'filter.status', value: 'completed' });
    if (known.length > 0) list.push({ type: 'filter.coin', value: '2' });
  } else {
    list.push({ type: 'filters.clear' });
  }
  list.push({ type: 'page.next' }, { type: 'page.previous' });
  return list;
}

const model = walk(tradeHistoryMachine, { events });

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['loadCoins', 'loadTrades']);
  const actor = createActor(tradeHistoryMachine.provide({ actors: fakes.actors as never }), { inspect: coverage?.inspect }).start();

  // The oracle, from docs/api.md "market/trade history": what the trader set, which page, the last answer.
  let filters = blank;
  let page = 1;
  let coinsLoading = true;
  let coinChoices: Coin[] = [];
  let shown: TradeHistory | null = null;
  let loading = true;
  const expectedCalls: ActorCall[] = [
    { id: 'loadCoins', input: undefined },
    { id: 'loadTrades', input: { page: 1, filters: blank } },
  ];
  // The chart hands the history call the screen's filters as they stand; the service sends only the set
  // ones (its oracle is in tests/services/trades.test.ts).
  const load = () => {
    loading = true;
    expectedCalls.push({ id: 'loadTrades', input: { page, filters } });
  };
  const setFilter = (change: Partial<TradeHistoryFilters>) => {
    filters = { ...filters, ...change };
    page = 1;
    load();
  };

  await replay(actor, path, fakes, (snapshot, step) => {
    const event = step.event as ModelEvent & { value?: never };
    switch (event.type) {
      case 'xstate.done.actor.loadCoins':
        coinChoices = event.output as Coin[];
        coinsLoading = false;
        break;
      case 'xstate.error.actor.loadCoins':
        coinsLoading = false;
        break;
      case 'xstate.done.actor.loadTrades':
        shown = event.output as TradeHistory;
        loading = false;
        break;
      case 'xstate.error.actor.loadTrades':
        loading = false;
        break;
      case 'filter.tradeType':
        setFilter({ tradeType: event.value });
        break;
      case 'filter.status':
        setFilter({ status: event.value });
        break;
      case 'filter.coin':
        setFilter({ coinId: event.value });
        break;
      case 'filters.clear':
        setFilter(blank);
        break;
      case 'page.next':
        if (shown?.paginator.next) {
          page = shown.paginator.next_page!;
          load();
        }
        break;
      case 'page.previous':
        if (shown?.paginator.prev) {
          page = shown.paginator.previous_page!;
          load();
        }
        break;
    }

    const s = snapshot as never;
    expect(selectFilters(s)).toEqual(filters);
    expect(snapshot.context.page).toBe(page);
    expect(selectCoins(s)).toEqual(coinChoices);
    expect(fakes.isRunning('loadCoins'), 'the coins call runs').toBe(coinsLoading);
    expect(selectIsLoading(s), 'busy').toBe(loading);
    expect(fakes.isRunning('loadTrades'), 'a history call runs').toBe(loading);
    expect(selectHasLoaded(s)).toBe(shown !== null);
    expect(selectTrades(s)).toEqual(shown?.trades ?? []);
    expect(selectCanNext(s), 'Next enabled').toBe(shown?.paginator.next ?? false);
    expect(selectCanPrevious(s), 'Previous enabled').toBe(shown?.paginator.prev ?? false);
  });

  // Filters and pages reload the trades only: the coins are asked for once.
  expect(fakes.calls).toEqual(expectedCalls);
  actor.stop();
}

describe('tradeHistory: every path through the chart', () => {
  it('has a graph to walk', () => {
    expect(model.states).toBeGreaterThan(30);
    expect(model.paths.length).toBeGreaterThan(model.states);
  });

  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(path);
  });

  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(tradeHistoryMachine);
    for (const path of model.paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices what the walk leaves out', async () => {
    const coverage = new Coverage(tradeHistoryMachine);
    const leftOut = (path: ModelPath) =>
      path.steps.some(({ event }) => event.type === 'page.previous' || event.type.startsWith('xstate.done.actor.loadCoins'));
    for (const path of model.paths.filter((path) => !leftOut(path))) await run(path, coverage);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([
      'tradeHistory.coins.loading —xstate.done.actor.loadCoins#0→ tradeHistory.coins.ready',
      'tradeHistory.list —filter.coin#0→ tradeHistory.list.loading',
      'tradeHistory.list —page.previous#0→ tradeHistory.list.loading',
    ]);
  });
});
