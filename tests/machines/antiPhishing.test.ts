import { createActor } from 'xstate';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { antiPhishingLogic, bindAntiPhishing } from '../../src/machines/antiPhishing/antiPhishing.actors.ts';
import {
  selectCanRemove,
  selectCanSubmit,
  selectCodeProblem,
  selectCurrentCode,
  selectIsBusy,
  selectRemoval,
  selectView,
} from '../../src/machines/antiPhishing/antiPhishing.selectors.ts';
import { passwordConfirmMachine } from '../../src/machines/passwordConfirm/passwordConfirm.machine.ts';
import {
  selectCanSubmit as selectCanConfirm,
  selectIsBusy as selectIsConfirming,
  selectPassword,
} from '../../src/machines/passwordConfirm/passwordConfirm.selectors.ts';
import { createApi } from '../../src/services/api.ts';
import { scriptedActors } from '../support/machines.ts';

async function start(current: string | null) {
  const fakes = scriptedActors(['loadStatus', 'setCode', 'change']);
  const notices: Notice[] = [];
  const { change, ...calls } = fakes.actors;
  // The removal's password confirmation is the real child chart, its call the fake (its invoke id: `change`).
  const confirmClear = passwordConfirmMachine.provide({ actors: { change: change as never } });
  const actor = createActor(
    antiPhishingLogic.provide({ actors: { ...calls, confirmClear } as never, actions: { notify: (_, notice) => void notices.push(notice) } }),
  ).start();
  expect(selectView(actor.getSnapshot())).toBe('loading');
  await fakes.resolve('loadStatus', { anti_phishing_code: current });
  const type = (name: 'antiPhishingCode' | 'password', value: string) => actor.send({ type: 'field.change', name, value });
  return { actor, fakes, notices, type };
}

