import { createActor } from 'xstate';
import type { AllowlistEntry, AllowlistStatus } from '../../contracts/account-protections.ts';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { bindWithdrawalAllowlist, withdrawalAllowlistLogic } from '../../src/machines/withdrawalAllowlist/withdrawalAllowlist.actors.ts';
import {
  isWaiting,
  selectCanAdd,
  selectCanSubmit,
  selectCanToggle,
  selectDisabling,
  selectIsBusy,
  selectLabelProblem,
  selectView,
} from '../../src/machines/withdrawalAllowlist/withdrawalAllowlist.selectors.ts';
import { passwordConfirmMachine } from '../../src/machines/passwordConfirm/passwordConfirm.machine.ts';
import { selectCanSubmit as selectCanConfirm, selectPassword } from '../../src/machines/passwordConfirm/passwordConfirm.selectors.ts';
import { createApi } from '../../src/services/api.ts';
import { scriptedActors } from '../support/machines.ts';

const cold: AllowlistEntry = {
  id: 7,
  network: 'tron',
  address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
  label: 'cold wallet',
  created: '2026-11-20T10:00:00.000Z',
  usable_from: '2026-11-21T10:00:00.000Z',
};
const off: AllowlistStatus = { enabled: false, enforced_until: null, addresses: [], networks: ['bitcoin', 'ethereum', 'tron', 'litecoin'] };

async function start(status: AllowlistStatus) {
  const fakes = scriptedActors(['loadStatus', 'enable', 'change', 'addAddress', 'removeAddress']);
  const notices: Notice[] = [];
  const { change, ...calls } = fakes.actors;
  // Turning off is confirmed by the real password confirmation chart, its call the fake (its invoke id: `change`).
  const confirmDisable = passwordConfirmMachine.provide({ actors: { change: change as never } });
  const actor = createActor(
    withdrawalAllowlistLogic.provide({ actors: { ...calls, confirmDisable } as never, actions: { notify: (_, notice) => void notices.push(notice) } }),
  ).start();
  expect(selectView(actor.getSnapshot())).toBe('loading');
  await fakes.resolve('loadStatus', status);
  const type = (name: 'network' | 'address' | 'label' | 'password', value: string) => actor.send({ type: 'field.change', name, value });
  return { actor, fakes, notices, type };
}

