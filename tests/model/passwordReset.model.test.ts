import { createActor, createMachine, type AnyActorRef, type AnyMachineSnapshot, type EventObject, type InspectionEvent } from 'xstate';
import { passwordResetLogic } from '../../src/machines/passwordReset/passwordReset.actors.ts';
import { selectCodeEntry, selectErrors, selectIsBusy, selectStep } from '../../src/machines/passwordReset/passwordReset.selectors.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import {
  Coverage,
  describePath,
  replay,
  scriptedActors,
  specRules,
  walk,
  type ModelEvent,
  type ModelPath,
} from '../support/machines.ts';

const requestInfo = 'If an account uses this email, a code is on its way';

/**
 * The code entry (codeEntry.machine.ts, its own walk in codeEntry.model.test.ts) stands in as a chart that
 * does nothing: the walk sends what it would tell the reset (`code.entered` with a 6-digit code, or
 * `code.incomplete`) as events of its own, beside the `form.submit` the reset forwards to it. The real
 * parent and child together are tested in tests/machines/passwordReset.test.ts.
 */
const chart = passwordResetLogic.provide({ actors: { codeEntry: createMachine({}) as never } });
const emailedCode = '246810';

function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  switch (snapshot.value) {
    case 'enteringEmail':
      return [
        { type: 'field.change', name: 'email', value: 'bob@example.com' },
        { type: 'field.change', name: 'email', value: 'bob@' },
        { type: 'form.submit' },
      ];
    case 'requestingCode':
      return [
        { type: 'xstate.done.actor.requestReset', output: requestInfo },
        { type: 'xstate.error.actor.requestReset', error: new Error('Too many requests') },
      ];
    case 'enteringDetails':
      return [
        { type: 'code.entered', code: emailedCode },
        { type: 'code.incomplete' },
        { type: 'field.change', name: 'password', value: 'newpass1' },
        { type: 'field.change', name: 'password', value: 'short' },
        { type: 'field.change', name: 'confirmPassword', value: 'newpass1' },
        { type: 'field.change', name: 'confirmPassword', value: 'newpass2' },
        { type: 'field.change', name: 'email', value: 'mallory@example.com' },
        { type: 'form.submit' },
        { type: 'email.edit' },
      ];
    case 'resetting':
      return [
        { type: 'xstate.done.actor.resetPassword', output: 'Password changed' },
        { type: 'xstate.error.actor.resetPassword', error: new Error('Invalid or expired code') },
      ];
    default:
      return [];
  }
}

/**
 * Forgot password has two steps; the buttons read "Sending..."/"Submitting..." while busy.
 * The fields whose messages the reset itself shows, and whether the code is typed there (into the code
 * entry, which shows its own message).
 */
const screens: Record<string, { step: 'email' | 'details'; busy: boolean; fields: readonly string[]; typesCode: boolean }> = {
  enteringEmail: { step: 'email', busy: false, fields: ['email'], typesCode: false },
  requestingCode: { step: 'email', busy: true, fields: [], typesCode: false },
  enteringDetails: { step: 'details', busy: false, fields: ['password', 'confirmPassword'], typesCode: true },
  resetting: { step: 'details', busy: true, fields: [], typesCode: false },
  done: { step: 'details', busy: false, fields: [], typesCode: false },
};

