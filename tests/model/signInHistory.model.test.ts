import { createActor, type AnyMachineSnapshot } from 'xstate';
import type { SignInEntry } from '../../contracts/account-protections.ts';
import { signInHistoryMachine } from '../../src/machines/signInHistory/signInHistory.machine.ts';
import { selectCanSignOutOthers, selectView } from '../../src/machines/signInHistory/signInHistory.selectors.ts';
import { Coverage, describePath, replay, scriptedActors, walk, type ModelEvent, type ModelPath } from '../support/machines.ts';

const session = (id: number, current: boolean, active: boolean): SignInEntry => ({
  id,
  created: '2026-11-23T10:00:00.000Z',
  last_used: '2026-11-23T10:00:00.000Z',
  device: 'Chrome on Linux (desktop)',
  ip: '',
  current,
  active,
});
/** Another browser still signed in, and the list once it is signed out. */
const withOthers = { sessions: [session(2, true, true), session(1, false, true)] };
const aloneNow = { sessions: [session(2, true, true), session(1, false, false)] };
const SENTENCE = 'Signed out 1 other session.';

function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  switch (snapshot.value) {
    case 'loading':
      return [
        { type: 'xstate.done.actor.loadHistory', output: withOthers },
        { type: 'xstate.done.actor.loadHistory', output: aloneNow },
        { type: 'xstate.error.actor.loadHistory', error: new Error('Internet server error') },
      ];
    case 'unavailable':
      return [{ type: 'history.retry' }];
    case 'listing':
      return [{ type: 'signOutOthers.start' }, { type: 'signOutOthers.confirm' }];
    case 'confirming':
      return [{ type: 'signOutOthers.confirm' }, { type: 'dialog.dismiss' }];
    case 'signingOut':
      return [
        { type: 'dialog.dismiss' },
        { type: 'xstate.done.actor.signOutOthers', output: { message: SENTENCE, signed_out: 1 } },
        { type: 'xstate.error.actor.signOutOthers', error: new Error('Internet server error') },
      ];
    default:
      return [];
  }
}

const model = walk(signInHistoryMachine, { events });

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['loadHistory', 'signOutOthers']);
  const actor = createActor(signInHistoryMachine.provide({ actors: fakes.actors as never }), { inspect: coverage?.inspect }).start();
  const expectedCalls: string[] = [];
  // The oracle's own record: the last list read, and the sentence of the last sign-out.
  let shown: SignInEntry[] = [];
  let sentence: string | null = null;
  let previousState: string | undefined;
  await replay(actor, path, fakes, (snapshot, { event }) => {
    const state = snapshot.value as string;
    if (state !== previousState && state === 'loading') expectedCalls.push('loadHistory');
    if (state !== previousState && state === 'signingOut') expectedCalls.push('signOutOthers');
    if (event.type === 'xstate.done.actor.loadHistory') shown = (event.output as { sessions: SignInEntry[] }).sessions;
    if (event.type === 'xstate.done.actor.signOutOthers') sentence = SENTENCE;
    // Nothing is signed out without the confirmation; the dialog cannot be closed while the call runs.
    if (previousState === 'listing' && event.type === 'signOutOthers.confirm') expect(state).toBe('listing');
    if (previousState === 'signingOut' && event.type === 'dialog.dismiss') expect(state).toBe('signingOut');
    if (previousState === 'listing' && event.type === 'signOutOthers.start') {
      expect(state).toBe(shown.some((entry) => entry.active && !entry.current) ? 'confirming' : 'listing');
    }

    expect(snapshot.context.sessions).toEqual(shown);
    expect(snapshot.context.message).toBe(sentence);
    expect(snapshot.hasTag('open')).toBe(state === 'confirming' || state === 'signingOut');
    expect(snapshot.hasTag('busy')).toBe(state === 'loading' || state === 'signingOut');
    expect(selectCanSignOutOthers(snapshot as never)).toBe(state === 'listing' && shown.some((entry) => entry.active && !entry.current));
    // Before the first list there is nothing to show; a refresh keeps the old list on screen.
    const view = selectView(snapshot as never);
    if (state === 'unavailable') expect(view).toBe('unavailable');
    else expect(view).toBe(state === 'loading' && shown.length === 0 ? 'loading' : 'list');
    previousState = state;
  });
  expect(fakes.calls.map((call) => call.id)).toEqual(expectedCalls);
  actor.stop();
}

describe('sign-in history: every path through the chart', () => {
  it('has a graph to walk', () => {
    expect(model.states).toBeGreaterThan(8);
  });

  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(path);
  });

  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(signInHistoryMachine);
    for (const path of model.paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices what the walk leaves out', async () => {
    const coverage = new Coverage(signInHistoryMachine);
    const leftOut = (path: ModelPath) => path.steps.some(({ event }) => event.type === 'xstate.error.actor.signOutOthers' || event.type === 'dialog.dismiss');
    for (const path of model.paths.filter((path) => !leftOut(path))) await run(path, coverage);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([
      'signInHistory.confirming —dialog.dismiss#0→ signInHistory.listing',
      'signInHistory.signingOut —xstate.error.actor.signOutOthers#0→ signInHistory.listing',
    ]);
  });
});
