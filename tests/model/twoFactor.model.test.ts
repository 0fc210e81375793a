import { createActor, type AnyMachineSnapshot } from 'xstate';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { twoFactorMachine } from '../../src/machines/twoFactor/twoFactor.machine.ts';
import {
  Coverage,
  describePath,
  replay,
  scriptedActors,
  walk,
  type ModelEvent,
  type ModelPath,
} from '../support/machines.ts';

const enrolment = { secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/Peerex:alice?secret=JBSWY3DPEHPK3PXP' };

const codeEvents: ModelEvent[] = [
  { type: 'field.change', name: 'code', value: '123456' },
  { type: 'field.change', name: 'code', value: '12345' },
];

function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  switch (snapshot.value) {
    case 'loading':
      return [
        { type: 'xstate.done.actor.loadStatus', output: { enabled: true } },
        { type: 'xstate.done.actor.loadStatus', output: { enabled: false } },
        { type: 'xstate.error.actor.loadStatus', error: new Error('Internet server error') },
      ];
    case 'unavailable':
      return [{ type: 'status.retry' }];
    case 'disabled':
      return [{ type: 'setup.start' }];
    case 'startingSetup':
      return [
        { type: 'xstate.done.actor.startSetup', output: enrolment },
        { type: 'xstate.error.actor.startSetup', error: new Error('Internet server error') },
      ];
    case 'confirmingSetup':
      return [...codeEvents, { type: 'form.submit' }, { type: 'setup.cancel' }];
    case 'enabling':
      return [
        { type: 'xstate.done.actor.enable', output: 'Two-factor authentication is now on' },
        { type: 'xstate.error.actor.enable', error: new Error('Invalid code') },
      ];
    case 'enabled':
      return [{ type: 'disable.start' }];
    case 'confirmingDisable':
      return [...codeEvents, { type: 'form.submit' }, { type: 'disable.cancel' }];
    case 'disabling':
      return [
        { type: 'xstate.done.actor.disable', output: 'Two-factor authentication is now off' },
        { type: 'xstate.error.actor.disable', error: new Error('Invalid code') },
      ];
    default:
      return [];
  }
}

const busyStates = ['loading', 'startingSetup', 'enabling', 'disabling'];
/** Where the QR code of the pending secret shows. */
const enrolmentStates = ['confirmingSetup', 'enabling'];

const model = walk(twoFactorMachine, { events, simple: true });

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['loadStatus', 'startSetup', 'enable', 'disable']);
  const notices: Notice[] = [];
  const actor = createActor(
    twoFactorMachine.provide({
      actors: fakes.actors as never,
      actions: { notify: (_, notice) => void notices.push(notice) },
    }),
    { inspect: coverage?.inspect },
  ).start();

  const expectedCalls: { id: string; input: unknown }[] = [];
  const expectedNotices: Notice[] = [];
  await replay(actor, path, fakes, (snapshot, step, index) => {
    const before = index > 0 ? path.steps[index - 1]!.state : undefined;
    const { event } = step;
    const { code, secret, otpauthUrl } = snapshot.context;
    if (snapshot.value !== before?.value) {
      if (snapshot.value === 'loading') expectedCalls.push({ id: 'loadStatus', input: undefined });
      if (snapshot.value === 'startingSetup') expectedCalls.push({ id: 'startSetup', input: undefined });
      if (snapshot.value === 'enabling') expectedCalls.push({ id: 'enable', input: { code: '123456' } });
      if (snapshot.value === 'disabling') expectedCalls.push({ id: 'disable', input: { code: '123456' } });
    }
    if (event.type === 'xstate.done.actor.enable') {
      expectedNotices.push({ title: 'Two-factor enabled', description: String(event.output), type: 'success' });
    }
    if (event.type === 'xstate.done.actor.disable') {
      expectedNotices.push({ title: 'Two-factor disabled', description: String(event.output), type: 'success' });
    }

    const state = snapshot.value as string;
    expect(snapshot.hasTag('busy')).toBe(busyStates.includes(state));
    // The pending secret exists only while enrolment is being confirmed; it is never kept once on or cancelled.
    const showsQr = enrolmentStates.includes(state);
    expect({ secret, otpauthUrl }).toEqual(
      showsQr ? { secret: enrolment.secret, otpauthUrl: enrolment.otpauth_url } : { secret: null, otpauthUrl: null },
    );
    const asksForCode = state === 'confirmingSetup' || state === 'confirmingDisable';
    expect(snapshot.can({ type: 'form.submit' })).toBe(asksForCode && /^\d{6}$/.test(code));
    // A code entry starts empty: after a refusal, a cancel or a fresh start nothing stale is submitted.
    if (asksForCode && before?.value !== state) expect(code).toBe('');
  });

  expect(fakes.calls).toEqual(expectedCalls);
  expect(notices).toEqual(expectedNotices);
  actor.stop();
}

describe('two-factor settings: every path through the chart', () => {
  it('has a graph to walk', () => {
    expect(model.states).toBeGreaterThan(10);
  });

  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(path);
  });

  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(twoFactorMachine);
    for (const path of model.paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices a state the walk never enters', async () => {
    const coverage = new Coverage(twoFactorMachine);
    const alwaysAvailable = model.paths.filter((path) => !path.steps.some((s) => s.event.type === 'xstate.error.actor.loadStatus'));
    for (const path of alwaysAvailable) await run(path, coverage);
    expect(coverage.missingStates()).toEqual(['twoFactor.unavailable']);
    expect(coverage.missingTransitions()).toEqual([
      'twoFactor.loading —xstate.error.actor.loadStatus#0→ twoFactor.unavailable',
      'twoFactor.unavailable —status.retry#0→ twoFactor.loading',
    ]);
  });
});
