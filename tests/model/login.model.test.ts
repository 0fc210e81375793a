import { createActor, type AnyMachineSnapshot } from 'xstate';
import { messages } from '../../contracts/messages.ts';
import type { SessionResponse } from '../../contracts/security.ts';
import { loginMachine } from '../../src/machines/login/login.machine.ts';
import { selectCanVerify, selectErrors, selectIsBusy, selectStep } from '../../src/machines/login/login.selectors.ts';
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
      return [
        { type: 'field.change', name: 'code', value: '123456' },
        { type: 'field.change', name: 'code', value: '12345' },
        { type: 'field.change', name: 'code', value: ' 654321 ' },
        { type: 'code.submit' },
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

/** The screen each state shows, written from spec section 2 "Login", not read from the chart. */
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

const model = walk(loginMachine, { events });

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['submitCredentials', 'submitCode']);
  const notices: Notice[] = [];
  const sessions: SessionResponse[] = [];
  const actor = createActor(
    loginMachine.provide({
      actors: fakes.actors as never,
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

  await replay(actor, path, fakes, (snapshot, step, index) => {
    const { username, password, code, recoveryCode } = snapshot.context;
    const event = step.event;
    const previous = index > 0 ? path.steps[index - 1]!.state : undefined;
    if (event.type === 'form.submit' && previous?.value === 'editingCredentials') {
      if (username.trim() === '' || password === '') revealed = true;
      else expectedCalls.push({ id: 'submitCredentials', input: { username: 'alice', password: 'hunter22' } });
    }
    if (event.type === 'xstate.done.actor.submitCredentials') {
      const output = event.output as typeof direct | typeof secondFactor;
      if (output.two_factor) interimToken = output.token;
      else established = { token: output.token, user: output.user };
    }
    if (event.type === 'code.submit' && snapshot.value === 'verifyingCode') {
      // The interim token of the credentials answer travels with the code: nothing else authorises it.
      expectedCalls.push({ id: 'submitCode', input: { code, token: interimToken } });
    }
    if (event.type === 'code.submit' && snapshot.value === 'verifyingRecoveryCode') {
      expectedCalls.push({ id: 'submitRecoveryCode', input: { recovery_code: ' ABCDE fghij ', token: interimToken } });
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

    const screen = screens[snapshot.value as string]!;
    if (screen.step) expect(selectStep(snapshot as never)).toBe(screen.step);
    expect(selectIsBusy(snapshot as never)).toBe(screen.busy);
    // "Verify Code" is enabled only on the code screen with exactly 6 characters, or on the recovery screen
    // with a whole recovery code (ten symbols of the alphabet, dashes and spaces aside).
    const wholeRecoveryCode = /^[a-km-np-z2-9]{10}$/.test(recoveryCode.toLowerCase().replace(/[\s-]/g, ''));
    expect(selectCanVerify(snapshot as never)).toBe(
      (snapshot.value === 'awaitingSecondFactor' && code.length === 6) || (snapshot.value === 'awaitingRecoveryCode' && wholeRecoveryCode),
    );
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

  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(path);
  });

  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(loginMachine);
    for (const path of model.paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices an outcome the walk leaves out', async () => {
    const coverage = new Coverage(loginMachine);
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
