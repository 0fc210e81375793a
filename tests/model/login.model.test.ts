import { createActor, createMachine, type AnyActorRef, type AnyMachineSnapshot } from 'xstate';
import { messages } from '../../contracts/messages.ts';
import type { SessionResponse } from '../../contracts/security.ts';
import { loginLogic } from '../../src/machines/login/login.actors.ts';
import {
  selectCanVerifyRecoveryCode,
  selectCodeEntry,
  selectErrors,
  selectIsBusy,
  selectStep,
} from '../../src/machines/login/login.selectors.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { SignInExpired } from '../../src/services/accounts.ts';
import { ApiError } from '../../src/services/api.ts';
import {
  Coverage,
  describePath,
  replay,
  scriptedActors,
  walk,
  type ModelEvent,
  type ModelPath,
} from '../support/machines.ts';

const alice = { username: 'alice', email: 'alice@example.com', websocket_token: 'ws-alice' };
const direct = { two_factor: false, token: 'session-direct', user: alice } as const;
const secondFactor = { two_factor: true, token: 'interim-token', user: { username: 'alice' } } as const;
const afterCode: SessionResponse = { token: 'session-after-code', user: alice };

/** Two whole authenticator codes the code entry may hand over: the parent must submit the one it was told. */
const enteredCodes = ['123456', '090807'];

/** What a trader can do on each screen, and how each call can end. */
function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  switch (snapshot.value) {
    case 'editingCredentials':
      return [
        { type: 'field.change', name: 'username', value: ' alice ' },
        { type: 'field.change', name: 'username', value: '   ' },
        { type: 'field.change', name: 'password', value: 'hunter22' },
        { type: 'field.change', name: 'password', value: '' },
        { type: 'form.submit' },
      ];
    case 'submittingCredentials':
      return [
        { type: 'xstate.done.actor.submitCredentials', output: direct },
        { type: 'xstate.done.actor.submitCredentials', output: secondFactor },
        { type: 'xstate.error.actor.submitCredentials', error: new Error('Invalid username or password') },
      ];
    case 'awaitingSecondFactor':
      // The code is typed into the code entry child; the walk's child is a no-op, so what the real one
      // answers to the forwarded "Verify Code" (`code.entered` once all six digits are there) is an event of
      // the walk. Login does not handle `code.incomplete` (the child shows its own message), so it is left out.
      return [
        { type: 'code.submit' },
        ...enteredCodes.map((code) => ({ type: 'code.entered', code })),
        { type: 'recovery.start' },
        { type: 'secondFactor.cancel' },
      ];
    case 'awaitingRecoveryCode':
      return [
        { type: 'field.change', name: 'recoveryCode', value: ' ABCDE fghij ' },
        { type: 'field.change', name: 'recoveryCode', value: 'abcde-fghi' },
        { type: 'code.submit' },
        { type: 'recovery.cancel' },
        { type: 'secondFactor.cancel' },
      ];
    case 'verifyingRecoveryCode':
      return [
        { type: 'xstate.done.actor.submitRecoveryCode', output: afterCode },
        { type: 'xstate.error.actor.submitRecoveryCode', error: new ApiError('Invalid recovery code.', 400) },
        { type: 'xstate.error.actor.submitRecoveryCode', error: new SignInExpired('This sign-in has expired. Please enter your username and password again.') },
      ];
    case 'verifyingCode':
      return [
        { type: 'xstate.done.actor.submitCode', output: afterCode },
        { type: 'xstate.error.actor.submitCode', error: new ApiError('Invalid code', 400) },
        // The server's answer to a sign-in attempt that expired, was used or ran out of tries.
        { type: 'xstate.error.actor.submitCode', error: new SignInExpired('This sign-in has expired. Please enter your username and password again.') },
      ];
    default:
      return [];
  }
}

