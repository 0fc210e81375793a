import { createActor, createMachine, type AnyActorRef, type AnyMachineSnapshot, type EventObject, type InspectionEvent } from 'xstate';
import type { SessionResponse } from '../../contracts/security.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { signupLogic } from '../../src/machines/signup/signup.actors.ts';
import {
  selectCodeEntry,
  selectErrors,
  selectIsBusy,
  selectIsResending,
  selectStep,
} from '../../src/machines/signup/signup.selectors.ts';
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

/**
 * The code entry (codeEntry.machine.ts, its own walk in codeEntry.model.test.ts) stands in as a chart that
 * does nothing: the walk sends what it would tell signup (`code.entered` with a 6-digit code, or
 * `code.incomplete`) as events of its own, beside the `form.submit` signup forwards to it. The real
 * parent and child together are tested in tests/machines/signup.test.ts.
 */
const chart = signupLogic.provide({ actors: { codeEntry: createMachine({}) as never } });
const emailedCode = '123456';

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
        { type: 'code.entered', code: emailedCode },
        { type: 'code.incomplete' },
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

/**
 * Signup's three steps (email, code, account), written out here: the step each state shows, the fields
 * whose messages signup itself can show, and whether the code is typed there (into the code entry, which
 * shows its own message).
 */
const screens: Record<string, { step: string; busy: boolean; fields: readonly string[]; typesCode: boolean }> = {
  enteringEmail: { step: 'email', busy: false, fields: ['email'], typesCode: false },
  requestingCode: { step: 'email', busy: true, fields: [], typesCode: false },
  enteringCode: { step: 'code', busy: false, fields: [], typesCode: true },
  resendingCode: { step: 'code', busy: true, fields: [], typesCode: false },
  verifyingCode: { step: 'code', busy: true, fields: [], typesCode: false },
  completingAccount: { step: 'account', busy: false, fields: ['username', 'password', 'confirmPassword'], typesCode: false },
  registering: { step: 'account', busy: true, fields: [], typesCode: false },
  registered: { step: 'done', busy: false, fields: [], typesCode: false },
};

const model = walk(chart, { events });

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['requestCode', 'verifyCode', 'register']);
  const notices: Notice[] = [];
  const sessions: SessionResponse[] = [];
  /** What signup sends its code entry (the no-op child takes it and does nothing). */
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
        establishSession: (_, session) => void sessions.push(session),
      },
    }),
    { inspect },
  ).start();

  // The oracle: the address typed on the email step is the one requested, verified and registered; the
  // code the code entry hands over is the one verified; every visit of the code step types into a new entry.
  let email = '';
  let code = '';
  let revealed = false;
  const expectedNotices: Notice[] = [];
  const expectedCalls: { id: string; input: unknown }[] = [];
  const expectedToCodeEntry: EventObject[] = [];
  const entries: AnyActorRef[] = [];

  await replay(actor, path, fakes, (snapshot, step, index) => {
    const before = index > 0 ? path.steps[index - 1]!.state : undefined;
    const event = step.event;
    const context = snapshot.context;
    if (event.type === 'field.change' && event.name === 'email' && before?.value === 'enteringEmail') {
      email = String(event.value);
    }
    if (before?.value !== snapshot.value) revealed = false;
    // A submit of the code step goes to the code entry, which shows its own message: signup reveals none.
    if (event.type === 'form.submit' && before?.value === snapshot.value && before?.value !== 'enteringCode') revealed = true;
    if (event.type === 'form.submit' && before?.value === 'enteringCode') expectedToCodeEntry.push({ type: 'code.submit' });
    if (event.type === 'code.entered') code = String(event.code);

    // Spec: the complete code from the code entry is verified at once; an incomplete one verifies nothing.
    if (before?.value === 'enteringCode' && event.type === 'code.entered') expect(snapshot.value).toBe('verifyingCode');
    if (before?.value === 'enteringCode' && (event.type === 'code.incomplete' || event.type === 'form.submit')) {
      expect(snapshot.value).toBe('enteringCode');
    }

    if (snapshot.value !== before?.value) {
      if (snapshot.value === 'requestingCode') expectedCalls.push({ id: 'requestCode', input: { email } });
      if (snapshot.value === 'resendingCode') expectedCalls.push({ id: 'resendCode', input: { email } });
      if (snapshot.value === 'verifyingCode') expectedCalls.push({ id: 'verifyCode', input: { email, code } });
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
          : specRules[field as 'email' | 'username' | 'password'](context[field as 'email']);
      expect(errors[field], `${field} message`).toBe(expected);
    }
    expect(errors, 'the code message is the code entry\'s').not.toHaveProperty('code');

    // The code field: typed into the code entry on the code step, a new one at each visit; while the code
    // is checked it shows the code handed over, and while a new one is requested it shows none.
    const entry = selectCodeEntry(snapshot as never) as AnyActorRef | undefined;
    expect(entry !== undefined, 'the code entry is there').toBe(screen.typesCode);
    if (entry && before?.value !== 'enteringCode') {
      expect(entries, 'a new code entry').not.toContain(entry);
      entries.push(entry);
    }
    if (entry && before?.value === 'enteringCode') expect(entry, 'the same code entry').toBe(entries.at(-1));
    if (snapshot.value === 'verifyingCode') expect(context.code, 'the code shown while verifying').toBe(code);
    if (snapshot.value === 'resendingCode') expect(context.code, 'no code shown while resending').toBe('');
    expect(toCodeEntry, 'what signup sent its code entry').toEqual(expectedToCodeEntry);
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
    const coverage = new Coverage(chart);
    for (const path of model.paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices a step the walk never reaches', async () => {
    const coverage = new Coverage(chart);
    const neverResending = model.paths.filter((path) => !path.steps.some((s) => s.event.type === 'code.resend'));
    for (const path of neverResending) await run(path, coverage);
    expect(coverage.missingStates()).toEqual(['signup.resendingCode']);
    expect(coverage.missingTransitions()).toEqual([
      'signup.enteringCode —code.resend#0→ signup.resendingCode',
      'signup.resendingCode —xstate.done.actor.resendCode#0→ signup.enteringCode',
      'signup.resendingCode —xstate.error.actor.resendCode#0→ signup.enteringCode',
    ]);
  });

  it('the coverage measure notices a walk that never hears a code from the code entry', async () => {
    const coverage = new Coverage(chart);
    const neverEntered = model.paths.filter((path) => !path.steps.some((s) => s.event.type === 'code.entered'));
    for (const path of neverEntered) await run(path, coverage);
    expect(coverage.missingStates()).toEqual([
      'signup.verifyingCode',
      'signup.completingAccount',
      'signup.registering',
      'signup.registered',
    ]);
    expect(coverage.missingTransitions()).toEqual([
      // fields past the email step are only typed on the account form
      'signup —field.change#0→ (stays)',
      'signup.enteringCode —code.entered#0→ signup.verifyingCode',
      'signup.verifyingCode —xstate.done.actor.verifyCode#0→ signup.completingAccount',
      'signup.verifyingCode —xstate.error.actor.verifyCode#0→ signup.enteringCode',
      'signup.completingAccount —form.submit#0→ signup.registering',
      'signup.completingAccount —form.submit#1→ (stays)',
      'signup.registering —xstate.done.actor.register#0→ signup.registered',
      'signup.registering —xstate.error.actor.register#0→ signup.completingAccount',
    ]);
  });
});
