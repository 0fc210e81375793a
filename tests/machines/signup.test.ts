import { createActor } from 'xstate';
import type { SessionResponse } from '../../contracts/index.ts';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import { selectCode, selectError } from '../../src/machines/codeEntry/codeEntry.selectors.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { bindSignup, signupLogic } from '../../src/machines/signup/signup.actors.ts';
import type { SignupField } from '../../src/machines/signup/signup.machine.ts';
import {
  selectCodeEntry,
  selectErrors,
  selectIsBusy,
  selectIsResending,
  selectStep,
} from '../../src/machines/signup/signup.selectors.ts';
import { flush, scriptedActors } from '../support/machines.ts';

/** The code's validation message, written out here rather than read from the contracts. */
const CODE_MESSAGE = 'Please enter a valid 6-digit verification code';

const ada = { username: 'ada_l', email: 'ada@example.com', websocket_token: 'ws-ada' };

function startSignup() {
  const fakes = scriptedActors(['requestCode', 'verifyCode', 'register']);
  const notices: Notice[] = [];
  const sessions: SessionResponse[] = [];
  // The real code entry (signupLogic binds it): the code is typed into it, as the screen does.
  const actor = createActor(
    signupLogic.provide({
      actors: fakes.actors as never,
      actions: {
        notify: (_, notice) => void notices.push(notice),
        establishSession: (_, session) => void sessions.push(session),
      },
    }),
  ).start();
  const type = (name: SignupField, value: string) => actor.send({ type: 'field.change', name, value });
  const submit = () => actor.send({ type: 'form.submit' });
  const errors = () => selectErrors(actor.getSnapshot());
  /** The code entry of the code step, as the screen reaches it. */
  const entry = () => {
    const ref = selectCodeEntry(actor.getSnapshot());
    if (!ref) throw new Error('signup is not asking for a code');
    return ref;
  };
  /** Typing into the code field: the screen sends the change to the code entry itself. */
  const typeCode = (value: string) => entry().send({ type: 'code.change', value });
  /** The code field as it shows: its digits and its message. */
  const codeField = () => ({ code: selectCode(entry().getSnapshot()), error: selectError(entry().getSnapshot()) });
  return { actor, fakes, notices, sessions, type, submit, errors, entry, typeCode, codeField };
}

/** Up to the code step with a code requested for ada@example.com. */
async function atCodeStep() {
  const signup = startSignup();
  signup.type('email', 'ada@example.com');
  signup.submit();
  await signup.fakes.resolve('requestCode', 'A code was sent to ada@example.com');
  return signup;
}

async function atAccountStep() {
  const signup = await atCodeStep();
  signup.typeCode('123456');
  signup.submit();
  await signup.fakes.resolve('verifyCode', 'Email verified');
  return signup;
}

