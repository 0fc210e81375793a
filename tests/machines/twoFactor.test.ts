import { createActor } from 'xstate';
import { selectCode, selectError, selectIsComplete } from '../../src/machines/codeEntry/codeEntry.selectors.ts';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { bindTwoFactor, twoFactorLogic } from '../../src/machines/twoFactor/twoFactor.actors.ts';
import {
  selectCanSubmitCode,
  selectCodeEntry,
  selectIsBusy,
  selectIsEnabled,
  selectView,
} from '../../src/machines/twoFactor/twoFactor.selectors.ts';
import { flush, scriptedActors, specMessages } from '../support/machines.ts';

const enrolment = { secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/Peerex:alice?secret=JBSWY3DPEHPK3PXP' };
const CODES = ['abcde-fghij', 'kmnpq-rstuv', 'wxyz2-34567', '89abc-defgh', 'ijkmn-pqrst', 'uvwxy-z2345', '6789a-bcdef', 'ghijk-mnpqr', 'stuvw-xyz23', '45678-9abcd'];
const ACTORS = ['loadStatus', 'startSetup', 'enable', 'disable', 'renewRecoveryCodes'];
const cleared = { code: '', password: '', secret: null, otpauthUrl: null, recoveryCodes: null };

async function startTwoFactor(enabled: boolean, recoveryCodesLeft = enabled ? 10 : 0) {
  const fakes = scriptedActors(ACTORS);
  const notices: Notice[] = [];
  const actor = createActor(
    twoFactorLogic.provide({
      actors: fakes.actors as never,
      actions: { notify: (_, notice) => void notices.push(notice) },
    }),
  ).start();
  expect(selectView(actor.getSnapshot())).toBe('loading');
  await fakes.resolve('loadStatus', { enabled, recovery_codes_left: recoveryCodesLeft });
  /** The code field of the turn-off and renewal forms, a field of the chart itself. */
  const type = (value: string) => actor.send({ type: 'field.change', name: 'code', value });
  const typePassword = (value: string) => actor.send({ type: 'field.change', name: 'password', value });
  /** Enrolment's code entry (the real child chart), as the screen's field reaches it. */
  const entry = () => {
    const ref = selectCodeEntry(actor.getSnapshot());
    if (!ref) throw new Error(`no code entry in ${JSON.stringify(actor.getSnapshot().value)}`);
    return ref;
  };
  /** Types into enrolment's code entry, as the field does with each keystroke's whole value. */
  const typeCode = (value: string) => entry().send({ type: 'code.change', value });
  /** "Confirm and enable": the chart takes the submit (the password is there) and the code entry holds six digits. */
  const canEnable = () => selectCanSubmitCode(actor.getSnapshot()) && selectIsComplete(entry().getSnapshot());
  return { actor, fakes, notices, type, typePassword, entry, typeCode, canEnable };
}

describe('two-factor settings', () => {
  it('turning it on: setup shows the secret; a 6-digit code and the password confirm it; the recovery codes show once', async () => {
    const { actor, fakes, notices, typeCode, typePassword, entry, canEnable } = await startTwoFactor(false);
    expect(selectView(actor.getSnapshot())).toBe('off');
    expect(selectIsEnabled(actor.getSnapshot())).toBe(false);
    expect(selectCodeEntry(actor.getSnapshot())).toBeUndefined();

    actor.send({ type: 'setup.start' });
    expect(selectIsBusy(actor.getSnapshot())).toBe(true);
    await fakes.resolve('startSetup', enrolment);
    expect(selectView(actor.getSnapshot())).toBe('enrolling');
    expect(actor.getSnapshot().context).toMatchObject({ secret: enrolment.secret, otpauthUrl: enrolment.otpauth_url });
    expect(selectCode(entry().getSnapshot())).toBe('');

    // A whole code without the password: not yet.
    typeCode('123456');
    expect(canEnable()).toBe(false);
    actor.send({ type: 'form.submit' });
    expect(fakes.isRunning('enable')).toBe(false);
    expect(selectView(actor.getSnapshot())).toBe('enrolling');
    // The password with a code one digit short: not yet either, and a submit shows the code's message.
    typePassword('my-password');
    typeCode('12345');
    expect(canEnable()).toBe(false);
    actor.send({ type: 'form.submit' });
    expect(fakes.isRunning('enable')).toBe(false);
    expect(selectView(actor.getSnapshot())).toBe('enrolling');
    expect(selectError(entry().getSnapshot())).toBe(specMessages.code);
    typeCode('123456');
    expect(selectError(entry().getSnapshot())).toBeUndefined();
    expect(canEnable()).toBe(true);
    actor.send({ type: 'form.submit' });
    expect(fakes.calls.at(-1)).toEqual({ id: 'enable', input: { code: '123456', password: 'my-password' } });
    expect(fakes.calls.filter((call) => call.id === 'enable')).toHaveLength(1);
    expect(selectIsBusy(actor.getSnapshot())).toBe(true);
    expect(selectCodeEntry(actor.getSnapshot())).toBeUndefined();

    await fakes.resolve('enable', { message: 'Two-factor authentication is now on.', recovery_codes: CODES });
    expect(selectView(actor.getSnapshot())).toBe('recoveryCodes');
    expect(selectIsEnabled(actor.getSnapshot())).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ ...cleared, recoveryCodes: CODES, recoveryCodesLeft: 10 });
    expect(notices).toEqual([{ title: 'Two-factor enabled', description: 'Two-factor authentication is now on.', type: 'success' }]);

    actor.send({ type: 'recoveryCodes.acknowledge' });
    expect(selectView(actor.getSnapshot())).toBe('on');
    expect(actor.getSnapshot().context).toEqual({ ...cleared, recoveryCodesLeft: 10 });
  });

  it('a refused enrolment clears the code and keeps the secret and the password for another try', async () => {
    const { actor, fakes, notices, typeCode, typePassword, entry, canEnable } = await startTwoFactor(false);
    actor.send({ type: 'setup.start' });
    await fakes.resolve('startSetup', enrolment);
    const first = entry();
    typeCode('000000');
    typePassword('typo-password');
    actor.send({ type: 'form.submit' });
    expect(fakes.calls.at(-1)).toEqual({ id: 'enable', input: { code: '000000', password: 'typo-password' } });
    await fakes.reject('enable', new Error('The password is not correct.'));
    expect(selectView(actor.getSnapshot())).toBe('enrolling');
    expect(actor.getSnapshot().context).toMatchObject({ code: '', password: 'typo-password', secret: enrolment.secret });
    expect(notices).toEqual([]);
    // A fresh, empty code entry (the refused code is stale), with no message yet.
    expect(entry()).not.toBe(first);
    expect(selectCode(entry().getSnapshot())).toBe('');
    expect(selectError(entry().getSnapshot())).toBeUndefined();
    expect(canEnable()).toBe(false);
    actor.send({ type: 'form.submit' });
    expect(fakes.isRunning('enable')).toBe(false);

    typePassword('right-password');
    typeCode('314159');
    actor.send({ type: 'form.submit' });
    expect(fakes.calls.at(-1)).toEqual({ id: 'enable', input: { code: '314159', password: 'right-password' } });
  });

  it('the enrolment form keeps no code of its own: only its code entry takes one', async () => {
    const { actor, fakes, type, typePassword, entry, canEnable } = await startTwoFactor(false);
    actor.send({ type: 'setup.start' });
    await fakes.resolve('startSetup', enrolment);
    typePassword('my-password');
    type('123456');
    expect(actor.getSnapshot().context.code).toBe('');
    expect(selectCode(entry().getSnapshot())).toBe('');
    expect(canEnable()).toBe(false);
    actor.send({ type: 'form.submit' });
    expect(fakes.isRunning('enable')).toBe(false);
    expect(selectError(entry().getSnapshot())).toBe(specMessages.code);
  });

  it('cancelling the enrolment drops the pending secret, the password and the code typed', async () => {
    const { actor, fakes, typePassword, typeCode, entry } = await startTwoFactor(false);
    actor.send({ type: 'setup.start' });
    await fakes.resolve('startSetup', enrolment);
    const first = entry();
    typeCode('123456');
    typePassword('my-password');
    actor.send({ type: 'setup.cancel' });
    expect(selectView(actor.getSnapshot())).toBe('off');
    expect(actor.getSnapshot().context).toEqual({ ...cleared, recoveryCodesLeft: 0 });
    expect(selectCodeEntry(actor.getSnapshot())).toBeUndefined();

    // Starting again gives an empty code entry.
    actor.send({ type: 'setup.start' });
    await fakes.resolve('startSetup', enrolment);
    expect(entry()).not.toBe(first);
    expect(selectCode(entry().getSnapshot())).toBe('');
  });

  it('a failed setup request returns to off', async () => {
    const { actor, fakes } = await startTwoFactor(false);
    actor.send({ type: 'setup.start' });
    await fakes.reject('startSetup', new Error('Internet server error'));
    expect(selectView(actor.getSnapshot())).toBe('off');
    expect(selectIsBusy(actor.getSnapshot())).toBe(false);
  });

  it('turning it off needs a current code (or a recovery code) and the password', async () => {
    const { actor, fakes, notices, type, typePassword } = await startTwoFactor(true);
    expect(selectView(actor.getSnapshot())).toBe('on');
    actor.send({ type: 'disable.start' });
    expect(selectView(actor.getSnapshot())).toBe('disabling');
    expect(selectIsEnabled(actor.getSnapshot())).toBe(true);

    actor.send({ type: 'form.submit' });
    type('654321');
    actor.send({ type: 'form.submit' });
    expect(fakes.isRunning('disable')).toBe(false);
    typePassword('my-password');
    actor.send({ type: 'form.submit' });
    expect(fakes.calls.at(-1)).toEqual({ id: 'disable', input: { code: '654321', password: 'my-password' } });
    await fakes.resolve('disable', 'Two-factor authentication is now off.');
    expect(selectView(actor.getSnapshot())).toBe('off');
    expect(selectIsEnabled(actor.getSnapshot())).toBe(false);
    expect(actor.getSnapshot().context).toEqual({ ...cleared, recoveryCodesLeft: 0 });
    expect(notices).toEqual([{ title: 'Two-factor disabled', description: 'Two-factor authentication is now off.', type: 'success' }]);
  });

  it('a refused code when turning it off keeps it on; cancel returns with the form cleared', async () => {
    const { actor, fakes, type, typePassword } = await startTwoFactor(true);
    actor.send({ type: 'disable.start' });
    type('111111');
    typePassword('my-password');
    actor.send({ type: 'form.submit' });
    await fakes.reject('disable', new Error('Invalid code'));
    expect(selectView(actor.getSnapshot())).toBe('disabling');
    expect(actor.getSnapshot().context).toMatchObject({ code: '', password: 'my-password' });
    type('1');
    actor.send({ type: 'disable.cancel' });
    expect(selectView(actor.getSnapshot())).toBe('on');
    expect(actor.getSnapshot().context).toMatchObject({ code: '', password: '' });
  });

  it('the enrolment code takes digits only, at most 6; turning off also takes a recovery code as typed', async () => {
    const { actor, fakes, typeCode, typePassword, entry, canEnable } = await startTwoFactor(false);
    actor.send({ type: 'setup.start' });
    await fakes.resolve('startSetup', enrolment);
    typePassword('pw');
    typeCode('12a3-45');
    expect(selectCode(entry().getSnapshot())).toBe('12345');
    expect(canEnable()).toBe(false);
    typeCode('1234567');
    expect(selectCode(entry().getSnapshot())).toBe('123456');
    expect(canEnable()).toBe(true);
    // A recovery code is no enrolment code: only the new authenticator's code proves it was added.
    typeCode('abcde-fghij');
    expect(selectCode(entry().getSnapshot())).toBe('');
    expect(canEnable()).toBe(false);
    actor.send({ type: 'form.submit' });
    expect(fakes.isRunning('enable')).toBe(false);

    const on = await startTwoFactor(true);
    on.actor.send({ type: 'disable.start' });
    on.typePassword('pw');
    on.type('1234567');
    expect(on.actor.getSnapshot().context.code).toBe('123456');
    expect(selectCanSubmitCode(on.actor.getSnapshot())).toBe(true);
    on.type('abcde-fghi');
    expect(selectCanSubmitCode(on.actor.getSnapshot())).toBe(false);
    on.type('ABCDE fghij');
    expect(on.actor.getSnapshot().context.code).toBe('ABCDE fghij');
    expect(selectCanSubmitCode(on.actor.getSnapshot())).toBe(true);
    on.type('abcde-fghij!<');
    expect(on.actor.getSnapshot().context.code).toBe('abcde-fghij');
    on.type('abcd0-fghij');
    expect(selectCanSubmitCode(on.actor.getSnapshot())).toBe(false);
    // A recovery code may start with digits (2–9 are in its alphabet): it must not be taken for an authenticator code.
    on.type('29eax-y4apf');
    expect(on.actor.getSnapshot().context.code).toBe('29eax-y4apf');
    expect(selectCanSubmitCode(on.actor.getSnapshot())).toBe(true);
    on.type('23 45');
    expect(on.actor.getSnapshot().context.code).toBe('2345');
  });

  it('new recovery codes: a code and the password, then the new set shows once; cancel keeps the old ones', async () => {
    const { actor, fakes, notices, type, typePassword } = await startTwoFactor(true, 2);
    expect(actor.getSnapshot().context.recoveryCodesLeft).toBe(2);
    actor.send({ type: 'recoveryCodes.start' });
    expect(selectView(actor.getSnapshot())).toBe('renewing');
    actor.send({ type: 'recoveryCodes.cancel' });
    expect(selectView(actor.getSnapshot())).toBe('on');

    actor.send({ type: 'recoveryCodes.start' });
    type('kmnpq-rstuv');
    typePassword('my-password');
    actor.send({ type: 'form.submit' });
    expect(fakes.calls.at(-1)).toEqual({ id: 'renewRecoveryCodes', input: { code: 'kmnpq-rstuv', password: 'my-password' } });
    await fakes.reject('renewRecoveryCodes', new Error('Invalid recovery code.'));
    expect(selectView(actor.getSnapshot())).toBe('renewing');
    expect(actor.getSnapshot().context.code).toBe('');

    type('222222');
    actor.send({ type: 'form.submit' });
    await fakes.resolve('renewRecoveryCodes', { message: 'New recovery codes are ready.', recovery_codes: CODES });
    expect(selectView(actor.getSnapshot())).toBe('recoveryCodes');
    expect(actor.getSnapshot().context).toMatchObject({ recoveryCodes: CODES, recoveryCodesLeft: 10, password: '' });
    expect(notices).toEqual([{ title: 'New recovery codes', description: 'New recovery codes are ready.', type: 'success' }]);
  });

  it('a status that cannot be read can be retried', async () => {
    const fakes = scriptedActors(ACTORS);
    const actor = createActor(twoFactorLogic.provide({ actors: fakes.actors as never })).start();
    await fakes.reject('loadStatus', new Error('Internet server error'));
    expect(selectView(actor.getSnapshot())).toBe('unavailable');
    actor.send({ type: 'status.retry' });
    expect(selectView(actor.getSnapshot())).toBe('loading');
    await fakes.resolve('loadStatus', { enabled: true, recovery_codes_left: 7 });
    expect(selectView(actor.getSnapshot())).toBe('on');
    expect(actor.getSnapshot().context.recoveryCodesLeft).toBe(7);
    expect(fakes.calls.map((call) => call.id)).toEqual(['loadStatus', 'loadStatus']);
  });
});

