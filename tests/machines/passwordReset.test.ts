import { createActor } from 'xstate';
import { selectCode, selectError } from '../../src/machines/codeEntry/codeEntry.selectors.ts';
import { bindPasswordReset, passwordResetLogic } from '../../src/machines/passwordReset/passwordReset.actors.ts';
import type { ResetField } from '../../src/machines/passwordReset/passwordReset.machine.ts';
import { selectCodeEntry, selectErrors, selectIsBusy, selectStep } from '../../src/machines/passwordReset/passwordReset.selectors.ts';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import { flush, scriptedActors } from '../support/machines.ts';

/** The code's validation message, written out here rather than read from the contracts. */
const CODE_MESSAGE = 'Please enter a valid 6-digit verification code';

function startReset() {
  const fakes = scriptedActors(['requestReset', 'resetPassword']);
  /** notify and goToLogin in the order the machine asks for them. */
  const effects: unknown[] = [];
  // The real code entry (passwordResetLogic binds it): the code is typed into it, as the screen does.
  const actor = createActor(
    passwordResetLogic.provide({
      actors: fakes.actors as never,
      actions: {
        notify: (_, notice) => void effects.push(notice),
        goToLogin: () => void effects.push('goToLogin'),
      },
    }),
  ).start();
  const type = (name: ResetField, value: string) => actor.send({ type: 'field.change', name, value });
  const submit = () => actor.send({ type: 'form.submit' });
  const errors = () => selectErrors(actor.getSnapshot());
  /** The code entry of the details step, as the screen reaches it. */
  const entry = () => {
    const ref = selectCodeEntry(actor.getSnapshot());
    if (!ref) throw new Error('the reset is not asking for a code');
    return ref;
  };
  /** Typing into the code field: the screen sends the change to the code entry itself. */
  const typeCode = (value: string) => entry().send({ type: 'code.change', value });
  /** The code field as it shows: its digits and its message. */
  const codeField = () => ({ code: selectCode(entry().getSnapshot()), error: selectError(entry().getSnapshot()) });
  return { actor, fakes, effects, type, submit, errors, entry, typeCode, codeField };
}

async function atDetailsStep() {
  const reset = startReset();
  reset.type('email', 'bob@example.com');
  reset.submit();
  await reset.fakes.resolve('requestReset', 'A code was sent if the account exists');
  return reset;
}

