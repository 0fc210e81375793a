import { createActor } from 'xstate';
import type { SessionResponse } from '../../contracts/index.ts';
import { bindLogin } from '../../src/machines/login/login.actors.ts';
import { loginMachine } from '../../src/machines/login/login.machine.ts';
import { selectCanVerify, selectErrors, selectIsBusy, selectStep } from '../../src/machines/login/login.selectors.ts';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { SignInExpired } from '../../src/services/accounts.ts';
import { flush, scriptedActors } from '../support/machines.ts';

const alice = { username: 'alice', email: 'alice@example.com', websocket_token: 'ws-alice' };

function startLogin() {
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
  ).start();
  const type = (name: 'username' | 'password' | 'code', value: string) =>
    actor.send({ type: 'field.change', name, value });
  return { actor, fakes, notices, sessions, type };
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
    const { actor, fakes, sessions, notices, type } = startLogin();
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

    type('code', '424242');
    actor.send({ type: 'code.submit' });
    expect(fakes.calls.at(-1)).toEqual({ id: 'submitCode', input: { code: '424242', token: 'interim-42' } });
    expect(selectIsBusy(actor.getSnapshot())).toBe(true);

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

  it('"Verify Code" can() only with exactly 6 characters', async () => {
    const { actor, fakes, type } = startLogin();
    expect(selectCanVerify(actor.getSnapshot())).toBe(false);
    type('username', 'alice');
    type('password', 'hunter22');
    actor.send({ type: 'form.submit' });
    await fakes.resolve('submitCredentials', { two_factor: true, token: 'interim', user: { username: 'alice' } });

    const canVerify = (value: string) => {
      type('code', value);
      return selectCanVerify(actor.getSnapshot());
    };
    expect(canVerify('')).toBe(false);
    expect(canVerify('12345')).toBe(false);
    expect(canVerify('123456')).toBe(true);
    expect(canVerify(' 12345 ')).toBe(false);
    expect(canVerify(' 654321 ')).toBe(true);
    expect(actor.getSnapshot().context.code).toBe('654321');

    type('code', '12345');
    actor.send({ type: 'code.submit' });
    expect(actor.getSnapshot().value).toBe('awaitingSecondFactor');
    expect(fakes.isRunning('submitCode')).toBe(false);
  });

  it('a refused code clears it and keeps the interim token for the next try', async () => {
    const { actor, fakes, type } = startLogin();
    type('username', 'alice');
    type('password', 'hunter22');
    actor.send({ type: 'form.submit' });
    await fakes.resolve('submitCredentials', { two_factor: true, token: 'interim-7', user: { username: 'alice' } });
    type('code', '111111');
    actor.send({ type: 'code.submit' });
    await fakes.reject('submitCode', new Error('Invalid code'));

    expect(actor.getSnapshot().value).toBe('awaitingSecondFactor');
    expect(actor.getSnapshot().context).toMatchObject({ code: '', interimToken: 'interim-7' });
    expect(selectCanVerify(actor.getSnapshot())).toBe(false);

    type('code', '222222');
    actor.send({ type: 'code.submit' });
    expect(fakes.calls.at(-1)).toEqual({ id: 'submitCode', input: { code: '222222', token: 'interim-7' } });
  });

  it('a sign-in attempt that is over (expired, used or out of tries) returns to the credentials', async () => {
    const { actor, fakes, sessions, type } = startLogin();
    type('username', 'alice');
    type('password', 'hunter22');
    actor.send({ type: 'form.submit' });
    await fakes.resolve('submitCredentials', { two_factor: true, token: 'interim-old', user: { username: 'alice' } });
    type('code', '123456');
    actor.send({ type: 'code.submit' });
    await fakes.reject('submitCode', new SignInExpired('This sign-in has expired. Please enter your username and password again.'));

    expect(selectStep(actor.getSnapshot())).toBe('credentials');
    expect(selectIsBusy(actor.getSnapshot())).toBe(false);
    expect(actor.getSnapshot().context).toMatchObject({ username: 'alice', password: '', code: '', interimToken: null });
    expect(sessions).toEqual([]);

    // Only a new password login hands out a new interim token.
    type('password', 'hunter22');
    actor.send({ type: 'form.submit' });
    await fakes.resolve('submitCredentials', { two_factor: true, token: 'interim-new', user: { username: 'alice' } });
    type('code', '654321');
    actor.send({ type: 'code.submit' });
    expect(fakes.calls.at(-1)).toEqual({ id: 'submitCode', input: { code: '654321', token: 'interim-new' } });
  });

  it('leaving the code screen forgets the interim token and the password', async () => {
    const { actor, fakes, type } = startLogin();
    type('username', 'alice');
    type('password', 'hunter22');
    actor.send({ type: 'form.submit' });
    await fakes.resolve('submitCredentials', { two_factor: true, token: 'interim', user: { username: 'alice' } });
    type('code', '123');
    actor.send({ type: 'secondFactor.cancel' });

    expect(actor.getSnapshot().value).toBe('editingCredentials');
    expect(actor.getSnapshot().context).toMatchObject({ username: 'alice', password: '', code: '', interimToken: null });
    expect(selectStep(actor.getSnapshot())).toBe('credentials');
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
    actor.send({ type: 'field.change', name: 'code', value: '987654' });
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
