import { createActor } from 'xstate';
import { bindPasswordReset } from '../../src/machines/passwordReset/passwordReset.actors.ts';
import { passwordResetMachine, type ResetField } from '../../src/machines/passwordReset/passwordReset.machine.ts';
import { selectErrors, selectIsBusy, selectStep } from '../../src/machines/passwordReset/passwordReset.selectors.ts';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import { flush, scriptedActors } from '../support/machines.ts';

function startReset() {
  const fakes = scriptedActors(['requestReset', 'resetPassword']);
  /** notify and goToLogin in the order the machine asks for them. */
  const effects: unknown[] = [];
  const actor = createActor(
    passwordResetMachine.provide({
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
  return { actor, fakes, effects, type, submit, errors };
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
    await fakes.resolve('requestReset', 'A code was sent if the account exists');
    expect(selectStep(actor.getSnapshot())).toBe('details');
    expect(selectIsBusy(actor.getSnapshot())).toBe(false);
    expect(effects).toEqual([{ title: 'OTP Sent', description: 'A code was sent if the account exists' }]);
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
    const { actor, fakes, effects, type, submit } = await atDetailsStep();
    type('code', '246810');
    type('password', 'newpass1');
    type('confirmPassword', 'newpass1');
    submit();
    expect(selectIsBusy(actor.getSnapshot())).toBe(true);
    expect(fakes.calls.at(-1)).toEqual({
      id: 'resetPassword',
      input: { email: 'bob@example.com', code: '246810', password: 'newpass1', confirmPassword: 'newpass1' },
    });
    await fakes.resolve('resetPassword', 'Password changed');
    expect(actor.getSnapshot().status).toBe('done');
    expect(effects.slice(1)).toEqual([
      { title: 'Password reset successful', description: 'Kindly login with your new password', type: 'success' },
      'goToLogin',
    ]);
  });

  it('a refused reset stays on the form and does not leave', async () => {
    const { actor, fakes, effects, type, submit } = await atDetailsStep();
    type('code', '246810');
    type('password', 'newpass1');
    type('confirmPassword', 'newpass1');
    submit();
    await fakes.reject('resetPassword', new Error('Invalid or expired code'));
    expect(selectStep(actor.getSnapshot())).toBe('details');
    expect(selectIsBusy(actor.getSnapshot())).toBe(false);
    expect(effects).not.toContain('goToLogin');
  });

  it('the email is read-only on the details step, and "email.edit" goes back to change it', async () => {
    const { actor, fakes, type, submit } = await atDetailsStep();
    type('email', 'mallory@example.com');
    expect(actor.getSnapshot().context.email).toBe('bob@example.com');
    actor.send({ type: 'email.edit' });
    expect(selectStep(actor.getSnapshot())).toBe('email');
    type('email', 'robert@example.com');
    submit();
    expect(fakes.calls.at(-1)).toEqual({ id: 'requestReset', input: { email: 'robert@example.com' } });
  });

  describe('validation messages of spec section 5', () => {
    it('email: "Please enter a valid email address"', () => {
      const { fakes, type, submit, errors } = startReset();
      type('email', 'bob@');
      submit();
      expect(errors().email).toBe('Please enter a valid email address');
      expect(fakes.calls).toEqual([]);
    });

    it('reset form: code digits only up to 6, password minimum and confirmation', async () => {
      const { actor, fakes, type, submit, errors } = await atDetailsStep();
      type('code', '24x8');
      type('password', 'short');
      type('confirmPassword', 'other');
      expect(actor.getSnapshot().context.code).toBe('248');
      expect(errors()).toEqual({});
      submit();
      expect(errors()).toMatchObject({
        code: 'Please enter a valid 6-digit verification code',
        password: 'Password must be at least 6 characters',
        confirmPassword: 'Passwords do not match',
      });
      type('code', '2468101');
      expect(actor.getSnapshot().context.code).toBe('246810');
      type('password', 'newpass1');
      type('confirmPassword', 'newpass1');
      expect(errors()).toMatchObject({ code: undefined, password: undefined, confirmPassword: undefined });
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
    type('code', '246810');
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