describe('password reset', () => {
  it('the email step is busy ("Sending...") while the code is requested, then shows "OTP Sent"', async () => {
    const { actor, fakes, effects, type, submit } = startReset();
    type('email', 'bob@example.com');
    submit();
    expect(selectStep(actor.getSnapshot())).toBe('email');
    expect(selectIsBusy(actor.getSnapshot())).toBe(true);
    expect(fakes.calls).toEqual([{ id: 'requestReset', input: { email: 'bob@example.com' } }]);
    expect(selectCodeEntry(actor.getSnapshot()), 'no code entry on the email step').toBeUndefined();
    await fakes.resolve('requestReset', 'A code was sent if the account exists');
    expect(selectStep(actor.getSnapshot())).toBe('details');
    expect(selectIsBusy(actor.getSnapshot())).toBe(false);
    expect(effects).toEqual([{ title: 'OTP Sent', description: 'A code was sent if the account exists' }]);
    const entry = selectCodeEntry(actor.getSnapshot());
    expect(entry, 'the details step has its code entry').toBeDefined();
    expect(entry).toBe(actor.getSnapshot().children.codeEntry);
    expect({ code: selectCode(entry!.getSnapshot()), error: selectError(entry!.getSnapshot()) }).toEqual({ code: '', error: undefined });
  });

  it('a failed request clears the loading state with no local message', async () => {
    const { actor, fakes, effects, type, submit, errors } = startReset();
    type('email', 'bob@example.com');
    submit();
    await fakes.reject('requestReset', new Error('Too many requests'));
    expect(selectStep(actor.getSnapshot())).toBe('email');
    expect(selectIsBusy(actor.getSnapshot())).toBe(false);
    expect(errors()).toEqual({});
    expect(effects).toEqual([]);
  });

  it('a successful reset notifies "Password reset successful" / "Kindly login with your new password", then goes to /login', async () => {
    const { actor, fakes, effects, type, typeCode, submit } = await atDetailsStep();
    typeCode('246810');
    type('password', 'newpass1');
    type('confirmPassword', 'newpass1');
    submit();
    expect(selectIsBusy(actor.getSnapshot())).toBe(true);
    expect(fakes.calls.at(-1)).toEqual({
      id: 'resetPassword',
      input: { email: 'bob@example.com', code: '246810', password: 'newpass1', confirmPassword: 'newpass1' },
    });
    // While it is sent the code entry is gone; the field shows the code handed over.
    expect(selectCodeEntry(actor.getSnapshot())).toBeUndefined();
    expect(actor.getSnapshot().context.code).toBe('246810');
    await fakes.resolve('resetPassword', 'Password changed');
    expect(actor.getSnapshot().status).toBe('done');
    expect(effects.slice(1)).toEqual([
      { title: 'Password reset successful', description: 'Kindly login with your new password', type: 'success' },
      'goToLogin',
    ]);
  });

  it('a refused reset stays on the form and does not leave', async () => {
    const { actor, fakes, effects, type, typeCode, submit, entry, codeField } = await atDetailsStep();
    const first = entry();
    typeCode('246810');
    type('password', 'newpass1');
    type('confirmPassword', 'newpass1');
    submit();
    await fakes.reject('resetPassword', new Error('Invalid or expired code'));
    expect(selectStep(actor.getSnapshot())).toBe('details');
    expect(selectIsBusy(actor.getSnapshot())).toBe(false);
    expect(effects).not.toContain('goToLogin');
    // A fresh, empty code entry, as everywhere a code is refused: the refused code is never sent again.
    expect(entry()).not.toBe(first);
    expect(codeField()).toEqual({ code: '', error: undefined });
    submit();
    expect(codeField().error).toBe(CODE_MESSAGE);
    expect(fakes.calls.map((call) => call.id)).toEqual(['requestReset', 'resetPassword']);
    typeCode('135790');
    submit();
    expect(fakes.calls.at(-1)).toEqual({
      id: 'resetPassword',
      input: { email: 'bob@example.com', code: '135790', password: 'newpass1', confirmPassword: 'newpass1' },
    });
  });

  it('the email is read-only on the details step, and "email.edit" goes back to change it', async () => {
    const { actor, fakes, type, typeCode, submit, entry, codeField } = await atDetailsStep();
    const first = entry();
    typeCode('246');
    type('email', 'mallory@example.com');
    expect(actor.getSnapshot().context.email).toBe('bob@example.com');
    actor.send({ type: 'email.edit' });
    expect(selectStep(actor.getSnapshot())).toBe('email');
    expect(selectCodeEntry(actor.getSnapshot())).toBeUndefined();
    type('email', 'robert@example.com');
    submit();
    expect(fakes.calls.at(-1)).toEqual({ id: 'requestReset', input: { email: 'robert@example.com' } });
    await fakes.resolve('requestReset', 'sent');
    expect(entry()).not.toBe(first);
    expect(codeField()).toEqual({ code: '', error: undefined });
  });

  describe('field validation messages', () => {
    it('email: "Please enter a valid email address"', () => {
      const { fakes, type, submit, errors } = startReset();
      type('email', 'bob@');
      submit();
      expect(errors().email).toBe('Please enter a valid email address');
      expect(fakes.calls).toEqual([]);
    });

    it('reset form: code digits only up to 6, password minimum and confirmation', async () => {
      const { actor, fakes, type, typeCode, submit, errors, codeField } = await atDetailsStep();
      typeCode('24x8');
      type('password', 'short');
      type('confirmPassword', 'other');
      expect(codeField()).toEqual({ code: '248', error: undefined });
      expect(errors()).toEqual({});
      submit();
      expect(selectStep(actor.getSnapshot())).toBe('details');
      expect(selectIsBusy(actor.getSnapshot())).toBe(false);
      expect(codeField().error).toBe('Please enter a valid 6-digit verification code');
      expect(errors()).toMatchObject({
        password: 'Password must be at least 6 characters',
        confirmPassword: 'Passwords do not match',
      });
      expect(errors(), 'the code field shows its own message').not.toHaveProperty('code');
      typeCode('2468101');
      expect(codeField()).toEqual({ code: '246810', error: undefined });
      type('password', 'newpass1');
      type('confirmPassword', 'newpass1');
      expect(errors()).toMatchObject({ password: undefined, confirmPassword: undefined });
      expect(fakes.calls.map((call) => call.id)).toEqual(['requestReset']);
      submit();
      expect(fakes.calls.at(-1)).toEqual({
        id: 'resetPassword',
        input: { email: 'bob@example.com', code: '246810', password: 'newpass1', confirmPassword: 'newpass1' },
      });
    });

    it('a complete code with an invalid new password is not sent; the password messages show', async () => {
      const { actor, fakes, type, typeCode, submit, errors, codeField } = await atDetailsStep();
      typeCode('246810');
      type('password', 'short');
      type('confirmPassword', 'short');
      submit();
      expect(selectStep(actor.getSnapshot())).toBe('details');
      expect(selectIsBusy(actor.getSnapshot())).toBe(false);
      expect(errors()).toMatchObject({ password: 'Password must be at least 6 characters', confirmPassword: undefined });
      expect(codeField()).toEqual({ code: '246810', error: undefined });
      type('password', 'newpass1');
      submit();
      expect(errors()).toMatchObject({ password: undefined, confirmPassword: 'Passwords do not match' });
      expect(fakes.calls.map((call) => call.id)).toEqual(['requestReset']);
      type('confirmPassword', 'newpass1');
      submit();
      expect(fakes.calls.at(-1)).toEqual({
        id: 'resetPassword',
        input: { email: 'bob@example.com', code: '246810', password: 'newpass1', confirmPassword: 'newpass1' },
      });
    });

    it('a valid new password with an incomplete code is not sent; the code message shows', async () => {
      const { actor, fakes, type, typeCode, submit, errors, codeField } = await atDetailsStep();
      typeCode('24681');
      type('password', 'newpass1');
      type('confirmPassword', 'newpass1');
      submit();
      expect(selectStep(actor.getSnapshot())).toBe('details');
      expect(selectIsBusy(actor.getSnapshot())).toBe(false);
      expect(codeField()).toEqual({ code: '24681', error: CODE_MESSAGE });
      expect(errors().password).toBeUndefined();
      expect(errors().confirmPassword).toBeUndefined();
      expect(fakes.calls.map((call) => call.id)).toEqual(['requestReset']);
    });
  });
});

