import { createActor, createMachine, type AnyActorRef, type AnyMachineSnapshot } from 'xstate';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { twoFactorLogic } from '../../src/machines/twoFactor/twoFactor.actors.ts';
import { selectCanSubmitCode, selectCodeEntry } from '../../src/machines/twoFactor/twoFactor.selectors.ts';
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
const CODES = ['abcde-fghij', 'kmnpq-rstuv', 'wxyz2-34567', '89abc-defgh', 'ijkmn-pqrst', 'uvwxy-z2345', '6789a-bcdef', 'ghijk-mnpqr', 'stuvw-xyz23', '45678-9abcd'];

/** The codes a trader types into the turn-off and renewal forms: a whole authenticator code, one digit short, and a recovery code. */
const codeEvents: ModelEvent[] = [
  { type: 'field.change', name: 'code', value: '123456' },
  { type: 'field.change', name: 'code', value: '12345' },
  { type: 'field.change', name: 'code', value: 'abcde-fghij' },
];
/**
 * Enrolment's code goes into the code entry child; the walk's child is a no-op, so what the real one answers
 * to the forwarded submit (`code.entered` once all six digits are there) is an event of the walk. The chart
 * does not handle `code.incomplete` (the child shows its own message), so it is left out. A code typed as a
 * field of the form itself must change nothing: the field is the code entry's.
 */
const enrolmentCodeEvents: ModelEvent[] = [
  { type: 'code.entered', code: '123456' },
  { type: 'field.change', name: 'code', value: '123456' },
];
const passwordEvents: ModelEvent[] = [
  { type: 'field.change', name: 'password', value: 'my-password' },
  { type: 'field.change', name: 'password', value: '' },
];

function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  switch (snapshot.value) {
    case 'loading':
      return [
        { type: 'xstate.done.actor.loadStatus', output: { enabled: true, recovery_codes_left: 4 } },
        { type: 'xstate.done.actor.loadStatus', output: { enabled: false, recovery_codes_left: 0 } },
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
      return [...enrolmentCodeEvents, ...passwordEvents, { type: 'form.submit' }, { type: 'setup.cancel' }];
    case 'enabling':
      return [
        { type: 'xstate.done.actor.enable', output: { message: 'Two-factor authentication is now on.', recovery_codes: CODES } },
        { type: 'xstate.error.actor.enable', error: new Error('The password is not correct.') },
      ];
    case 'showingRecoveryCodes':
      return [{ type: 'recoveryCodes.acknowledge' }];
    case 'enabled':
      return [{ type: 'disable.start' }, { type: 'recoveryCodes.start' }];
    case 'confirmingDisable':
      return [...codeEvents, ...passwordEvents, { type: 'form.submit' }, { type: 'disable.cancel' }];
    case 'disabling':
      return [
        { type: 'xstate.done.actor.disable', output: 'Two-factor authentication is now off.' },
        { type: 'xstate.error.actor.disable', error: new Error('Invalid code') },
      ];
    case 'confirmingRenewal':
      return [...codeEvents, ...passwordEvents, { type: 'form.submit' }, { type: 'recoveryCodes.cancel' }];
    case 'renewingRecoveryCodes':
      return [
        { type: 'xstate.done.actor.renewRecoveryCodes', output: { message: 'New recovery codes are ready.', recovery_codes: CODES } },
        { type: 'xstate.error.actor.renewRecoveryCodes', error: new Error('Invalid recovery code.') },
      ];
    default:
      return [];
  }
}

const busyStates = ['loading', 'startingSetup', 'enabling', 'disabling', 'renewingRecoveryCodes'];
/** Where the QR code of the pending secret shows. */
const enrolmentStates = ['confirmingSetup', 'enabling'];
/** The forms that ask for a code and the password (issue 8: every change asks for the password). */
const formStates = ['confirmingSetup', 'confirmingDisable', 'confirmingRenewal'];
/** The calls that carry a form's code and password to the server. */
const submittingStates = ['enabling', 'disabling', 'renewingRecoveryCodes'];
/** The forms whose code is typed into the form itself, an authenticator code or a recovery code. */
const proofStates = ['confirmingDisable', 'confirmingRenewal'];
/** A whole code for those forms: six digits, or a recovery code (ten symbols of the alphabet, a dash between). */
const isWholeProof = (code: string) => /^\d{6}$/.test(code) || /^[a-km-np-z2-9]{5}-?[a-km-np-z2-9]{5}$/.test(code);

