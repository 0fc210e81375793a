import { createActor, type AnyMachineSnapshot } from 'xstate';
import { passwordResetMachine } from '../../src/machines/passwordReset/passwordReset.machine.ts';
import { selectErrors, selectIsBusy, selectStep } from '../../src/machines/passwordReset/passwordReset.selectors.ts';
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
        { type: 'field.change', name: 'code', value: '246810' },
        { type: 'field.change', name: 'code', value: '24x' },
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

/** Spec section 2 "Forgot password": two steps; the buttons read "Sending..."/"Submitting..." while busy. */
const screens: Record<string, { step: 'email' | 'details'; busy: boolean; fields: readonly string[] }> = {
  enteringEmail: { step: 'email', busy: false, fields: ['email'] },
  requestingCode: { step: 'email', busy: true, fields: [] },
  enteringDetails: { step: 'details', busy: false, fields: ['code', 'password', 'confirmPassword'] },
  resetting: { step: 'details', busy: true, fields: [] },
  done: { step: 'details', busy: false, fields: [] },
};

const model = walk(passwordResetMachine, { events });

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['requestReset', 'resetPassword']);
  const notices: Notice[] = [];
  let leftForLogin = 0;
  const actor = createActor(
    passwordResetMachine.provide({
      actors: fakes.actors as never,
      actions: {
        notify: (_, notice) => void notices.push(notice),
        goToLogin: () => void (leftForLogin += 1),
      },
    }),
    { inspect: coverage?.inspect },
  ).start();

  let email = '';
  let revealed = false;
  const expectedNotices: Notice[] = [];
  const expectedCalls: { id: string; input: unknown }[] = [];

  await replay(actor, path, fakes, (snapshot, step, index) => {
    const before = index > 0 ? path.steps[index - 1]!.state : undefined;
    const { event } = step;
    const context = snapshot.context;
    if (event.type === 'field.change' && event.name === 'email' && before?.value === 'enteringEmail') {
      email = String(event.value);
    }
    if (before?.value !== snapshot.value) revealed = false;
    if (event.type === 'form.submit' && before?.value === snapshot.value) revealed = true;
    if (snapshot.value !== before?.value) {
      if (snapshot.value === 'requestingCode') expectedCalls.push({ id: 'requestReset', input: { email } });
      if (snapshot.value === 'resetting') {
        expectedCalls.push({
          id: 'resetPassword',
          input: { email, code: '246810', password: 'newpass1', confirmPassword: 'newpass1' },
        });
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
          ? specRules.confirmPassword(context.confirmPassword, context.password)
          : specRules[field as 'email' | 'code' | 'password'](context[field as 'email']);
      expect(errors[field], `${field} message`).toBe(expected);
    }
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
    const coverage = new Coverage(passwordResetMachine);
    for (const path of model.paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices a path the walk leaves out', async () => {
    const coverage = new Coverage(passwordResetMachine);
    const neverBack = model.paths.filter((path) => !path.steps.some((s) => s.event.type === 'email.edit'));
    for (const path of neverBack) await run(path, coverage);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([
      'passwordReset.enteringDetails —email.edit#0→ passwordReset.enteringEmail',
    ]);
  });
});