describe('bindPasswordReset (the composition root wiring)', () => {
  it('calls the account service and navigates to /login after the reset', async () => {
    const accounts = {
      requestPasswordReset: vi.fn().mockResolvedValue('Code sent'),
      resetPassword: vi.fn().mockResolvedValue('Password changed'),
    };
    const navigate = vi.fn();
    const notify = vi.fn();
    const deps = { accounts, navigate, notify, signIn: vi.fn() } as unknown as FlowDeps;
    const actor = createActor(bindPasswordReset(deps)).start();
    const type = (name: ResetField, value: string) => actor.send({ type: 'field.change', name, value });
    type('email', 'bob@example.com');
    actor.send({ type: 'form.submit' });
    await flush();
    selectCodeEntry(actor.getSnapshot())!.send({ type: 'code.change', value: '246810' });
    type('password', 'newpass1');
    type('confirmPassword', 'newpass1');
    actor.send({ type: 'form.submit' });
    await flush();

    expect(accounts.requestPasswordReset).toHaveBeenCalledWith({ email: 'bob@example.com' });
    expect(accounts.resetPassword).toHaveBeenCalledWith({
      email: 'bob@example.com',
      code: '246810',
      password: 'newpass1',
      confirmPassword: 'newpass1',
    });
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/login');
    expect(notify.mock.calls.map(([notice]) => notice.title)).toEqual(['OTP Sent', 'Password reset successful']);
  });
});