const model = walk(chart, { events });

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['requestReset', 'resetPassword']);
  const notices: Notice[] = [];
  let leftForLogin = 0;
  /** What the reset sends its code entry (the no-op child takes it and does nothing). */
  const toCodeEntry: EventObject[] = [];
  const inspect = (event: InspectionEvent) => {
    coverage?.inspect(event);
    if (event.type === '@xstate.event' && (event.actorRef as AnyActorRef).id === 'codeEntry' && !event.event.type.startsWith('xstate.')) {
      toCodeEntry.push(event.event);
    }
  };
  const actor = createActor(
    chart.provide({
      actors: fakes.actors as never,
      actions: {
        notify: (_, notice) => void notices.push(notice),
        goToLogin: () => void (leftForLogin += 1),
      },
    }),
    { inspect },
  ).start();

  // The oracle: the fields as typed, the code the code entry hands over, and a new entry at every visit.
  let email = '';
  let password = '';
  let confirmPassword = '';
  let code = '';
  let revealed = false;
  const expectedNotices: Notice[] = [];
  const expectedCalls: { id: string; input: unknown }[] = [];
  const expectedToCodeEntry: EventObject[] = [];
  const entries: AnyActorRef[] = [];

  await replay(actor, path, fakes, (snapshot, step, index) => {
    const before = index > 0 ? path.steps[index - 1]!.state : undefined;
    const { event } = step;
    const context = snapshot.context;
    if (event.type === 'field.change' && event.name === 'email' && before?.value === 'enteringEmail') {
      email = String(event.value);
    }
    if (event.type === 'field.change' && event.name === 'password') password = String(event.value);
    if (event.type === 'field.change' && event.name === 'confirmPassword') confirmPassword = String(event.value);
    const newPasswordValid = specRules.password(password) === undefined && specRules.confirmPassword(confirmPassword, password) === undefined;
    if (before?.value !== snapshot.value) revealed = false;
    if (event.type === 'form.submit' && before?.value === 'enteringEmail' && snapshot.value === 'enteringEmail') revealed = true;
    // "Submit" on the details step: the code goes to the code entry (its message is its own); the new
    // password's messages show when it or its confirmation is not valid.
    if (event.type === 'form.submit' && before?.value === 'enteringDetails') {
      expectedToCodeEntry.push({ type: 'code.submit' });
      if (!newPasswordValid) revealed = true;
    }
    if (event.type === 'code.entered') code = String(event.code);

    // Spec: the reset is sent with a complete code and a valid new password and confirmation, and only then.
    if (before?.value === 'enteringDetails' && event.type === 'code.entered') {
      expect(snapshot.value).toBe(newPasswordValid ? 'resetting' : 'enteringDetails');
    }
    if (before?.value === 'enteringDetails' && (event.type === 'code.incomplete' || event.type === 'form.submit')) {
      expect(snapshot.value).toBe('enteringDetails');
    }

    if (snapshot.value !== before?.value) {
      if (snapshot.value === 'requestingCode') expectedCalls.push({ id: 'requestReset', input: { email } });
      if (snapshot.value === 'resetting') {
        expectedCalls.push({ id: 'resetPassword', input: { email, code, password, confirmPassword } });
      }
    }
    if (event.type === 'xstate.done.actor.requestReset') {
      expectedNotices.push({ title: 'OTP Sent', description: requestInfo });
    }
    if (snapshot.value === 'done') {
      expectedNotices.push({
        title: 'Password reset successful',
        description: 'Kindly login with your new password',
        type: 'success',
      });
    }

    expect(context.email, 'the email is read-only on the details step').toBe(email);
    const screen = screens[snapshot.value as string]!;
    expect(selectStep(snapshot as never)).toBe(screen.step);
    expect(selectIsBusy(snapshot as never)).toBe(screen.busy);
    const errors = selectErrors(snapshot as never) as Record<string, string | undefined>;
    for (const field of screen.fields) {
      const expected = !revealed
        ? undefined
        : field === 'confirmPassword'
          ? specRules.confirmPassword(confirmPassword, password)
          : field === 'password'
            ? specRules.password(password)
            : specRules.email(email);
      expect(errors[field], `${field} message`).toBe(expected);
    }
    expect(errors, 'the code message is the code entry\'s').not.toHaveProperty('code');

    // The code field: typed into the code entry on the details step, a new (empty) one at each visit,
    // after a refused reset too; while the reset is sent it shows the code handed over.
    const entry = selectCodeEntry(snapshot as never) as AnyActorRef | undefined;
    expect(entry !== undefined, 'the code entry is there').toBe(screen.typesCode);
    if (entry && before?.value !== 'enteringDetails') {
      expect(entries, 'a new code entry').not.toContain(entry);
      entries.push(entry);
    }
    if (entry && before?.value === 'enteringDetails') expect(entry, 'the same code entry').toBe(entries.at(-1));
    if (snapshot.value === 'resetting') expect(context.code, 'the code shown while resetting').toBe(code);
    expect(toCodeEntry, 'what the reset sent its code entry').toEqual(expectedToCodeEntry);
  });

  expect(fakes.calls).toEqual(expectedCalls);
  expect(notices).toEqual(expectedNotices);
  expect(leftForLogin).toBe(path.state.value === 'done' ? 1 : 0);
  actor.stop();
}

describe('password reset: every path through the chart', () => {
  it('has a graph to walk', () => {
    expect(model.states).toBeGreaterThan(20);
  });

  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(path);
  });

  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(chart);
    for (const path of model.paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices a path the walk leaves out', async () => {
    const coverage = new Coverage(chart);
    const neverBack = model.paths.filter((path) => !path.steps.some((s) => s.event.type === 'email.edit'));
    for (const path of neverBack) await run(path, coverage);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([
      'passwordReset.enteringDetails —email.edit#0→ passwordReset.enteringEmail',
    ]);
  });

  it('the coverage measure notices a walk that never hears a code from the code entry', async () => {
    const coverage = new Coverage(chart);
    const neverEntered = model.paths.filter((path) => !path.steps.some((s) => s.event.type === 'code.entered'));
    for (const path of neverEntered) await run(path, coverage);
    expect(coverage.missingStates()).toEqual(['passwordReset.resetting', 'passwordReset.done']);
    expect(coverage.missingTransitions()).toEqual([
      'passwordReset.enteringDetails —code.entered#0→ passwordReset.resetting',
      'passwordReset.resetting —xstate.done.actor.resetPassword#0→ passwordReset.done',
      'passwordReset.resetting —xstate.error.actor.resetPassword#0→ passwordReset.enteringDetails',
    ]);
  });
});
