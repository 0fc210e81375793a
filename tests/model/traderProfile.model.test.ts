import { createActor, type AnyMachineSnapshot } from 'xstate';
import { traderProfileMachine } from '../../src/machines/traderProfile/traderProfile.machine.ts';
import { selectCanRetry, selectProfile, selectProfileView } from '../../src/machines/traderProfile/traderProfile.selectors.ts';
import { Coverage, describePath, replay, scriptedActors, walk, type ModelEvent, type ModelPath } from '../support/machines.ts';
import { traderProfile } from '../support/traders.ts';

const profile = traderProfile();

/** The load answers a profile, null (nobody by that name) or fails; an error offers "Try again". */
function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const list: ModelEvent[] = [{ type: 'profile.retry' }];
  if (snapshot.matches('loading')) {
    list.push(
      { type: 'xstate.done.actor.loadProfile', output: profile },
      { type: 'xstate.done.actor.loadProfile', output: null },
      { type: 'xstate.error.actor.loadProfile', error: new Error('Internet server error') },
    );
  }
  return list;
}

const input = { username: 'bob' };
const model = walk(traderProfileMachine, { events, input, simple: true });

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['loadProfile']);
  const actor = createActor(traderProfileMachine.provide({ actors: fakes.actors as never }), { input, inspect: coverage?.inspect }).start();
  // The oracle: what the page shows, written without the chart.
  let view: 'loading' | 'loaded' | 'notFound' | 'error' = 'loading';
  let shown: typeof profile | null = null;
  let loads = 1;
  await replay(actor, path, fakes, (snapshot, step) => {
    const event = step.event as ModelEvent & { output?: typeof profile | null };
    if (event.type === 'xstate.done.actor.loadProfile') {
      view = event.output ? 'loaded' : 'notFound';
      if (event.output) shown = event.output;
    }
    if (event.type === 'xstate.error.actor.loadProfile') view = 'error';
    if (event.type === 'profile.retry' && view === 'error') {
      view = 'loading';
      loads += 1;
    }
    expect(selectProfileView(snapshot as never)).toBe(view);
    expect(selectProfile(snapshot as never)).toEqual(shown);
    expect(selectCanRetry(snapshot as never)).toBe(view === 'error');
    expect(snapshot.hasTag('busy')).toBe(view === 'loading');
  });
  expect(fakes.calls).toEqual(Array.from({ length: loads }, () => ({ id: 'loadProfile', input })));
  actor.stop();
}

describe('traderProfile: every path through the chart', () => {
  it('has a graph to walk', () => expect(model.paths.length).toBeGreaterThan(model.states));
  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => run(path));
  it('reaches every state and takes every transition', async () => {
    const coverage = new Coverage(traderProfileMachine);
    for (const path of model.paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });
  it('the coverage measure notices what the walk leaves out', async () => {
    const coverage = new Coverage(traderProfileMachine);
    const nobody = (path: ModelPath) => path.steps.some(({ event }) => event.type === 'xstate.done.actor.loadProfile' && event.output === null);
    for (const path of model.paths.filter((path) => !nobody(path))) await run(path, coverage);
    expect(coverage.missingStates()).toEqual(['traderProfile.notFound']);
    expect(coverage.missingTransitions()).toEqual(['traderProfile.loading —xstate.done.actor.loadProfile#1→ traderProfile.notFound']);
  });
});