describe('anti-phishing code', () => {
  it('setting one: the contract words a bad code, the password is needed, the saved code shows', async () => {
    const { actor, fakes, notices, type } = await start(null);
    expect(selectView(actor.getSnapshot())).toBe('showing');
    expect(selectCurrentCode(actor.getSnapshot())).toBeNull();
    expect(selectCanRemove(actor.getSnapshot())).toBe(false);

    actor.send({ type: 'set.start' });
    expect(selectView(actor.getSnapshot())).toBe('setting');
    expect(selectCodeProblem(actor.getSnapshot())).toBeUndefined();
    type('antiPhishingCode', 'abc');
    expect(selectCodeProblem(actor.getSnapshot())).toBe('Your anti-phishing code needs at least 4 characters');
    type('antiPhishingCode', 'blue <b>');
    expect(selectCodeProblem(actor.getSnapshot())).toBe('Your anti-phishing code may use letters, digits, spaces, - and _ only');
    type('antiPhishingCode', 'x'.repeat(21));
    expect(selectCodeProblem(actor.getSnapshot())).toBe('Your anti-phishing code can have at most 20 characters');
    type('password', 'my-password');
    expect(selectCanSubmit(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'form.submit' });
    expect(fakes.isRunning('setCode')).toBe(false);

    type('antiPhishingCode', ' Blue falcon-7 ');
    expect(selectCodeProblem(actor.getSnapshot())).toBeUndefined();
    type('password', '');
    expect(selectCanSubmit(actor.getSnapshot())).toBe(false);
    type('password', 'my-password');
    expect(selectCanSubmit(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'form.submit' });
    expect(selectIsBusy(actor.getSnapshot())).toBe(true);
    expect(fakes.calls.at(-1)).toEqual({ id: 'setCode', input: { anti_phishing_code: 'Blue falcon-7', password: 'my-password' } });
    await fakes.resolve('setCode', { anti_phishing_code: 'Blue falcon-7' });
    expect(selectView(actor.getSnapshot())).toBe('showing');
    expect(selectCurrentCode(actor.getSnapshot())).toBe('Blue falcon-7');
    expect(actor.getSnapshot().context).toMatchObject({ draft: '', password: '' });
    expect(notices).toEqual([{ title: 'Anti-phishing code saved', type: 'success' }]);
  });

  it('a refused change keeps the typed code and asks for the password again', async () => {
    const { actor, fakes, type } = await start('old code');
    actor.send({ type: 'set.start' });
    type('antiPhishingCode', 'new code');
    type('password', 'wrong');
    actor.send({ type: 'form.submit' });
    await fakes.reject('setCode', new Error('The password is not correct.'));
    expect(selectView(actor.getSnapshot())).toBe('setting');
    expect(actor.getSnapshot().context).toMatchObject({ current: 'old code', draft: 'new code', password: '' });
    actor.send({ type: 'form.cancel' });
    expect(selectView(actor.getSnapshot())).toBe('showing');
    expect(actor.getSnapshot().context).toMatchObject({ current: 'old code', draft: '', password: '' });
  });

  it('removing it asks only for the password, in its password confirmation', async () => {
    const { actor, fakes, notices } = await start('Blue falcon');
    expect(selectCanRemove(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'clear.start' });
    expect(selectView(actor.getSnapshot())).toBe('removing');
    const removal = selectRemoval(actor.getSnapshot())!;
    expect(selectCanConfirm(removal.getSnapshot())).toBe(false);
    removal.send({ type: 'field.change', name: 'password', value: 'my-password' });
    removal.send({ type: 'form.submit' });
    expect(selectIsConfirming(removal.getSnapshot())).toBe(true);
    expect(fakes.calls.at(-1)).toEqual({ id: 'change', input: { password: 'my-password' } });
    await fakes.reject('change', new Error('The password is not correct.'));
    expect(selectView(actor.getSnapshot())).toBe('removing');
    expect(selectPassword(removal.getSnapshot())).toBe('');
    removal.send({ type: 'field.change', name: 'password', value: 'my-password' });
    removal.send({ type: 'form.submit' });
    await fakes.resolve('change', { anti_phishing_code: null });
    expect(selectView(actor.getSnapshot())).toBe('showing');
    expect(selectCurrentCode(actor.getSnapshot())).toBeNull();
    expect(selectCanRemove(actor.getSnapshot())).toBe(false);
    expect(notices).toEqual([{ title: 'Anti-phishing code removed', type: 'success' }]);
  });

  it('cancelling the removal keeps the code', async () => {
    const { actor, fakes, notices } = await start('Blue falcon');
    actor.send({ type: 'clear.start' });
    const removal = selectRemoval(actor.getSnapshot())!;
    removal.send({ type: 'field.change', name: 'password', value: 'my-password' });
    removal.send({ type: 'form.cancel' });
    expect(selectView(actor.getSnapshot())).toBe('showing');
    expect(selectCurrentCode(actor.getSnapshot())).toBe('Blue falcon');
    expect(selectRemoval(actor.getSnapshot())).toBeUndefined();
    expect(fakes.calls.map((call) => call.id)).toEqual(['loadStatus']);
    expect(notices).toEqual([]);
  });

  it('the binding removes it with POST security/anti_phishing/ {type: clear, password}', async () => {
    const bodies: unknown[] = [];
    const answers = [{ anti_phishing_code: 'Blue falcon' }, { anti_phishing_code: null }];
    const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
      bodies.push(JSON.parse(String(init?.body)));
      return new Response(JSON.stringify({ success: true, info: answers[bodies.length - 1] }), { status: 200 });
    };
    const api = createApi({ baseUrl: '/api/', getToken: () => 't', onSessionExpired: () => {}, onError: () => {}, fetch: fetch as typeof globalThis.fetch });
    const notify = vi.fn();
    const actor = createActor(bindAntiPhishing({ api, notify } as unknown as FlowDeps)).start();
    await vi.waitFor(() => expect(selectView(actor.getSnapshot())).toBe('showing'));
    actor.send({ type: 'clear.start' });
    const removal = selectRemoval(actor.getSnapshot())!;
    removal.send({ type: 'field.change', name: 'password', value: 'pw' });
    removal.send({ type: 'form.submit' });
    await vi.waitFor(() => expect(selectCurrentCode(actor.getSnapshot())).toBeNull());
    expect(bodies[1]).toEqual({ type: 'clear', password: 'pw' });
    expect(notify).toHaveBeenCalledWith({ title: 'Anti-phishing code removed', type: 'success' });
  });

  it('the binding speaks POST security/anti_phishing/ as the contract says', async () => {
    const bodies: unknown[] = [];
    const answers = [{ anti_phishing_code: null }, { anti_phishing_code: 'Blue falcon' }];
    const fetch = async (url: string | URL | Request, init?: RequestInit) => {
      expect(String(url)).toBe('/api/security/anti_phishing/');
      bodies.push(JSON.parse(String(init?.body)));
      return new Response(JSON.stringify({ success: true, info: answers[bodies.length - 1] }), { status: 200 });
    };
    const api = createApi({ baseUrl: '/api/', getToken: () => 't', onSessionExpired: () => {}, onError: () => {}, fetch: fetch as typeof globalThis.fetch });
    const notify = vi.fn();
    const actor = createActor(bindAntiPhishing({ api, notify } as unknown as FlowDeps)).start();
    await vi.waitFor(() => expect(selectView(actor.getSnapshot())).toBe('showing'));
    actor.send({ type: 'set.start' });
    actor.send({ type: 'field.change', name: 'antiPhishingCode', value: 'Blue falcon' });
    actor.send({ type: 'field.change', name: 'password', value: 'pw' });
    actor.send({ type: 'form.submit' });
    await vi.waitFor(() => expect(selectCurrentCode(actor.getSnapshot())).toBe('Blue falcon'));
    expect(bodies).toEqual([{ type: 'status' }, { type: 'set', anti_phishing_code: 'Blue falcon', password: 'pw' }]);
    expect(notify).toHaveBeenCalledWith({ title: 'Anti-phishing code saved', type: 'success' });
  });
});
