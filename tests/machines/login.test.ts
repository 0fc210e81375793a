import { createActor } from 'xstate';
import type { SessionResponse } from '../../contracts/index.ts';
import { selectCode, selectError, selectIsComplete } from '../../src/machines/codeEntry/codeEntry.selectors.ts';
import { bindLogin, loginLogic } from '../../src/machines/login/login.actors.ts';
import {
  selectCanVerifyRecoveryCode,
  selectCodeEntry,
  selectErrors,
  selectIsBusy,
  selectStep,
} from '../../src/machines/login/login.selectors.ts';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { SignInExpired } from '../../src/services/accounts.ts';
import { flush, scriptedActors, specMessages } from '../support/machines.ts';

const alice = { username: 'alice', email: 'alice@example.com', websocket_token: 'ws-alice' };

function startLogin() {
  const fakes = scriptedActors(['submitCredentials', 'submitCode']);
  const notices: Notice[] = [];
  const sessions: SessionResponse[] = [];
  const actor = createActor(
    loginLogic.provide({
      actors: fakes.actors as never,
      actions: {
        notify: (_, notice) => void notices.push(notice),
        establishSession: (_, session) => void sessions.push(session),
      },
    }),
  ).start();
  const type = (name: 'username' | 'password' | 'recoveryCode', value: string) =>
    actor.send({ type: 'field.change', name, value });
  /** The code screen's code entry (the real child chart), as the screen's field reaches it. */
  const entry = () => {
    const ref = selectCodeEntry(actor.getSnapshot());
    if (!ref) throw new Error(`no code entry in ${JSON.stringify(actor.getSnapshot().value)}`);
    return ref;
  };
  /** Types into the code entry, as the field does with each keystroke's whole value. */
  const typeCode = (value: string) => entry().send({ type: 'code.change', value });
  /** The code screen's "Verify Code": enabled while the code entry holds all six digits. */
  const canVerify = () => selectIsComplete(entry().getSnapshot());
  /** Username and password accepted; the server asks for a second factor with this interim token. */
  const toCodeScreen = async (token: string) => {
    type('username', 'alice');
    type('password', 'hunter22');
    actor.send({ type: 'form.submit' });
    await fakes.resolve('submitCredentials', { two_factor: true, token, user: { username: 'alice' } });
    expect(actor.getSnapshot().value).toBe('awaitingSecondFactor');
  };
  return { actor, fakes, notices, sessions, type, entry, typeCode, canVerify, toCodeScreen };
}

