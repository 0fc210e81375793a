import { createActor, type AnyMachineSnapshot } from 'xstate';
import type { SignInEntry } from '../../contracts/account-protections.ts';
import { signInHistoryMachine } from '../../src/machines/signInHistory/signInHistory.machine.ts';
import {
  selectCanConfirm,
  selectCanSignOutOthers,
  selectIsBusy,
  selectIsDialogOpen,
  selectMessage,
  selectSessions,
  selectView,
} from '../../src/machines/signInHistory/signInHistory.selectors.ts';
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
  // The oracle: the page as the trader sees it, written without the chart. The page opens reading the history.
  let reading = true;
  let unavailable = false;
  let dialog: 'closed' | 'asking' | 'signingOut' = 'closed';
  let shown: SignInEntry[] = [];
  let sentence: string | null = null;
  const expectedCalls: string[] = ['loadHistory'];
  const othersActive = () => shown.some((entry) => entry.active && !entry.current);
  await replay(actor, path, fakes, (snapshot, { event }) => {
    switch (event.type) {
      case 'xstate.done.actor.loadHistory':
        reading = false;
        shown = (event.output as { sessions: SignInEntry[] }).sessions;
        break;
      case 'xstate.error.actor.loadHistory':
        reading = false;
        unavailable = true;
        break;
      case 'history.retry':
        if (unavailable) {
          unavailable = false;
          reading = true;
          expectedCalls.push('loadHistory');
        }
        break;
      case 'signOutOthers.start':
        // Offered only on the list, while another session is active.
        if (!reading && !unavailable && dialog === 'closed' && othersActive()) dialog = 'asking';
        break;
      case 'signOutOthers.confirm':
        // Nothing is signed out without the dialog's confirmation.
        if (dialog === 'asking') {
          dialog = 'signingOut';
          expectedCalls.push('signOutOthers');
        }
        break;
      case 'dialog.dismiss':
        // The dialog cannot be closed while the call runs.
        if (dialog === 'asking') dialog = 'closed';
        break;
      case 'xstate.done.actor.signOutOthers':
        // The sentence shows and the list is read again to show the ended sessions.
        dialog = 'closed';
        sentence = SENTENCE;
        reading = true;
        expectedCalls.push('loadHistory');
        break;
      case 'xstate.error.actor.signOutOthers':
        // The refusal is a toast of the shared API handling; the list stays as it was.
        dialog = 'closed';
        break;
    }

    const page = snapshot as never;
    // Before the first list there is nothing to show; a refresh keeps the old list on screen.
    expect(selectView(page)).toBe(unavailable ? 'unavailable' : reading && shown.length === 0 ? 'loading' : 'list');
    expect(selectSessions(page)).toEqual(shown);
    expect(selectMessage(page)).toBe(sentence);
    expect(selectIsDialogOpen(page), 'the dialog').toBe(dialog !== 'closed');
    expect(selectIsBusy(page), 'busy').toBe(reading || dialog === 'signingOut');
    expect(selectCanSignOutOthers(page), '"Sign out everywhere else"').toBe(!reading && !unavailable && dialog === 'closed' && othersActive());
    expect(selectCanConfirm(page), 'the dialog\'s confirmation').toBe(dialog === 'asking');
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