/** The screen each state shows, written from docs/api.md "Login", not read from the chart. */
const screens: Record<string, { step?: 'credentials' | 'code' | 'recoveryCode'; busy: boolean }> = {
  editingCredentials: { step: 'credentials', busy: false },
  submittingCredentials: { step: 'credentials', busy: true },
  awaitingSecondFactor: { step: 'code', busy: false },
  verifyingCode: { step: 'code', busy: true },
  // The recovery codes: "abcde-fghij", ten symbols, dashes, spaces and case ignored.
  awaitingRecoveryCode: { step: 'recoveryCode', busy: false },
  verifyingRecoveryCode: { step: 'recoveryCode', busy: true },
  signedIn: { busy: false },
};

/** The chart with its rules and a code entry that does nothing: its reports are events of the walk. */
const noCodeEntry = { codeEntry: createMachine({}) };
const walked = loginLogic.provide({ actors: noCodeEntry as never });
const model = walk(walked, { events });

/** describePath, with the code a `code.entered` hands over shown in the title. */
const title = (path: ModelPath) =>
  describePath({
    ...path,
    steps: path.steps.map((step) => (step.event.type === 'code.entered' ? { ...step, event: { ...step.event, value: step.event.code } } : step)),
  });

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['submitCredentials', 'submitCode']);
  const notices: Notice[] = [];
  const sessions: SessionResponse[] = [];
  const actor = createActor(
    loginLogic.provide({
      actors: { ...fakes.actors, ...noCodeEntry } as never,
      actions: {
        notify: (_, notice) => void notices.push(notice),
        establishSession: (_, session) => void sessions.push(session),
      },
    }),
    { inspect: coverage?.inspect },
  ).start();

  // The oracle: what the trader typed and what the server answered, followed along the path.
  let revealed = false;
  let interimToken: string | null = null;
  let established: SessionResponse | undefined;
  const expectedCalls: { id: string; input: unknown }[] = [];
  // The code entries the code screen had, in order: each visit to the screen gets a new, empty one.
  const entries: AnyActorRef[] = [];
  // The recovery code screen takes a whole recovery code: ten symbols of the alphabet, dashes and spaces aside.
  const isWholeRecoveryCode = (typed: string) => /^[a-km-np-z2-9]{10}$/.test(typed.toLowerCase().replace(/[\s-]/g, ''));

  await replay(actor, path, fakes, (snapshot, step, index) => {
    const { username, password, code, recoveryCode } = snapshot.context;
    const event = step.event;
    const previous = index > 0 ? path.steps[index - 1]!.state : undefined;
    if (event.type === 'form.submit' && previous?.value === 'editingCredentials') {
      if (username.trim() === '' || password === '') revealed = true;
      else expectedCalls.push({ id: 'submitCredentials', input: { username: 'alice', password: 'hunter22' } });
    }
    if (event.type === 'code.submit' && previous?.value === 'awaitingSecondFactor') {
      // "Verify Code" only asks the code entry; the code screen moves on only when the entry hands a code over.
      expect(snapshot.value).toBe('awaitingSecondFactor');
    }
    if (event.type === 'code.entered' && previous?.value === 'awaitingSecondFactor') {
      // The handed-over code goes to the server with the interim token of the credentials answer: nothing else authorises it.
      expect(snapshot.value).toBe('verifyingCode');
      expect(code).toBe(event.code);
      expectedCalls.push({ id: 'submitCode', input: { code: event.code, token: interimToken } });
    }
    if (event.type === 'code.submit' && previous?.value === 'awaitingRecoveryCode') {
      const whole = isWholeRecoveryCode(previous.context.recoveryCode as string);
      expect(snapshot.value).toBe(whole ? 'verifyingRecoveryCode' : 'awaitingRecoveryCode');
      if (whole) expectedCalls.push({ id: 'submitRecoveryCode', input: { recovery_code: ' ABCDE fghij ', token: interimToken } });
    }
    if (event.type === 'xstate.done.actor.submitCredentials') {
      const output = event.output as typeof direct | typeof secondFactor;
      if (output.two_factor) interimToken = output.token;
      else established = { token: output.token, user: output.user };
    }
    if (event.type === 'xstate.done.actor.submitCode' || event.type === 'xstate.done.actor.submitRecoveryCode') {
      established = event.output as SessionResponse;
    }
    if (event.type === 'xstate.error.actor.submitCode' || event.type === 'xstate.error.actor.submitRecoveryCode') {
      // A wrong code may be retyped; a dead interim token sends the trader back to the password.
      const dead = event.error instanceof SignInExpired;
      const recovery = event.type === 'xstate.error.actor.submitRecoveryCode';
      if (dead) interimToken = null;
      expect(snapshot.value).toBe(dead ? 'editingCredentials' : recovery ? 'awaitingRecoveryCode' : 'awaitingSecondFactor');
      expect(snapshot.context).toMatchObject({ ...(recovery ? { recoveryCode: '' } : { code: '' }), interimToken, ...(dead ? { password: '' } : {}) });
    }
    // Switching between the authenticator and a recovery code starts that entry empty.
    if (event.type === 'recovery.start') expect(recoveryCode).toBe('');
    if (event.type === 'recovery.cancel') expect(code).toBe('');

    // The code screen has its code entry, and only it; a new visit (first, after a refused code, back from
    // the recovery code) gets a new one, so a refused or abandoned code is never there again. The chart
    // itself keeps no typed code on that screen.
    const entry = selectCodeEntry(snapshot as never);
    if (snapshot.value === 'awaitingSecondFactor') {
      expect(entry).toBeDefined();
      expect(code).toBe('');
      if (previous?.value === 'awaitingSecondFactor') expect(entry).toBe(entries.at(-1));
      else {
        expect(entries).not.toContain(entry);
        entries.push(entry!);
      }
    } else {
      expect(entry).toBeUndefined();
    }

    const screen = screens[snapshot.value as string]!;
    if (screen.step) expect(selectStep(snapshot as never)).toBe(screen.step);
    expect(selectIsBusy(snapshot as never)).toBe(screen.busy);
    // The recovery screen's "Verify Code" is enabled only with a whole recovery code. (The code screen's
    // follows its code entry: tests/machines/login.test.ts drives the real one.)
    expect(selectCanVerifyRecoveryCode(snapshot as never)).toBe(snapshot.value === 'awaitingRecoveryCode' && isWholeRecoveryCode(recoveryCode));
    expect(selectErrors(snapshot as never)).toEqual(
      revealed
        ? {
            username: username.trim() === '' ? messages.usernameRequired : undefined,
            password: password === '' ? messages.passwordRequired : undefined,
          }
        : {},
    );
  });

  expect(fakes.calls).toEqual(expectedCalls);
  if (path.state.value === 'signedIn') {
    expect(sessions).toEqual([established]);
    expect(notices).toEqual([{ title: 'Welcome back!', description: 'Successfully logged in.', type: 'success' }]);
    expect(actor.getSnapshot().status).toBe('done');
  } else {
    expect(sessions).toEqual([]);
    expect(notices).toEqual([]);
  }
  actor.stop();
}

describe('login: every path through the chart', () => {
  it('has a graph to walk', () => {
    expect(model.states).toBeGreaterThan(10);
    expect(model.paths.length).toBeGreaterThan(model.states);
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

  it('the coverage measure notices an outcome the walk leaves out', async () => {
    const coverage = new Coverage(walked);
    const withoutRefusals = model.paths.filter((path) => !path.steps.some((s) => s.event.type.startsWith('xstate.error.')));
    for (const path of withoutRefusals) await run(path, coverage);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([
      'login.submittingCredentials —xstate.error.actor.submitCredentials#0→ login.editingCredentials',
      'login.verifyingCode —xstate.error.actor.submitCode#0→ login.editingCredentials',
      'login.verifyingCode —xstate.error.actor.submitCode#1→ login.awaitingSecondFactor',
      'login.verifyingRecoveryCode —xstate.error.actor.submitRecoveryCode#0→ login.editingCredentials',
      'login.verifyingRecoveryCode —xstate.error.actor.submitRecoveryCode#1→ login.awaitingRecoveryCode',
    ]);
  });
});
