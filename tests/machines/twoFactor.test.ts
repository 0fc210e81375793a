import { createActor } from 'xstate';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { bindTwoFactor } from '../../src/machines/twoFactor/twoFactor.actors.ts';
import { twoFactorMachine } from '../../src/machines/twoFactor/twoFactor.machine.ts';
import {
  selectCanSubmitCode,
  selectIsBusy,
  selectIsEnabled,
  selectView,
} from '../../src/machines/twoFactor/twoFactor.selectors.ts';
import { flush, scriptedActors } from '../support/machines.ts';

const enrolment = { secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/Peerex:alice?secret=JBSWY3DPEHPK3PXP' };

async function startTwoFactor(enabled: boolean) {
  const fakes = scriptedActors(['loadStatus', 'startSetup', 'enable', 'disable']);
  const notices: Notice[] = [];
  const actor = createActor(
    twoFactorMachine.provide({
      actors: fakes.actors as never,
      actions: { notify: (_, notice) => void notices.push(notice) },
    }),
  ).start();
  expect(selectView(actor.getSnapshot())).toBe('loading');
  await fakes.resolve('loadStatus', { enabled });
  const type = (value: string) => actor.send({ type: 'field.change', name: 'code', value });
  return { actor, fakes, notices, type };
}

describe('two-factor settings', () => {
  it('turning it on: setup shows the secret, a 6-digit code confirms it, the secret is then forgotten', async () => {
    const { actor, fakes, notices, type } = await startTwoFactor(false);
    expect(selectView(actor.getSnapshot())).toBe('off');
    expect(selectIsEnabled(actor.getSnapshot())).toBe(false);

    actor.send({ type: 'setup.start' });
    expect(selectIsBusy(actor.getSnapshot())).toBe(true);
    await fakes.resolve('startSetup', enrolment);
    expect(selectView(actor.getSnapshot())).toBe('enrolling');
    expect(actor.getSnapshot().context).toMatchObject({ secret: enrolment.secret, otpauthUrl: enrolment.otpauth_url });

    type('12345');
    expect(selectCanSubmitCode(actor.getSnapshot())).toBe(false);
    type('123456');
    expect(selectCanSubmitCode(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'form.submit' });
    expect(fakes.calls.at(-1)).toEqual({ id: 'enable', input: { code: '123456' } });

    await fakes.resolve('enable', 'Two-factor authentication is on');
    expect(selectView(actor.getSnapshot())).toBe('on');
    expect(selectIsEnabled(actor.getSnapshot())).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ code: '', secret: null, otpauthUrl: null });
    expect(notices).toEqual([
      { title: 'Two-factor enabled', description: 'Two-factor authentication is on', type: 'success' },
    ]);
  });

  it('a wrong enrolment code clears the code and keeps the secret for another try', async () => {
    const { actor, fakes, notices, type } = await startTwoFactor(false);
    actor.send({ type: 'setup.start' });
    await fakes.resolve('startSetup', enrolment);
    type('000000');
    actor.send({ type: 'form.submit' });
    await fakes.reject('enable', new Error('Invalid code'));
    expect(selectView(actor.getSnapshot())).toBe('enrolling');
    expect(actor.getSnapshot().context).toMatchObject({ code: '', secret: enrolment.secret });
    expect(notices).toEqual([]);
  });

  it('cancelling the enrolment drops the pending secret', async () => {
    const { actor, fakes } = await startTwoFactor(false);
    actor.send({ type: 'setup.start' });
    await fakes.resolve('startSetup', enrolment);
    actor.send({ type: 'setup.cancel' });
    expect(selectView(actor.getSnapshot())).toBe('off');
    expect(actor.getSnapshot().context).toEqual({ code: '', secret: null, otpauthUrl: null });
  });

  it('a failed setup request returns to off', async () => {
    const { actor, fakes } = await startTwoFactor(false);
    actor.send({ type: 'setup.start' });
    await fakes.reject('startSetup', new Error('Internet server error'));
    expect(selectView(actor.getSnapshot())).toBe('off');
    expect(selectIsBusy(actor.getSnapshot())).toBe(false);
  });

  it('turning it off needs a current code', async () => {
    const { actor, fakes, notices, type } = await startTwoFactor(true);
    expect(selectView(actor.getSnapshot())).toBe('on');
    actor.send({ type: 'disable.start' });
    expect(selectView(actor.getSnapshot())).toBe('disabling');
    expect(selectIsEnabled(actor.getSnapshot())).toBe(true);

    actor.send({ type: 'form.submit' });
    expect(fakes.isRunning('disable')).toBe(false);
    type('654321');
    actor.send({ type: 'form.submit' });
    expect(fakes.calls.at(-1)).toEqual({ id: 'disable', input: { code: '654321' } });
    await fakes.resolve('disable', 'Two-factor authentication is off');
    expect(selectView(actor.getSnapshot())).toBe('off');
    expect(selectIsEnabled(actor.getSnapshot())).toBe(false);
    expect(notices).toEqual([
      { title: 'Two-factor disabled', description: 'Two-factor authentication is off', type: 'success' },
    ]);
  });

  it('a wrong code when turning it off keeps it on, and cancel returns with the code cleared', async () => {
    const { actor, fakes, type } = await startTwoFactor(true);
    actor.send({ type: 'disable.start' });
    type('111111');
    actor.send({ type: 'form.submit' });
    await fakes.reject('disable', new Error('Invalid code'));
    expect(selectView(actor.getSnapshot())).toBe('disabling');
    expect(actor.getSnapshot().context.code).toBe('');
    type('1');
    actor.send({ type: 'disable.cancel' });
    expect(selectView(actor.getSnapshot())).toBe('on');
    expect(actor.getSnapshot().context.code).toBe('');
  });

  it('the code field takes digits only, at most 6', async () => {
    const { actor, type } = await startTwoFactor(true);
    actor.send({ type: 'disable.start' });
    type('12a3-45');
    expect(actor.getSnapshot().context.code).toBe('12345');
    expect(selectCanSubmitCode(actor.getSnapshot())).toBe(false);
    type('1234567');
    expect(actor.getSnapshot().context.code).toBe('123456');
    expect(selectCanSubmitCode(actor.getSnapshot())).toBe(true);
  });

  it('a status that cannot be read can be retried', async () => {
    const fakes = scriptedActors(['loadStatus', 'startSetup', 'enable', 'disable']);
    const actor = createActor(twoFactorMachine.provide({ actors: fakes.actors as never })).start();
    await fakes.reject('loadStatus', new Error('Internet server error'));
    expect(selectView(actor.getSnapshot())).toBe('unavailable');
    actor.send({ type: 'status.retry' });
    expect(selectView(actor.getSnapshot())).toBe('loading');
    await fakes.resolve('loadStatus', { enabled: true });
    expect(selectView(actor.getSnapshot())).toBe('on');
    expect(fakes.calls.map((call) => call.id)).toEqual(['loadStatus', 'loadStatus']);
  });
});

describe('bindTwoFactor (the composition root wiring)', () => {
  it('reads the status and enables through the account service', async () => {
    const accounts = {
      twoFactorStatus: vi.fn().mockResolvedValue({ enabled: false }),
      twoFactorSetup: vi.fn().mockResolvedValue(enrolment),
      twoFactorEnable: vi.fn().mockResolvedValue('Enabled'),
      twoFactorDisable: vi.fn(),
    };
    const notify = vi.fn();
    const actor = createActor(bindTwoFactor({ accounts, notify } as unknown as FlowDeps)).start();
    await flush();
    actor.send({ type: 'setup.start' });
    await flush();
    actor.send({ type: 'field.change', name: 'code', value: '123456' });
    actor.send({ type: 'form.submit' });
    await flush();
    expect(accounts.twoFactorEnable).toHaveBeenCalledWith({ code: '123456' });
    expect(selectView(actor.getSnapshot())).toBe('on');
    expect(notify).toHaveBeenCalledExactlyOnceWith({ title: 'Two-factor enabled', description: 'Enabled', type: 'success' });
  });
});
