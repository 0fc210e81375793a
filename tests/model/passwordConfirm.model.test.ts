import { createActor, type AnyMachineSnapshot } from 'xstate';
import { passwordConfirmMachine } from '../../src/machines/passwordConfirm/passwordConfirm.machine.ts';
import { selectCanSubmit, selectIsBusy, selectPassword } from '../../src/machines/passwordConfirm/passwordConfirm.selectors.ts';
import { Coverage, describePath, replay, scriptedActors, walk, type ModelEvent, type ModelPath } from '../support/machines.ts';

/** What the change answers when the server made it; the chart hands it over as it is. */
const ANSWER = { anti_phishing_code: null };

function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  switch (snapshot.value) {
    case 'editing':
      return [
        { type: 'field.change', name: 'password', value: 'my-password' },
        { type: 'field.change', name: 'password', value: '' },
        { type: 'form.submit' },
        { type: 'form.cancel' },
      ];
    case 'submitting':
      // Cancel is offered too: while the change is on its way it must change nothing.
      return [
        { type: 'xstate.done.actor.change', output: ANSWER },
        { type: 'xstate.error.actor.change', error: new Error('The password is not correct.') },
        { type: 'form.cancel' },
      ];
    default:
      return [];
  }
}

const model = walk(passwordConfirmMachine, { events });

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['change']);
  const actor = createActor(passwordConfirmMachine.provide({ actors: fakes.actors as never }), { inspect: coverage?.inspect }).start();
  // The oracle: the password as typed, emptied by a refusal; one call per submit with a password; how it ends.
  let password = '';
  let sending = false;
  let ended: 'confirmed' | 'cancelled' | null = null;
  const expectedCalls: { id: string; input: unknown }[] = [];
  await replay(actor, path, fakes, (snapshot, { event }, index) => {
    if (index > 0) {
      if (event.type === 'field.change' && !sending) password = String(event.value);
      if (event.type === 'form.submit' && !sending && password !== '') {
        sending = true;
        expectedCalls.push({ id: 'change', input: { password } });
      }
      if (event.type === 'form.cancel' && !sending) ended = 'cancelled';
      if (event.type === 'xstate.error.actor.change') {
        sending = false;
        password = '';
      }
      if (event.type === 'xstate.done.actor.change') ended = 'confirmed';
    }
    expect(selectPassword(snapshot as never), 'the password field').toBe(password);
    expect(selectIsBusy(snapshot as never), 'busy').toBe(sending && ended === null);
    expect(snapshot.hasTag('form'), 'a form shows').toBe(ended === null);
    expect(selectCanSubmit(snapshot as never), 'the submit button').toBe(ended === null && !sending && password !== '');
    expect(snapshot.status).toBe(ended === null ? 'active' : 'done');
    if (ended === 'confirmed') expect(snapshot.output).toEqual({ confirmed: true, result: ANSWER });
    if (ended === 'cancelled') expect(snapshot.output).toEqual({ confirmed: false });
  });
  expect(fakes.calls).toEqual(expectedCalls);
  actor.stop();
}

describe('password confirmation: every path through the chart', () => {
  it('has a graph to walk', () => {
    expect(model.states).toBeGreaterThan(5);
  });

  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(path);
  });

  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(passwordConfirmMachine);
    for (const path of model.paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices what the walk leaves out', async () => {
    const coverage = new Coverage(passwordConfirmMachine);
    for (const path of model.paths.filter((path) => !path.steps.some(({ event }) => event.type === 'form.cancel'))) await run(path, coverage);
    expect(coverage.missingStates()).toEqual(['passwordConfirm.cancelled']);
    expect(coverage.missingTransitions()).toEqual(['passwordConfirm.editing —form.cancel#0→ passwordConfirm.cancelled']);
  });
});