describe('signup', () => {
  it('requesting a code shows the server info as "OTP Sent" and moves to the code step', async () => {
    const { actor, fakes, notices, type, submit } = startSignup();
    type('email', 'ada@example.com');
    submit();
    expect(selectStep(actor.getSnapshot())).toBe('email');
    expect(selectIsBusy(actor.getSnapshot())).toBe(true);
    expect(fakes.calls).toEqual([{ id: 'requestCode', input: { email: 'ada@example.com' } }]);

    await fakes.resolve('requestCode', 'We sent a 6-digit code to ada@example.com');
    expect(selectStep(actor.getSnapshot())).toBe('code');
    expect(selectIsBusy(actor.getSnapshot())).toBe(false);
    expect(notices).toEqual([{ title: 'OTP Sent', description: 'We sent a 6-digit code to ada@example.com' }]);
    const entry = selectCodeEntry(actor.getSnapshot());
    expect(entry, 'the code step has its code entry').toBeDefined();
    expect(entry).toBe(actor.getSnapshot().children.codeEntry);
    expect({ code: selectCode(entry!.getSnapshot()), error: selectError(entry!.getSnapshot()) }).toEqual({ code: '', error: undefined });
  });

  it('there is no code entry before the code step', () => {
    const { actor, type, submit } = startSignup();
    expect(selectCodeEntry(actor.getSnapshot())).toBeUndefined();
    type('email', 'ada@example.com');
    submit();
    expect(selectCodeEntry(actor.getSnapshot())).toBeUndefined();
  });

  it('a refused code request only stops the loading state', async () => {
    const { actor, fakes, notices, type, submit, errors } = startSignup();
    type('email', 'ada@example.com');
    submit();
    await fakes.reject('requestCode', new Error('Email already registered'));
    expect(selectStep(actor.getSnapshot())).toBe('email');
    expect(selectIsBusy(actor.getSnapshot())).toBe(false);
    expect(errors()).toEqual({});
    expect(notices).toEqual([]);
  });

  it('a verified code shows "Successful" / "Email has been verified successfully" and the account form', async () => {
    const { actor, fakes, notices, typeCode, submit } = await atCodeStep();
    typeCode('123456');
    submit();
    expect(fakes.calls.at(-1)).toEqual({ id: 'verifyCode', input: { email: 'ada@example.com', code: '123456' } });
    expect(selectIsBusy(actor.getSnapshot())).toBe(true);
    expect(selectStep(actor.getSnapshot())).toBe('code');
    // While it is checked the code entry is gone; the field shows the code handed over.
    expect(selectCodeEntry(actor.getSnapshot())).toBeUndefined();
    expect(actor.getSnapshot().context.code).toBe('123456');
    await fakes.resolve('verifyCode', 'ok');
    expect(selectStep(actor.getSnapshot())).toBe('account');
    expect(notices.at(-1)).toEqual({
      title: 'Successful',
      description: 'Email has been verified successfully',
      type: 'success',
    });
  });

  it('a refused code clears it and stays on the code step', async () => {
    const { actor, fakes, typeCode, submit, entry, codeField } = await atCodeStep();
    const first = entry();
    typeCode('000000');
    submit();
    await fakes.reject('verifyCode', new Error('Invalid code'));
    expect(selectStep(actor.getSnapshot())).toBe('code');
    expect(selectIsBusy(actor.getSnapshot())).toBe(false);
    expect(actor.getSnapshot().context.code).toBe('');
    // A fresh, empty code entry: the refused code is never sent again.
    expect(entry()).not.toBe(first);
    expect(codeField()).toEqual({ code: '', error: undefined });
    submit();
    expect(codeField().error).toBe(CODE_MESSAGE);
    expect(fakes.calls.map((call) => call.id)).toEqual(['requestCode', 'verifyCode']);
    typeCode('135790');
    submit();
    expect(fakes.calls.at(-1)).toEqual({ id: 'verifyCode', input: { email: 'ada@example.com', code: '135790' } });
  });

  it('registration establishes the session and shows "Signup Successful!"', async () => {
    const { actor, fakes, notices, sessions, type, submit } = await atAccountStep();
    type('username', ' ada_l ');
    type('password', 'secret1');
    type('confirmPassword', 'secret1');
    submit();
    expect(fakes.calls.at(-1)).toEqual({
      id: 'register',
      input: { email: 'ada@example.com', username: 'ada_l', password: 'secret1', confirmPassword: 'secret1' },
    });
    await fakes.resolve('register', { token: 'session-ada', user: ada });
    expect(actor.getSnapshot().status).toBe('done');
    expect(selectStep(actor.getSnapshot())).toBe('done');
    expect(sessions).toEqual([{ token: 'session-ada', user: ada }]);
    expect(notices.at(-1)).toEqual({ title: 'Signup Successful!', type: 'success' });
  });

  it('a refused registration keeps the form filled and establishes nothing', async () => {
    const { actor, fakes, sessions, type, submit } = await atAccountStep();
    type('username', 'ada_l');
    type('password', 'secret1');
    type('confirmPassword', 'secret1');
    submit();
    await fakes.reject('register', new Error('Username taken'));
    expect(selectStep(actor.getSnapshot())).toBe('account');
    expect(actor.getSnapshot().context).toMatchObject({ username: 'ada_l', password: 'secret1' });
    expect(sessions).toEqual([]);
  });

  it('"Back to email entry" returns to the email step with the code cleared', async () => {
    const { actor, fakes, type, typeCode, submit, entry, codeField } = await atCodeStep();
    const first = entry();
    typeCode('123');
    submit();
    expect(codeField().error).toBe(CODE_MESSAGE);
    actor.send({ type: 'email.edit' });
    expect(selectStep(actor.getSnapshot())).toBe('email');
    expect(actor.getSnapshot().context.code).toBe('');
    expect(selectCodeEntry(actor.getSnapshot())).toBeUndefined();
    type('email', 'ada.lovelace@example.com');
    submit();
    expect(fakes.calls.at(-1)).toEqual({ id: 'requestCode', input: { email: 'ada.lovelace@example.com' } });
    await fakes.resolve('requestCode', 'sent');
    expect(entry()).not.toBe(first);
    expect(codeField()).toEqual({ code: '', error: undefined });
  });

  it('"Resend Code" requests a new code for the same email and shows "OTP Sent" again', async () => {
    const { actor, fakes, notices, typeCode, submit, entry, codeField } = await atCodeStep();
    const first = entry();
    typeCode('999');
    submit();
    expect(codeField().error).toBe(CODE_MESSAGE);
    actor.send({ type: 'code.resend' });
    expect(selectIsResending(actor.getSnapshot())).toBe(true);
    expect(selectStep(actor.getSnapshot())).toBe('code');
    expect(actor.getSnapshot().context.code).toBe('');
    expect(selectCodeEntry(actor.getSnapshot())).toBeUndefined();
    expect(fakes.calls.at(-1)).toEqual({ id: 'resendCode', input: { email: 'ada@example.com' } });

    await fakes.resolve('resendCode', 'A new code is on its way');
    expect(selectIsResending(actor.getSnapshot())).toBe(false);
    expect(notices.at(-1)).toEqual({ title: 'OTP Sent', description: 'A new code is on its way' });
    expect(entry()).not.toBe(first);
    expect(codeField()).toEqual({ code: '', error: undefined });
  });

  it('a failed resend stays on the code step without a toast of its own', async () => {
    const { actor, fakes, notices, typeCode, entry, codeField } = await atCodeStep();
    const first = entry();
    typeCode('999');
    actor.send({ type: 'code.resend' });
    await fakes.reject('resendCode', new Error('Too many requests'));
    expect(selectStep(actor.getSnapshot())).toBe('code');
    expect(notices).toHaveLength(1);
    expect(entry()).not.toBe(first);
    expect(codeField()).toEqual({ code: '', error: undefined });
  });

  it('the email is read-only once a code was requested for it', async () => {
    const { actor, fakes, type, submit } = await atAccountStep();
    type('email', 'eve@example.com');
    expect(actor.getSnapshot().context.email).toBe('ada@example.com');
    type('username', 'ada_l');
    type('password', 'secret1');
    type('confirmPassword', 'secret1');
    submit();
    expect(fakes.calls.at(-1)).toMatchObject({ id: 'register', input: { email: 'ada@example.com' } });
  });

  describe('field validation messages', () => {
    it('email: "Please enter a valid email address", shown after a submit', () => {
      const { fakes, type, submit, errors } = startSignup();
      type('email', 'ada@');
      expect(errors()).toEqual({});
      submit();
      expect(errors().email).toBe('Please enter a valid email address');
      type('email', 'ada@example.com');
      expect(errors().email).toBeUndefined();
      expect(fakes.calls).toEqual([]);
    });

    it('code: digits only, at most 6, otherwise "Please enter a valid 6-digit verification code"', async () => {
      const { actor, fakes, typeCode, submit, errors, codeField } = await atCodeStep();
      typeCode('12a4b');
      expect(codeField()).toEqual({ code: '124', error: undefined });
      submit();
      expect(selectStep(actor.getSnapshot())).toBe('code');
      expect(selectIsBusy(actor.getSnapshot())).toBe(false);
      expect(codeField()).toEqual({ code: '124', error: 'Please enter a valid 6-digit verification code' });
      expect(errors(), 'the code field shows its own message').not.toHaveProperty('code');
      typeCode('1234567');
      expect(codeField()).toEqual({ code: '123456', error: undefined });
      expect(fakes.calls.map((call) => call.id)).toEqual(['requestCode']);
      submit();
      expect(fakes.calls.at(-1)).toEqual({ id: 'verifyCode', input: { email: 'ada@example.com', code: '123456' } });
    });

    it('code: an empty submit verifies nothing and shows the message', async () => {
      const { actor, fakes, submit, codeField } = await atCodeStep();
      submit();
      expect(selectStep(actor.getSnapshot())).toBe('code');
      expect(codeField()).toEqual({ code: '', error: CODE_MESSAGE });
      expect(fakes.calls.map((call) => call.id)).toEqual(['requestCode']);
    });

    it('account: username, password and confirmation messages', async () => {
      const { fakes, type, submit, errors } = await atAccountStep();
      type('username', 'ab');
      type('password', '12345');
      type('confirmPassword', '123456');
      submit();
      expect(errors()).toMatchObject({
        username: 'Username must be at least 3 characters',
        password: 'Password must be at least 6 characters',
        confirmPassword: 'Passwords do not match',
      });
      type('username', 'abc');
      type('password', '123456');
      expect(errors()).toMatchObject({ username: undefined, password: undefined, confirmPassword: undefined });
      expect(fakes.calls.map((call) => call.id)).toEqual(['requestCode', 'verifyCode']);
    });

    it('messages of a step are hidden again when the next step starts', async () => {
      const { type, submit, errors, fakes } = startSignup();
      submit();
      expect(errors().email).toBe('Please enter a valid email address');
      type('email', 'ada@example.com');
      submit();
      await fakes.resolve('requestCode', 'sent');
      expect(errors()).toEqual({});
    });
  });
});

