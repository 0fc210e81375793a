import { createActor, type AnyMachineSnapshot } from 'xstate';
import type { OfferListItem } from '../../contracts/index.ts';
import { traderProfileLogic } from '../../src/machines/traderProfile/traderProfile.actors.ts';
import { traderProfileMachine } from '../../src/machines/traderProfile/traderProfile.machine.ts';
import { selectCanRetry, selectProfile, selectProfileView, selectTakeRefusals } from '../../src/machines/traderProfile/traderProfile.selectors.ts';
import { Coverage, describePath, replay, scriptedActors, walk, type ModelEvent, type ModelPath } from '../support/machines.ts';
import { offerItem } from '../support/offers.ts';
import { traderProfile } from '../support/traders.ts';

/** One offer anyone may take, and one for traders with 5 completed trades, which the standing below has not. */
const open = offerItem(1);
const picky = offerItem(2, { min_completed_trades: 5 });
const profile = traderProfile({ offers: [open, picky] });
const standing = { completed_trades: 1, account_age_days: 30, two_factor: false };

/**
 * The load answers a profile, null (nobody by that name) or fails; an error offers "Try again". Once loaded, the
 * trader's own standing loads (or fails), and either offer's trade button may be pressed at any time.
 */
function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const list: ModelEvent[] = [{ type: 'profile.retry' }, { type: 'offer.take', offer: open }, { type: 'offer.take', offer: picky }];
  if (snapshot.matches('loading')) {
    list.push(
      { type: 'xstate.done.actor.loadProfile', output: profile },
      { type: 'xstate.done.actor.loadProfile', output: null },
      { type: 'xstate.error.actor.loadProfile', error: new Error('Internet server error') },
    );
  }
  if (snapshot.matches({ loaded: { standing: 'loading' } })) {
    list.push({ type: 'xstate.done.actor.loadStanding', output: standing }, { type: 'xstate.error.actor.loadStanding', error: new Error('offline') });
  }
  return list;
}

const input = { username: 'bob' };
// The conditions' rule is the binding's (shared/rules.ts), so the walk takes the chart as every use of it does.
const model = walk(traderProfileLogic, { events, input, simple: true });

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['loadProfile', 'loadStanding']);
  const taken: OfferListItem[] = [];
  const actor = createActor(
    traderProfileLogic.provide({ actors: fakes.actors as never, actions: { takeOffer: (_, { offer }) => void taken.push(offer) } }),
    { input, inspect: coverage?.inspect },
  ).start();
  // The oracle: what the page shows, and which offers open their Trade Preview, written without the chart.
  let view: 'loading' | 'loaded' | 'notFound' | 'error' = 'loading';
  let shown: typeof profile | null = null;
  let known: typeof standing | null = null;
  const expectedCalls: { id: string; input: unknown }[] = [{ id: 'loadProfile', input }];
  const opened: OfferListItem[] = [];
  await replay(actor, path, fakes, (snapshot, step) => {
    const event = step.event as ModelEvent & { output?: unknown; offer?: OfferListItem };
    if (event.type === 'xstate.done.actor.loadProfile') {
      view = event.output ? 'loaded' : 'notFound';
      if (event.output) {
        shown = event.output as typeof profile;
        expectedCalls.push({ id: 'loadStanding', input: undefined });
      }
    }
    if (event.type === 'xstate.error.actor.loadProfile') view = 'error';
    if (event.type === 'xstate.done.actor.loadStanding') known = event.output as typeof standing;
    if (event.type === 'profile.retry' && view === 'error') {
      view = 'loading';
      expectedCalls.push({ id: 'loadProfile', input });
    }
    // Only a loaded profile's buttons do anything; the picky offer only while the standing is unknown.
    if (event.type === 'offer.take' && view === 'loaded' && (event.offer === open || known === null)) opened.push(event.offer!);
    expect(selectProfileView(snapshot as never)).toBe(view);
    expect(selectProfile(snapshot as never)).toEqual(shown);
    expect(selectCanRetry(snapshot as never)).toBe(view === 'error');
    expect(snapshot.hasTag('busy')).toBe(view === 'loading');
    expect([...selectTakeRefusals(snapshot as never).keys()]).toEqual(view === 'loaded' && known ? [picky.id] : []);
    expect(taken).toEqual(opened);
  });
  expect(fakes.calls).toEqual(expectedCalls);
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
