import { createActor, type AnyMachineSnapshot } from 'xstate';
import { pushRegistrationMachine } from '../../src/machines/pushRegistration/pushRegistration.machine.ts';
import {
  selectCanEnable,
  selectFailure,
  selectIsBusy,
  selectPushView,
  type PushView,
} from '../../src/machines/pushRegistration/pushRegistration.selectors.ts';
import { PushRegistrationFailed } from '../../src/services/push.ts';
import { Coverage, describePath, replay, scriptedActors, walk, type ModelEvent, type ModelPath } from '../support/machines.ts';

const input = { username: 'alice' };
/** How a registration fails, as the push service says it (services/push.ts PushRegistrationFailed), and a bare error. */
const failures = {
  service: new PushRegistrationFailed('service', new Error('Unexpected status code 503: push service unavailable')),
  browser: new PushRegistrationFailed('browser', new DOMException('Registration failed - permission denied', 'NotAllowedError')),
  denied: new PushRegistrationFailed('denied', new DOMException('Registration failed - permission denied', 'NotAllowedError')),
  bare: new Error('something else'),
};

const device = (supported: boolean, permission: string): ModelEvent => ({ type: 'xstate.done.actor.readDevice', output: { supported, permission } });
const answered = (permission: string): ModelEvent => ({ type: 'xstate.done.actor.requestPermission', output: permission });

/** What the browser, the trader and the push service can do in each state (the button is always there to press). */
function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const list: ModelEvent[] = [{ type: 'push.enable' }];
  if (snapshot.matches('checking')) {
    list.push(
      device(true, 'granted'),
      device(true, 'default'),
      device(true, 'denied'),
      device(false, 'granted'),
      { type: 'xstate.error.actor.readDevice', error: new Error('no window') },
    );
  }
  if (snapshot.matches('askingPermission')) {
    list.push(answered('granted'), answered('denied'), answered('default'), { type: 'xstate.error.actor.requestPermission', error: new Error('prompt failed') });
  }
  if (snapshot.matches('registering')) {
    list.push(
      { type: 'xstate.done.actor.register', output: undefined },
      ...Object.values(failures).map((error) => ({ type: 'xstate.error.actor.register', error })),
    );
  }
  return list;
}

const model = walk(pushRegistrationMachine, { events, input, simple: true });

/**
 * The oracle, written apart from the chart: what /settings shows after each thing that happens, and which
 * calls the device makes (a prompt only after the button, a registration only once permission is granted).
 */
function expectedAfter(view: PushView, event: ModelEvent): { view: PushView; call?: 'requestPermission' | 'register'; failure?: string | null } {
  const granted = () => ({ view: 'registering' as const, call: 'register' as const, failure: null });
  switch (event.type) {
    case 'push.enable':
      if (view === 'promptRequired') return { view: 'askingPermission', call: 'requestPermission' };
      if (view === 'notRegistered') return granted();
      return { view };
    case 'xstate.done.actor.readDevice': {
      const { supported, permission } = event.output as { supported: boolean; permission: string };
      if (!supported) return { view: 'unsupported' };
      return permission === 'granted' ? granted() : { view: permission === 'denied' ? 'denied' : 'promptRequired' };
    }
    case 'xstate.error.actor.readDevice':
      return { view: 'unsupported' };
    case 'xstate.done.actor.requestPermission':
      return event.output === 'granted' ? granted() : { view: event.output === 'denied' ? 'denied' : 'promptRequired' };
    case 'xstate.error.actor.requestPermission':
      return { view: 'promptRequired' };
    case 'xstate.done.actor.register':
      return { view: 'registered' };
    case 'xstate.error.actor.register': {
      // Blocked by the trader is denied; a browser that cannot subscribe says so; anything else is the service's.
      const error = event.error;
      if (error === failures.denied) return { view: 'denied' };
      return { view: 'notRegistered', failure: error === failures.browser ? 'browser' : 'service' };
    }
    default:
      throw new Error(`the oracle does not know ${event.type}`);
  }
}

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['readDevice', 'requestPermission', 'register']);
  const actor = createActor(pushRegistrationMachine.provide({ actors: fakes.actors as never }), { input, inspect: coverage?.inspect }).start();
  let view: PushView = 'checking';
  let failure: string | null = null;
  const expectedCalls: { id: string; input: unknown }[] = [{ id: 'readDevice', input: undefined }];

  await replay(actor, path, fakes, (snapshot, step, index) => {
    if (index > 0) {
      const next = expectedAfter(view, step.event);
      view = next.view;
      if (next.failure !== undefined) failure = next.failure;
      if (next.call === 'register') expectedCalls.push({ id: 'register', input: { username: 'alice' } });
      if (next.call === 'requestPermission') expectedCalls.push({ id: 'requestPermission', input: undefined });
    }
    expect(selectPushView(snapshot as never)).toBe(view);
    expect(selectCanEnable(snapshot as never), 'the button shows where it helps').toBe(view === 'promptRequired' || view === 'notRegistered');
    expect(selectIsBusy(snapshot as never)).toBe(view === 'checking' || view === 'askingPermission' || view === 'registering');
    expect(selectFailure(snapshot as never)).toBe(view === 'notRegistered' ? failure : null);
  });
  expect(fakes.calls).toEqual(expectedCalls);
  actor.stop();
}

describe('pushRegistration: every path through the chart', () => {
  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(path);
  });

  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(pushRegistrationMachine);
    for (const path of model.paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices what the walk leaves out', async () => {
    const coverage = new Coverage(pushRegistrationMachine);
    const retries = (path: ModelPath) =>
      path.steps.some(({ event }, index) => event.type === 'push.enable' && path.steps[index - 1]?.event.type === 'xstate.error.actor.register');
    for (const path of model.paths.filter((path) => !retries(path))) await run(path, coverage);
    expect(coverage.missingTransitions()).toEqual(['pushRegistration.notRegistered —push.enable#0→ pushRegistration.registering']);
  });
});