describe('login', () => {
  it('signs in directly when the server does not ask for a second factor', async () => {
    const { actor, fakes, notices, sessions, type } = startLogin();
    type('username', '  alice ');
    type('password', 'hunter22');
    actor.send({ type: 'form.submit' });

    expect(selectIsBusy(actor.getSnapshot())).toBe(true);
    expect(fakes.calls).toEqual([{ id: 'submitCredentials', input: { username: 'alice', password: 'hunter22' } }]);

    await fakes.resolve('submitCredentials', { two_factor: false, token: 'session-1', user: alice });
    expect(actor.getSnapshot().status).toBe('done');
    expect(sessions).toEqual([{ token: 'session-1', user: alice }]);
    expect(notices).toEqual([{ title: 'Welcome back!', description: 'Successfully logged in.', type: 'success' }]);
  });

  it('with two_factor set keeps the interim token, shows the code screen and sends the token with the code', async () => {
    const { actor, fakes, sessions, notices, type, typeCode, entry } = startLogin();
    type('username', 'alice');
    type('password', 'hunter22');
    actor.send({ type: 'form.submit' });
    await fakes.resolve('submitCredentials', { two_factor: true, token: 'interim-42', user: { username: 'alice' } });

    expect(actor.getSnapshot().value).toBe('awaitingSecondFactor');
    expect(selectStep(actor.getSnapshot())).toBe('code');
    expect(actor.getSnapshot().context.interimToken).toBe('interim-42');
    // The interim token is not a session.
    expect(sessions).toEqual([]);
    expect(notices).toEqual([]);
    // The code screen starts with an empty code entry.
    expect(selectCode(entry().getSnapshot())).toBe('');

    typeCode('424242');
    actor.send({ type: 'code.submit' });
    expect(fakes.calls.at(-1)).toEqual({ id: 'submitCode', input: { code: '424242', token: 'interim-42' } });
    expect(selectIsBusy(actor.getSnapshot())).toBe(true);
    expect(selectStep(actor.getSnapshot())).toBe('code');
    // While the code is checked, the parent keeps it (the field shows it) and the code entry is gone.
    expect(actor.getSnapshot().context.code).toBe('424242');
    expect(selectCodeEntry(actor.getSnapshot())).toBeUndefined();

    await fakes.resolve('submitCode', { token: 'session-2fa', user: alice });
    expect(sessions).toEqual([{ token: 'session-2fa', user: alice }]);
    expect(notices).toEqual([{ title: 'Welcome back!', description: 'Successfully logged in.', type: 'success' }]);
  });

  it('a refused credential call returns to editing with busy cleared and the username kept', async () => {
    const { actor, fakes, sessions, notices, type } = startLogin();
    type('username', 'alice');
    type('password', 'wrong-password');
    actor.send({ type: 'form.submit' });
    await fakes.reject('submitCredentials', new Error('Invalid username or password'));

    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('editingCredentials');
    expect(selectIsBusy(snapshot)).toBe(false);
    expect(snapshot.hasTag('form')).toBe(true);
    expect(snapshot.context.username).toBe('alice');
    // The shared error handling shows the toast; the machine adds no message of its own.
    expect(selectErrors(snapshot)).toEqual({});
    expect(notices).toEqual([]);
    expect(sessions).toEqual([]);
    // And the trader can try again.
    actor.send({ type: 'form.submit' });
    expect(fakes.isRunning('submitCredentials')).toBe(true);
  });

  it('"Verify Code" is enabled only with all 6 digits; the code entry keeps digits only, at most 6', async () => {
    const { actor, fakes, typeCode, canVerify, entry, toCodeScreen } = startLogin();
    expect(selectCodeEntry(actor.getSnapshot())).toBeUndefined();
    await toCodeScreen('interim');

    const typed = (value: string) => {
      typeCode(value);
      return { code: selectCode(entry().getSnapshot()), canVerify: canVerify() };
    };
    expect(typed('')).toEqual({ code: '', canVerify: false });
    expect(typed('12345')).toEqual({ code: '12345', canVerify: false });
    expect(typed('123456')).toEqual({ code: '123456', canVerify: true });
    expect(typed(' 12345 ')).toEqual({ code: '12345', canVerify: false });
    expect(typed(' 654321 ')).toEqual({ code: '654321', canVerify: true });
    // Digits only, up to 6 — letters and other signs are dropped, a seventh digit too.
    expect(typed('12a3b4')).toEqual({ code: '1234', canVerify: false });
    expect(typed('abcdef')).toEqual({ code: '', canVerify: false });
    expect(typed('12-34-56')).toEqual({ code: '123456', canVerify: true });
    expect(typed('1234567')).toEqual({ code: '123456', canVerify: true });
    expect(typed('a1b2c3d4e5f6')).toEqual({ code: '123456', canVerify: true });
    // No message while typing.
    expect(selectError(entry().getSnapshot())).toBeUndefined();

    // A submit with fewer than six digits calls nothing and shows the spec's message in the field.
    typeCode('12345');
    actor.send({ type: 'code.submit' });
    expect(actor.getSnapshot().value).toBe('awaitingSecondFactor');
    expect(fakes.isRunning('submitCode')).toBe(false);
    expect(fakes.calls.map((call) => call.id)).toEqual(['submitCredentials']);
    expect(selectError(entry().getSnapshot())).toBe(specMessages.code);
    expect(selectCode(entry().getSnapshot())).toBe('12345');
    // Letters never make a code: a code entry holding none is no code either.
    typeCode('abcdef');
    actor.send({ type: 'code.submit' });
    expect(fakes.isRunning('submitCode')).toBe(false);
    expect(selectError(entry().getSnapshot())).toBe(specMessages.code);
    // The sixth digit clears the message, and the code goes.
    typeCode('123456');
    expect(selectError(entry().getSnapshot())).toBeUndefined();
    actor.send({ type: 'code.submit' });
    expect(fakes.calls.at(-1)).toEqual({ id: 'submitCode', input: { code: '123456', token: 'interim' } });
  });

  it('a refused code clears it and keeps the interim token for the next try', async () => {
    const { actor, fakes, typeCode, canVerify, entry, toCodeScreen } = startLogin();
    await toCodeScreen('interim-7');
    const first = entry();
    typeCode('111111');
    actor.send({ type: 'code.submit' });
    await fakes.reject('submitCode', new Error('Invalid code'));

    expect(actor.getSnapshot().value).toBe('awaitingSecondFactor');
    expect(actor.getSnapshot().context).toMatchObject({ code: '', interimToken: 'interim-7' });
    // A fresh, empty code entry: the refused code is not there to be resent, and no message shows yet.
    expect(entry()).not.toBe(first);
    expect(selectCode(entry().getSnapshot())).toBe('');
    expect(selectError(entry().getSnapshot())).toBeUndefined();
    expect(canVerify()).toBe(false);
    actor.send({ type: 'code.submit' });
    expect(fakes.isRunning('submitCode')).toBe(false);
    expect(selectError(entry().getSnapshot())).toBe(specMessages.code);

    typeCode('222222');
    expect(canVerify()).toBe(true);
    actor.send({ type: 'code.submit' });
    expect(fakes.calls.at(-1)).toEqual({ id: 'submitCode', input: { code: '222222', token: 'interim-7' } });
    expect(fakes.calls.filter((call) => call.id === 'submitCode')).toHaveLength(2);
  });

  it('a sign-in attempt that is over (expired, used or out of tries) returns to the credentials', async () => {
    const { actor, fakes, sessions, type, typeCode, entry, toCodeScreen } = startLogin();
    await toCodeScreen('interim-old');
    const old = entry();
    typeCode('123456');
    actor.send({ type: 'code.submit' });
    await fakes.reject('submitCode', new SignInExpired('This sign-in has expired. Please enter your username and password again.'));

    expect(selectStep(actor.getSnapshot())).toBe('credentials');
    expect(selectIsBusy(actor.getSnapshot())).toBe(false);
    expect(actor.getSnapshot().context).toMatchObject({ username: 'alice', password: '', code: '', interimToken: null });
    expect(selectCodeEntry(actor.getSnapshot())).toBeUndefined();
    expect(sessions).toEqual([]);

    // Only a new password login hands out a new interim token, and a new, empty code entry.
    type('password', 'hunter22');
    actor.send({ type: 'form.submit' });
    await fakes.resolve('submitCredentials', { two_factor: true, token: 'interim-new', user: { username: 'alice' } });
    expect(entry()).not.toBe(old);
    expect(selectCode(entry().getSnapshot())).toBe('');
    typeCode('654321');
    actor.send({ type: 'code.submit' });
    expect(fakes.calls.at(-1)).toEqual({ id: 'submitCode', input: { code: '654321', token: 'interim-new' } });
  });

  it('leaving the code screen forgets the interim token and the password', async () => {
    const { actor, typeCode, toCodeScreen } = startLogin();
    await toCodeScreen('interim');
    typeCode('123');
    actor.send({ type: 'secondFactor.cancel' });

    expect(actor.getSnapshot().value).toBe('editingCredentials');
    expect(actor.getSnapshot().context).toMatchObject({ username: 'alice', password: '', code: '', interimToken: null });
    expect(selectStep(actor.getSnapshot())).toBe('credentials');
    expect(selectCodeEntry(actor.getSnapshot())).toBeUndefined();
  });

  it('a recovery code instead: the authenticator code entry goes, and coming back gives an empty one', async () => {
    const { actor, fakes, type, typeCode, entry, canVerify, toCodeScreen } = startLogin();
    await toCodeScreen('interim-r');
    const first = entry();
    typeCode('123456');
    actor.send({ type: 'recovery.start' });
    expect(selectStep(actor.getSnapshot())).toBe('recoveryCode');
    expect(selectCodeEntry(actor.getSnapshot())).toBeUndefined();
    expect(selectCanVerifyRecoveryCode(actor.getSnapshot())).toBe(false);
    type('recoveryCode', 'abcde-fghi');
    expect(selectCanVerifyRecoveryCode(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'code.submit' });
    expect(actor.getSnapshot().value).toBe('awaitingRecoveryCode');
    type('recoveryCode', 'abcde-fghij');
    expect(selectCanVerifyRecoveryCode(actor.getSnapshot())).toBe(true);

    // Back to the authenticator: the six digits typed before are gone.
    actor.send({ type: 'recovery.cancel' });
    expect(selectStep(actor.getSnapshot())).toBe('code');
    expect(entry()).not.toBe(first);
    expect(selectCode(entry().getSnapshot())).toBe('');
    expect(canVerify()).toBe(false);
    expect(selectCanVerifyRecoveryCode(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'code.submit' });
    expect(fakes.isRunning('submitCode')).toBe(false);

    // And the recovery code screen starts empty again; a whole recovery code goes with the interim token.
    actor.send({ type: 'recovery.start' });
    expect(actor.getSnapshot().context.recoveryCode).toBe('');
    type('recoveryCode', ' ABCDE fghij ');
    actor.send({ type: 'code.submit' });
    expect(fakes.calls.at(-1)).toEqual({ id: 'submitRecoveryCode', input: { recovery_code: ' ABCDE fghij ', token: 'interim-r' } });
  });

  it('a submit with missing fields calls nothing and shows which are required', () => {
    const { actor, fakes, type } = startLogin();
    expect(selectErrors(actor.getSnapshot())).toEqual({});
    actor.send({ type: 'form.submit' });
    expect(selectErrors(actor.getSnapshot())).toEqual({ username: 'Username is required', password: 'Password is required' });

    type('username', '   ');
    type('password', 'hunter22');
    actor.send({ type: 'form.submit' });
    expect(selectErrors(actor.getSnapshot())).toEqual({ username: 'Username is required', password: undefined });
    expect(actor.getSnapshot().can({ type: 'form.submit' })).toBe(true);
    expect(fakes.calls).toEqual([]);

    type('username', 'alice');
    expect(selectErrors(actor.getSnapshot())).toEqual({ username: undefined, password: undefined });
  });
});