describe('bindTwoFactor (the route’s wiring)', () => {
  it('reads the status, enables and renews through the account service', async () => {
    const accounts = {
      twoFactorStatus: vi.fn().mockResolvedValue({ enabled: false, recovery_codes_left: 0 }),
      twoFactorSetup: vi.fn().mockResolvedValue(enrolment),
      twoFactorEnable: vi.fn().mockResolvedValue({ message: 'Enabled', recovery_codes: CODES }),
      twoFactorDisable: vi.fn(),
      twoFactorRenewRecoveryCodes: vi.fn().mockResolvedValue({ message: 'Renewed', recovery_codes: CODES }),
    };
    const notify = vi.fn();
    const actor = createActor(bindTwoFactor({ accounts, notify } as unknown as FlowDeps)).start();
    await flush();
    actor.send({ type: 'setup.start' });
    await flush();
    // The screen's field types into the code entry the bound chart invoked: the real one.
    selectCodeEntry(actor.getSnapshot())!.send({ type: 'code.change', value: '123456' });
    actor.send({ type: 'field.change', name: 'password', value: 'pw' });
    actor.send({ type: 'form.submit' });
    await flush();
    expect(accounts.twoFactorEnable).toHaveBeenCalledWith({ code: '123456', password: 'pw' });
    expect(selectView(actor.getSnapshot())).toBe('recoveryCodes');
    expect(notify).toHaveBeenCalledExactlyOnceWith({ title: 'Two-factor enabled', description: 'Enabled', type: 'success' });
    actor.send({ type: 'recoveryCodes.acknowledge' });
    actor.send({ type: 'recoveryCodes.start' });
    actor.send({ type: 'field.change', name: 'code', value: '654321' });
    actor.send({ type: 'field.change', name: 'password', value: 'pw' });
    actor.send({ type: 'form.submit' });
    await flush();
    expect(accounts.twoFactorRenewRecoveryCodes).toHaveBeenCalledWith({ code: '654321', password: 'pw' });
  });
});