/** The chart with its rules and a code entry that does nothing: its reports are events of the walk. */
const noCodeEntry = { codeEntry: createMachine({}) };
const walked = twoFactorLogic.provide({ actors: noCodeEntry as never });
const model = walk(walked, { events });

/** describePath, with the code a `code.entered` hands over shown in the title. */
const title = (path: ModelPath) =>
  describePath({
    ...path,
    steps: path.steps.map((step) => (step.event.type === 'code.entered' ? { ...step, event: { ...step.event, value: step.event.code } } : step)),
  });

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['loadStatus', 'startSetup', 'enable', 'disable', 'renewRecoveryCodes']);
  const notices: Notice[] = [];
  const actor = createActor(
    twoFactorLogic.provide({
      actors: { ...fakes.actors, ...noCodeEntry } as never,
      actions: { notify: (_, notice) => void notices.push(notice) },
    }),
    { inspect: coverage?.inspect },
  ).start();

  const expectedCalls: { id: string; input: unknown }[] = [];
  const expectedNotices: Notice[] = [];
  // The oracle's own count of recovery codes: what the status said, ten after a new set, none once off.
  let codesLeft = 0;
  let previousState: string | undefined;
  // The code entries enrolment had, in order: each time the form opens (or comes back refused) it gets a new, empty one.
  const entries: AnyActorRef[] = [];
  await replay(actor, path, fakes, (snapshot, step, index) => {
    const { event } = step;
    const state = snapshot.value as string;
    const { code, password, secret, otpauthUrl, recoveryCodes, recoveryCodesLeft } = snapshot.context;
    const previous = index > 0 ? path.steps[index - 1]!.state : undefined;
    const entered = index === 0 || state !== previousState;
    const fromForm = previousState !== undefined && formStates.includes(previousState);
    if (previousState === 'confirmingSetup') {
      // Enrolment goes on when the code entry hands over its code and the password is there; its own submit
      // only asks the code entry, and a code typed as a field of the form is not taken.
      const hadPassword = previous!.context.password !== '';
      if (event.type === 'code.entered') expect(state).toBe(hadPassword ? 'enabling' : 'confirmingSetup');
      if (event.type === 'form.submit') expect(state).toBe('confirmingSetup');
      if (event.type === 'field.change' && event.name === 'code') expect(snapshot.context).toEqual(previous!.context);
    }
    if (previousState !== undefined && proofStates.includes(previousState) && event.type === 'form.submit') {
      const whole = isWholeProof(previous!.context.code as string) && previous!.context.password !== '';
      expect(state).toBe(!whole ? previousState : previousState === 'confirmingDisable' ? 'disabling' : 'renewingRecoveryCodes');
    }
    if (entered) {
      if (state === 'loading') expectedCalls.push({ id: 'loadStatus', input: undefined });
      if (state === 'startingSetup') expectedCalls.push({ id: 'startSetup', input: undefined });
      if (state === 'enabling') {
        // The code the code entry handed over, with the password typed.
        expect(event.type).toBe('code.entered');
        expectedCalls.push({ id: 'enable', input: { code: event.code, password: 'my-password' } });
      }
      if (state === 'disabling' || state === 'renewingRecoveryCodes') {
        expect(['123456', 'abcde-fghij']).toContain(code);
        expectedCalls.push({ id: state === 'disabling' ? 'disable' : 'renewRecoveryCodes', input: { code, password: 'my-password' } });
      }
    }
    if (event.type === 'xstate.done.actor.loadStatus') {
      const output = event.output as { enabled: boolean; recovery_codes_left: number };
      codesLeft = output.enabled ? output.recovery_codes_left : 0;
    }
    if (event.type === 'xstate.done.actor.enable') {
      codesLeft = 10;
      expectedNotices.push({ title: 'Two-factor enabled', description: 'Two-factor authentication is now on.', type: 'success' });
    }
    if (event.type === 'xstate.done.actor.renewRecoveryCodes') {
      codesLeft = 10;
      expectedNotices.push({ title: 'New recovery codes', description: 'New recovery codes are ready.', type: 'success' });
    }
    if (event.type === 'xstate.done.actor.disable') {
      codesLeft = 0;
      expectedNotices.push({ title: 'Two-factor disabled', description: 'Two-factor authentication is now off.', type: 'success' });
    }

    expect(snapshot.hasTag('busy')).toBe(busyStates.includes(state));
    // The pending secret exists only while enrolment is being confirmed; it is never kept once on or cancelled.
    expect({ secret, otpauthUrl }).toEqual(
      enrolmentStates.includes(state) ? { secret: enrolment.secret, otpauthUrl: enrolment.otpauth_url } : { secret: null, otpauthUrl: null },
    );
    // The recovery codes in clear exist only on the screen that shows them, once.
    expect(recoveryCodes).toEqual(state === 'showingRecoveryCodes' ? CODES : null);
    expect(recoveryCodesLeft).toBe(codesLeft);
    // The password is kept only inside a change being made; leaving the forms forgets it.
    if (!formStates.includes(state) && !submittingStates.includes(state)) expect(password).toBe('');
    // A form starts empty when opened: after a cancel or a fresh start nothing stale is submitted.
    if (formStates.includes(state) && entered && !fromForm && !submittingStates.includes(previousState ?? '')) {
      expect({ code, password }).toEqual({ code: '', password: '' });
    }
    // The enrolment form keeps no code of its own: the code entry holds what is typed until it hands it over.
    if (state === 'confirmingSetup') expect(code).toBe('');
    // The enrolment form has its code entry, and only it; a new visit gets a new one.
    const entry = selectCodeEntry(snapshot as never);
    if (state === 'confirmingSetup') {
      expect(entry).toBeDefined();
      if (previousState === 'confirmingSetup') expect(entry).toBe(entries.at(-1));
      else {
        expect(entries).not.toContain(entry);
        entries.push(entry!);
      }
    } else {
      expect(entry).toBeUndefined();
    }
    // The form's submit is taken with the password, and for turning off or renewing, a whole code too
    // (enrolment's button also waits for its code entry: tests/machines/twoFactor.test.ts drives the real one).
    const canSubmit =
      (state === 'confirmingSetup' && password !== '') || (proofStates.includes(state) && isWholeProof(code) && password !== '');
    expect(snapshot.can({ type: 'form.submit' })).toBe(canSubmit);
    expect(selectCanSubmitCode(snapshot as never)).toBe(canSubmit);
    previousState = state;
  });

  expect(fakes.calls).toEqual(expectedCalls);
  expect(notices).toEqual(expectedNotices);
  actor.stop();
}

describe('two-factor settings: every path through the chart', () => {
  it('has a graph to walk', () => {
    expect(model.states).toBeGreaterThan(20);
  });

  it.each(model.paths.map((path) => [title(path), path] as const))('%s', async (_, path) => {
    await run(path);
  });

  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(walked);
    for (const path of model.paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices a state the walk never enters', async () => {
    const coverage = new Coverage(walked);
    const alwaysAvailable = model.paths.filter((path) => !path.steps.some((s) => s.event.type === 'xstate.error.actor.loadStatus'));
    for (const path of alwaysAvailable) await run(path, coverage);
    expect(coverage.missingStates()).toEqual(['twoFactor.unavailable']);
    expect(coverage.missingTransitions()).toEqual([
      'twoFactor.loading —xstate.error.actor.loadStatus#0→ twoFactor.unavailable',
      'twoFactor.unavailable —status.retry#0→ twoFactor.loading',
    ]);
  });
});