describe('bindLogin (the composition root wiring)', () => {
  it('calls the account service and hands the session and the toast to the app', async () => {
    const login = vi.fn().mockResolvedValue({ two_factor: true, token: 'interim', user: { username: 'alice' } });
    const twoFactorLogin = vi.fn().mockResolvedValue({ token: 'session-9', user: alice });
    const signIn = vi.fn();
    const notify = vi.fn();
    const deps = { accounts: { login, twoFactorLogin }, signIn, notify, navigate: vi.fn() } as unknown as FlowDeps;
    const actor = createActor(bindLogin(deps)).start();

    actor.send({ type: 'field.change', name: 'username', value: 'alice' });
    actor.send({ type: 'field.change', name: 'password', value: 'hunter22' });
    actor.send({ type: 'form.submit' });
    await flush();
    // The screen's field types into the code entry the bound chart invoked: the real one.
    selectCodeEntry(actor.getSnapshot())!.send({ type: 'code.change', value: '987654' });
    actor.send({ type: 'code.submit' });
    await flush();

    expect(login).toHaveBeenCalledWith({ username: 'alice', password: 'hunter22' });
    expect(twoFactorLogin).toHaveBeenCalledWith({ code: '987654', token: 'interim' });
    expect(signIn).toHaveBeenCalledExactlyOnceWith({ token: 'session-9', user: alice });
    expect(notify).toHaveBeenCalledExactlyOnceWith({
      title: 'Welcome back!',
      description: 'Successfully logged in.',
      type: 'success',
    });
  });
});
