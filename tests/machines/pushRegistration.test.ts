import { createActor } from 'xstate';
import { bindPushRegistration } from '../../src/machines/pushRegistration/pushRegistration.actors.ts';
import { pushRegistrationMachine } from '../../src/machines/pushRegistration/pushRegistration.machine.ts';
import {
  selectCanEnable,
  selectFailure,
  selectIsBusy,
  selectPushView,
} from '../../src/machines/pushRegistration/pushRegistration.selectors.ts';
import { PushRegistrationFailed, type PushPermission } from '../../src/services/push.ts';
import { flush } from '../support/machines.ts';
import { fakePush } from '../support/fakePushService.ts';

/** The chart as the session invokes it: bound to a push service, with the signed-in username as input. */
async function start(options: { supported?: boolean; permission?: PushPermission } = {}) {
  const push = fakePush(options);
  const actor = createActor(bindPushRegistration(push.service), { input: { username: 'alice' } }).start();
  await flush();
  const shown = () => {
    const snapshot = actor.getSnapshot();
    return { view: selectPushView(snapshot), canEnable: selectCanEnable(snapshot), busy: selectIsBusy(snapshot) };
  };
  return { actor, push, shown };
}

describe('push registration', () => {
  it('with permission already granted registers by itself under the username, no prompt', async () => {
    const { push, shown } = await start({ permission: 'granted' });
    expect(shown()).toEqual({ view: 'registering', canEnable: false, busy: true });
    expect(push.spies.requestPermission).not.toHaveBeenCalled();
    expect(push.registrations.map((call) => call.username)).toEqual(['alice']);
    push.registrations[0]!.resolve();
    await flush();
    expect(shown()).toEqual({ view: 'registered', canEnable: false, busy: false });
  });

  it('with the prompt required waits for the button, then asks, then registers', async () => {
    const { actor, push, shown } = await start({ permission: 'default' });
    expect(shown()).toEqual({ view: 'promptRequired', canEnable: true, busy: false });
    // Nothing is asked without a gesture: browsers refuse prompts that are not.
    expect(push.spies.requestPermission).not.toHaveBeenCalled();
    expect(push.spies.register).not.toHaveBeenCalled();

    actor.send({ type: 'push.enable' });
    expect(shown()).toEqual({ view: 'askingPermission', canEnable: false, busy: true });
    expect(push.spies.requestPermission).toHaveBeenCalledOnce();
    push.prompts[0]!.resolve('granted');
    await flush();
    expect(shown().view).toBe('registering');
    expect(push.registrations.map((call) => call.username)).toEqual(['alice']);
    push.registrations[0]!.resolve();
    await flush();
    expect(shown()).toEqual({ view: 'registered', canEnable: false, busy: false });
  });

  it('a prompt answered "block" ends in denied, which no button can change', async () => {
    const { actor, push, shown } = await start({ permission: 'default' });
    actor.send({ type: 'push.enable' });
    push.prompts[0]!.resolve('denied');
    await flush();
    expect(shown()).toEqual({ view: 'denied', canEnable: false, busy: false });
    actor.send({ type: 'push.enable' });
    expect(push.spies.requestPermission).toHaveBeenCalledOnce();
    expect(push.spies.register).not.toHaveBeenCalled();
  });

  it('a dismissed prompt (or one that fails) may be asked again', async () => {
    const { actor, push, shown } = await start({ permission: 'default' });
    actor.send({ type: 'push.enable' });
    push.prompts[0]!.resolve('default');
    await flush();
    expect(shown()).toEqual({ view: 'promptRequired', canEnable: true, busy: false });
    actor.send({ type: 'push.enable' });
    push.prompts[1]!.reject(new Error('prompt failed'));
    await flush();
    expect(shown().view).toBe('promptRequired');
    expect(push.spies.register).not.toHaveBeenCalled();
  });

  it('a permission denied before stays denied and asks nothing', async () => {
    const { push, shown } = await start({ permission: 'denied' });
    expect(shown()).toEqual({ view: 'denied', canEnable: false, busy: false });
    expect(push.spies.requestPermission).not.toHaveBeenCalled();
    expect(push.spies.register).not.toHaveBeenCalled();
  });

  it('an unsupported browser stays quiet: no prompt, no registration, no button', async () => {
    const { actor, push, shown } = await start({ supported: false, permission: 'granted' });
    expect(shown()).toEqual({ view: 'unsupported', canEnable: false, busy: false });
    actor.send({ type: 'push.enable' });
    expect(push.spies.requestPermission).not.toHaveBeenCalled();
    expect(push.spies.register).not.toHaveBeenCalled();
  });

  it('a browser whose support cannot be read is treated as unsupported', async () => {
    const push = fakePush({ permission: 'granted' });
    push.spies.support.mockRejectedValueOnce(new Error('no window'));
    const actor = createActor(bindPushRegistration(push.service), { input: { username: 'alice' } }).start();
    await flush();
    expect(selectPushView(actor.getSnapshot())).toBe('unsupported');
  });

  it('a failed registration is granted but not registered, keeps why, and the button retries', async () => {
    const { actor, push, shown } = await start({ permission: 'granted' });
    push.registrations[0]!.reject(new PushRegistrationFailed('browser', new DOMException('Registration failed - push service error', 'AbortError')));
    await flush();
    expect(shown()).toEqual({ view: 'notRegistered', canEnable: true, busy: false });
    expect(selectFailure(actor.getSnapshot())).toBe('browser');
    expect(actor.getSnapshot().hasTag('error')).toBe(true);

    actor.send({ type: 'push.enable' });
    expect(shown().view).toBe('registering');
    expect(selectFailure(actor.getSnapshot())).toBeNull();
    expect(push.spies.requestPermission, 'permission is already granted: no second prompt').not.toHaveBeenCalled();
    push.registrations[1]!.resolve();
    await flush();
    expect(shown().view).toBe('registered');
    expect(push.registrations.map((call) => call.username)).toEqual(['alice', 'alice']);
  });

  it('a failure that gives no reason counts as the service\'s', async () => {
    const { actor, push } = await start({ permission: 'granted' });
    push.registrations[0]!.reject('nope');
    await flush();
    expect(selectFailure(actor.getSnapshot())).toBe('service');
  });

  it('a registration refused because notifications are blocked is denied, which no button can change', async () => {
    const { actor, push, shown } = await start({ permission: 'granted' });
    push.registrations[0]!.reject(new PushRegistrationFailed('denied', new DOMException('Registration failed - permission denied', 'NotAllowedError')));
    await flush();
    expect(shown()).toEqual({ view: 'denied', canEnable: false, busy: false });
    expect(selectFailure(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'push.enable' });
    expect(push.registrations).toHaveLength(1);
  });

  it('the unbound chart loads on its own (as in the visualizer) and says unsupported', async () => {
    const actor = createActor(pushRegistrationMachine, { input: { username: 'alice' } }).start();
    await flush();
    expect(selectPushView(actor.getSnapshot())).toBe('unsupported');
  });
});
