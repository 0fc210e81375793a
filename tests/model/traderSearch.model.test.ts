import { SimulatedClock, createActor, type AnyMachineSnapshot } from 'xstate';
import type { TraderSearchResult } from '../../contracts/operator.ts';
import { bindTraderSearch } from '../../src/machines/traderSearch/traderSearch.actors.ts';
import type { TraderSearchContext } from '../../src/machines/traderSearch/traderSearch.machine.ts';
import {
  selectCanNext,
  selectCanPrevious,
  selectHasLoaded,
  selectIsLoading,
  selectQuery,
  selectTraders,
} from '../../src/machines/traderSearch/traderSearch.selectors.ts';
import { Coverage, afterEvent, describeModel, replay, scriptedActors, walk, type ModelEvent, type ModelPath } from '../support/machines.ts';
import { operatorDeps, traderPage, traderRow } from '../support/operator.ts';

/**
 * The trader search walked as it is: each search answered or failed, typing (a pause, then the search), Enter
 * at once, Previous/Next pressed in every state. The server's answer: everyone in two pages, one trader for
 * "ali".
 */
const answer = (query: string, page: number): TraderSearchResult =>
  query === '' ? traderPage(page, 2) : traderPage(1, 1, [traderRow('alice')]);
const paused = afterEvent('searchDebounce', 'traderSearch.debouncing');

function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const context = snapshot.context as TraderSearchContext;
  const list: ModelEvent[] = [];
  if (snapshot.matches('loading')) {
    list.push(
      { type: 'xstate.done.actor.searchTraders', output: answer(context.searched, context.page) },
      { type: 'xstate.error.actor.searchTraders', error: new Error('Internet server error') },
    );
  }
  if (snapshot.matches('debouncing')) list.push(paused);
  list.push({ type: 'query.change', value: context.query === '' ? 'ali' : '' }, { type: 'search.submit' });
  list.push({ type: 'page.next' }, { type: 'page.previous' });
  return list;
}

const walked = bindTraderSearch(operatorDeps().deps);
const model = walk(walked, { events, input: { query: '' } });

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['searchTraders'] as const);
  const clock = new SimulatedClock();
  const actor = createActor(walked.provide({ actors: fakes.actors as never }), { input: { query: '' }, clock, inspect: coverage?.inspect }).start();
  // The oracle: the box as typed, the rows of the last answer, the pages it offers.
  let typed = '';
  let shown: TraderSearchResult | null = null;
  await replay(
    actor,
    path,
    fakes,
    (snapshot, { event }) => {
      if (event.type === 'query.change') typed = String(event.value);
      if (event.type === 'xstate.done.actor.searchTraders') shown = event.output as TraderSearchResult;
      if (event.type === 'search.submit' || event.type === paused.type) {
        // The search asks for what is typed, from its first page.
        expect(fakes.calls.at(-1)?.input, 'the search asked for').toEqual({ query: typed, page: 1 });
      }
      const s = snapshot as never;
      expect(selectQuery(s), 'box').toBe(typed);
      expect(selectTraders(s), 'rows').toEqual(shown?.traders ?? []);
      expect(selectHasLoaded(s), 'answered').toBe(shown !== null);
      expect(selectIsLoading(s), 'busy').toBe(fakes.isRunning('searchTraders'));
      expect(selectCanNext(s), 'Next').toBe(shown?.paginator.next ?? false);
      expect(selectCanPrevious(s), 'Previous').toBe(shown?.paginator.prev ?? false);
    },
    { clock },
  );
  actor.stop();
}

describeModel('trader search', walked, model, 8, run);
