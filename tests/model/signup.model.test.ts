import { createActor, type AnyMachineSnapshot } from 'xstate';
import type { SessionResponse } from '../../contracts/security.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { signupMachine } from '../../src/machines/signup/signup.machine.ts';
import { selectErrors, selectIsBusy, selectIsResending, selectStep } from '../../src/machines/signup/signup.selectors.ts';
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

const ada = { username: 'ada_l', email: 'ada@example.com', websocket_token: 'ws-ada' };
const registered: SessionResponse = { token: 'session-ada', user: ada };
const sentInfo = 'A verification code was sent to ada@example.com';
const resentInfo = 'A new verification code was sent to ada@example.com';

/** Someone trying to change the read-only email after the code was requested. */
const otherEmail: ModelEvent = { type: 'field.change', name: 'email', value: 'eve@example.com' };

function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  switch (snapshot.value) {
    case 'enteringEmail':
      return [
        { type: 'field.change', name: 'email', value: 'ada@example.com' },
        { type: 'field.change', name: 'email', value: 'not-an-email' },
        { type: 'form.submit' },
      ];
    case 'requestingCode':
      return [
        { type: 'xstate.done.actor.requestCode', output: sentInfo },
        { type: 'xstate.error.actor.requestCode', error: new Error('Email already registered') },
      ];
    case 'enteringCode':
      return [
        { type: 'field.change', name: 'code', value: '123456' },
        { type: 'field.change', name: 'code', value: '12a4' },
        otherEmail,
        { type: 'form.submit' },
        { type: 'code.resend' },
        { type: 'email.edit' },
      ];
    case 'resendingCode':
      return [
        { type: 'xstate.done.actor.resendCode', output: resentInfo },
        { type: 'xstate.error.actor.resendCode', error: new Error('Too many requests') },
      ];
    case 'verifyingCode':
      return [
        { type: 'xstate.done.actor.verifyCode', output: 'Email verified' },
        { type: 'xstate.error.actor.verifyCode', error: new Error('Invalid code') },
      ];
    case 'completingAccount':
      return [
        { type: 'field.change', name: 'username', value: 'ada_l' },
        { type: 'field.change', name: 'username', value: 'ad' },
        { type: 'field.change', name: 'password', value: 'secret1' },
        { type: 'field.change', name: 'password', value: '12345' },
        { type: 'field.change', name: 'confirmPassword', value: 'secret1' },
        { type: 'field.change', name: 'confirmPassword', value: 'secret2' },
        otherEmail,
        { type: 'form.submit' },
      ];
    case 'registering':
      return [
        { type: 'xstate.done.actor.register', output: registered },
        { type: 'xstate.error.actor.register', error: new Error('Username taken') },
      ];
    default:
      return [];
  }
}

/** Spec section 2 "Signup": the step each state shows and the fields whose messages it can show. */
const screens: Record<string, { step: string; busy: boolean; fields: readonly string[] }> = {
  enteringEmail: { step: 'email', busy: false, fields: ['email'] },
  requestingCode: { step: 'email', busy: true, fields: [] },
  enteringCode: { step: 'code', busy: false, fields: ['code'] },
  resendingCode: { step: 'code', busy: true, fields: [] },
  verifyingCode: { step: 'code', busy: true, fields: [] },
  completingAccount: { step: 'account', busy: false, fields: ['username', 'password', 'confirmPassword'] },
  registering: { step: 'account', busy: true, fields: [] },
  registered: { step: 'done', busy: false, fields: [] },
};

const model = walk(signupMachine, { events });

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['requestCode', 'verifyCode', 'register']);
  const notices: Notice[] = [];
  const sessions: SessionResponse[] = [];
  const actor = createActor(
    signupMachine.provide({
      actors: fakes.actors as never,
      actions: {
        notify: (_, notice) => void notices.push(notice),
        establishSession: (_, session) => void sessions.push(session),
      },
    }),
    { inspect: coverage?.inspect },
  ).start();

  // The oracle: the address typed on the email step is the one requested, verified and registered.
  let email = '';
  let revealed = false;
  const expectedNotices: Notice[] = [];
  const expectedCalls: { id: string; input: unknown }[] = [];

  await replay(actor, path, fakes, (snapshot, step, index) => {
    const before = index > 0 ? path.steps[index - 1]!.state : undefined;
    const event = step.event;
    const context = snapshot.context;
    if (event.type === 'field.change' && event.name === 'email' && before?.value === 'enteringEmail') {
      email = String(event.value);
    }
    if (before?.value !== snapshot.value) revealed = false;
    if (event.type === 'form.submit' && before?.value === snapshot.value) revealed = true;

    if (snapshot.value !== before?.value) {
      if (snapshot.value === 'requestingCode') expectedCalls.push({ id: 'requestCode', input: { email } });
      if (snapshot.value === 'resendingCode') expectedCalls.push({ id: 'resendCode', input: { email } });
      if (snapshot.value === 'verifyingCode') expectedCalls.push({ id: 'verifyCode', input: { email, code: context.code } });
      if (snapshot.value === 'registering') {
        expectedCalls.push({
          id: 'register',
          input: { email, username: 'ada_l', password: 'secret1', confirmPassword: 'secret1' },
        });
      }
    }
    if (event.type === 'xstate.done.actor.requestCode' || event.type === 'xstate.done.actor.resendCode') {
      expectedNotices.push({ title: 'OTP Sent', description: String(event.output) });
    }
    if (event.type === 'xstate.done.actor.verifyCode') {
      expectedNotices.push({ title: 'Successful', description: 'Email has been verified successfully', type: 'success' });
    }
    if (snapshot.value === 'registered') expectedNotices.push({ title: 'Signup Successful!', type: 'success' });

    expect(context.email, 'the email is read-only after the email step').toBe(email);
    const screen = screens[snapshot.value as string]!;
    expect(selectStep(snapshot as never)).toBe(screen.step);
    expect(selectIsBusy(snapshot as never)).toBe(screen.busy);
    expect(selectIsResending(snapshot as never)).toBe(snapshot.value === 'resendingCode');
    const errors = selectErrors(snapshot as never) as Record<string, string | undefined>;
    for (const field of screen.fields) {
      const expected = !revealed
        ? undefined
        : field === 'confirmPassword'
          ? specRules.confirmPassword(context.confirmPassword, context.password)
          : specRules[field as 'email' | 'code' | 'username' | 'password'](context[field as 'email']);
      expect(errors[field], `${field} message`).toBe(expected);
    }
  });

  expect(fakes.calls).toEqual(expectedCalls);
  expect(notices).toEqual(expectedNotices);
  expect(sessions).toEqual(path.state.value === 'registered' ? [registered] : []);
  actor.stop();
}

describe('signup: every path through the chart', () => {
  it('has a graph to walk', () => {
    expect(model.states).toBeGreaterThan(20);
  });

  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(path);
  });

  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(signupMachine);
    for (const path of model.paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices a step the walk never reaches', async () => {
    const coverage = new Coverage(signupMachine);
    const neverResending = model.paths.filter((path) => !path.steps.some((s) => s.event.type === 'code.resend'));
    for (const path of neverResending) await run(path, coverage);
    expect(coverage.missingStates()).toEqual(['signup.resendingCode']);
    expect(coverage.missingTransitions()).toEqual(
      expect.arrayContaining([
        'signup.enteringCode —code.resend#0→ signup.resendingCode',
        'signup.resendingCode —xstate.done.actor.resendCode#0→ signup.enteringCode',
        'signup.resendingCode —xstate.error.actor.resendCode#0→ signup.enteringCode',
      ]),
    );
  });
});