describe('bindSignup (the composition root wiring)', () => {
  it('calls the account service for each step and hands over the session', async () => {
    const accounts = {
      requestEmailCode: vi.fn().mockResolvedValue('Code sent'),
      verifyEmailCode: vi.fn().mockResolvedValue('Verified'),
      register: vi.fn().mockResolvedValue({ token: 'session-ada', user: ada }),
    };
    const signIn = vi.fn();
    const notify = vi.fn();
    const actor = createActor(bindSignup({ accounts, signIn, notify, navigate: vi.fn() } as unknown as FlowDeps)).start();
    const type = (name: SignupField, value: string) => actor.send({ type: 'field.change', name, value });

    type('email', 'ada@example.com');
    actor.send({ type: 'form.submit' });
    await flush();
    selectCodeEntry(actor.getSnapshot())!.send({ type: 'code.change', value: '123456' });
    actor.send({ type: 'form.submit' });
    await flush();
    type('username', 'ada_l');
    type('password', 'secret1');
    type('confirmPassword', 'secret1');
    actor.send({ type: 'form.submit' });
    await flush();

    expect(accounts.requestEmailCode).toHaveBeenCalledWith({ email: 'ada@example.com' });
    expect(accounts.verifyEmailCode).toHaveBeenCalledWith({ email: 'ada@example.com', code: '123456' });
    expect(accounts.register).toHaveBeenCalledWith({
      email: 'ada@example.com',
      username: 'ada_l',
      password: 'secret1',
      confirmPassword: 'secret1',
    });
    expect(signIn).toHaveBeenCalledExactlyOnceWith({ token: 'session-ada', user: ada });
    expect(notify.mock.calls.map(([notice]) => notice.title)).toEqual(['OTP Sent', 'Successful', 'Signup Successful!']);
  });
});