describe('withdrawal allowlist', () => {
  it('turning it on happens at once, without the password', async () => {
    const { actor, fakes, notices } = await start(off);
    expect(selectCanToggle(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'disable.start' });
    expect(selectView(actor.getSnapshot())).toBe('list');
    actor.send({ type: 'allowlist.enable' });
    expect(selectIsBusy(actor.getSnapshot())).toBe(true);
    expect(fakes.calls.at(-1)).toEqual({ id: 'enable', input: undefined });
    await fakes.resolve('enable', { enabled: true, enforced_until: null, addresses: [], networks: ['bitcoin', 'ethereum', 'tron', 'litecoin'] });
    expect(actor.getSnapshot().context.enabled).toBe(true);
    expect(notices).toEqual([{ title: 'Withdrawal allowlist on', type: 'success' }]);
    // Already on: the switch's "on" is not taken again.
    actor.send({ type: 'allowlist.enable' });
    expect(fakes.calls).toHaveLength(2);
  });

  it('turning it off asks for the password and shows until when it stays enforced', async () => {
    const { actor, fakes, type } = await start({ enabled: true, enforced_until: null, addresses: [cold], networks: ['bitcoin', 'ethereum', 'tron', 'litecoin'] });
    actor.send({ type: 'disable.start' });
    expect(selectView(actor.getSnapshot())).toBe('disabling');
    expect(selectCanSubmit(actor.getSnapshot())).toBe(false);
    type('address', 'ignored');
    expect(actor.getSnapshot().context.address).toBe('');
    const confirmation = selectDisabling(actor.getSnapshot())!;
    expect(selectCanConfirm(confirmation.getSnapshot())).toBe(false);
    confirmation.send({ type: 'field.change', name: 'password', value: 'wrong' });
    confirmation.send({ type: 'form.submit' });
    expect(fakes.calls.at(-1)).toEqual({ id: 'change', input: { password: 'wrong' } });
    await fakes.reject('change', new Error('The password is not correct.'));
    expect(selectView(actor.getSnapshot())).toBe('disabling');
    expect(selectPassword(confirmation.getSnapshot())).toBe('');
    confirmation.send({ type: 'field.change', name: 'password', value: 'right' });
    confirmation.send({ type: 'form.submit' });
    await fakes.resolve('change', { enabled: false, enforced_until: '2026-11-25T10:00:00.000Z', addresses: [cold], networks: ['bitcoin', 'ethereum', 'tron', 'litecoin'] });
    expect(selectView(actor.getSnapshot())).toBe('list');
    expect(actor.getSnapshot().context).toMatchObject({ enabled: false, enforcedUntil: '2026-11-25T10:00:00.000Z', password: '' });
  });

  it('adding an address: network, address, an optional label within the contract, and the password', async () => {
    const { actor, fakes, notices, type } = await start({ enabled: true, enforced_until: null, addresses: [], networks: ['bitcoin', 'ethereum', 'tron', 'litecoin'] });
    expect(selectCanAdd(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'add.start' });
    expect(selectView(actor.getSnapshot())).toBe('adding');
    expect(actor.getSnapshot().context.network).toBe('bitcoin');
    type('network', 'tron');
    type('address', ` ${cold.address} `);
    expect(selectCanSubmit(actor.getSnapshot())).toBe(false);
    type('password', 'pw');
    expect(selectCanSubmit(actor.getSnapshot())).toBe(true);
    type('label', 'x'.repeat(41));
    expect(selectLabelProblem(actor.getSnapshot())).toBe('label can have at most 40 characters');
    expect(selectCanSubmit(actor.getSnapshot())).toBe(false);
    type('label', 'cold wallet ');
    expect(selectLabelProblem(actor.getSnapshot())).toBeUndefined();
    type('address', '   ');
    expect(selectCanSubmit(actor.getSnapshot())).toBe(false);
    type('address', cold.address);
    actor.send({ type: 'form.submit' });
    expect(fakes.calls.at(-1)).toEqual({
      id: 'addAddress',
      input: { network: 'tron', address: cold.address, label: 'cold wallet', password: 'pw' },
    });
    await fakes.reject('addAddress', new Error('The password is not correct.'));
    expect(actor.getSnapshot().context).toMatchObject({ network: 'tron', address: cold.address, label: 'cold wallet ', password: '' });
    type('password', 'pw');
    actor.send({ type: 'form.submit' });
    await fakes.resolve('addAddress', { enabled: true, enforced_until: null, addresses: [cold], networks: ['bitcoin', 'ethereum', 'tron', 'litecoin'] });
    expect(selectView(actor.getSnapshot())).toBe('list');
    expect(actor.getSnapshot().context).toMatchObject({ addresses: [cold], network: 'bitcoin', address: '', label: '', password: '' });
    expect(notices).toEqual([{ title: 'Address added', type: 'success' }]);
  });

  it('removing an address happens at once, and marks the one being removed', async () => {
    const { actor, fakes } = await start({ enabled: true, enforced_until: null, addresses: [cold], networks: ['bitcoin', 'ethereum', 'tron', 'litecoin'] });
    actor.send({ type: 'address.remove', id: cold.id });
    expect(actor.getSnapshot().context.removingId).toBe(cold.id);
    expect(selectCanAdd(actor.getSnapshot())).toBe(false);
    expect(fakes.calls.at(-1)).toEqual({ id: 'removeAddress', input: { id: cold.id } });
    await fakes.resolve('removeAddress', { enabled: true, enforced_until: null, addresses: [], networks: ['bitcoin', 'ethereum', 'tron', 'litecoin'] });
    expect(actor.getSnapshot().context).toMatchObject({ addresses: [], removingId: null });
  });

  it('an address waits until its usable_from', () => {
    expect(isWaiting(cold, Date.parse('2026-11-21T09:59:59.000Z'))).toBe(true);
    expect(isWaiting(cold, Date.parse('2026-11-21T10:00:00.000Z'))).toBe(false);
  });

  it('the binding speaks POST security/withdrawal_allowlist/ as the contract says', async () => {
    const bodies: unknown[] = [];
    const answers = [off, { ...off, enabled: true }, { enabled: true, enforced_until: null, addresses: [cold], networks: ['bitcoin', 'ethereum', 'tron', 'litecoin'] }];
    const fetch = async (url: string | URL | Request, init?: RequestInit) => {
      expect(String(url)).toBe('/api/security/withdrawal_allowlist/');
      bodies.push(JSON.parse(String(init?.body)));
      return new Response(JSON.stringify({ success: true, info: answers[bodies.length - 1] }), { status: 200 });
    };
    const api = createApi({ baseUrl: '/api/', getToken: () => 't', onSessionExpired: () => {}, onError: () => {}, fetch: fetch as typeof globalThis.fetch });
    const actor = createActor(bindWithdrawalAllowlist({ api, notify: () => {} } as unknown as FlowDeps)).start();
    await vi.waitFor(() => expect(selectView(actor.getSnapshot())).toBe('list'));
    actor.send({ type: 'allowlist.enable' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.enabled).toBe(true));
    actor.send({ type: 'add.start' });
    actor.send({ type: 'field.change', name: 'network', value: 'tron' });
    actor.send({ type: 'field.change', name: 'address', value: cold.address });
    actor.send({ type: 'field.change', name: 'label', value: 'cold wallet' });
    actor.send({ type: 'field.change', name: 'password', value: 'pw' });
    actor.send({ type: 'form.submit' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.addresses).toEqual([cold]));
    expect(bodies).toEqual([
      { type: 'status' },
      { type: 'enable' },
      { type: 'add', network: 'tron', address: cold.address, label: 'cold wallet', password: 'pw' },
    ]);
  });
});
