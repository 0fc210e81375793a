import { createActor, type AnyMachineSnapshot } from 'xstate';
import type { AllowlistEntry, AllowlistStatus } from '../../contracts/account-protections.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { withdrawalAllowlistLogic } from '../../src/machines/withdrawalAllowlist/withdrawalAllowlist.actors.ts';
import { selectCanSubmit, selectCanToggle } from '../../src/machines/withdrawalAllowlist/withdrawalAllowlist.selectors.ts';
import { Coverage, describePath, replay, scriptedActors, walk, type ModelEvent, type ModelPath } from '../support/machines.ts';

const ADDRESS = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
const cold: AllowlistEntry = {
  id: 7,
  network: 'tron',
  address: ADDRESS,
  label: '',
  created: '2026-11-23T10:00:00.000Z',
  usable_from: '2026-11-24T10:00:00.000Z',
};
const offEmpty: AllowlistStatus = { enabled: false, enforced_until: null, addresses: [], networks: ['bitcoin', 'ethereum', 'tron', 'litecoin'] };
const onListed: AllowlistStatus = { enabled: true, enforced_until: null, addresses: [cold], networks: ['bitcoin', 'ethereum', 'tron', 'litecoin'] };
const offEnforced: AllowlistStatus = { enabled: false, enforced_until: '2026-11-24T10:00:00.000Z', addresses: [cold], networks: ['bitcoin', 'ethereum', 'tron', 'litecoin'] };

function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const { enabled, addresses } = snapshot.context as { enabled: boolean; addresses: AllowlistEntry[] };
  switch (snapshot.value) {
    case 'loading':
      return [
        { type: 'xstate.done.actor.loadStatus', output: offEmpty },
        { type: 'xstate.done.actor.loadStatus', output: onListed },
        { type: 'xstate.error.actor.loadStatus', error: new Error('Internet server error') },
      ];
    case 'unavailable':
      return [{ type: 'status.retry' }];
    case 'ready':
      return [{ type: 'allowlist.enable' }, { type: 'disable.start' }, { type: 'add.start' }, { type: 'address.remove', id: cold.id }];
    case 'enabling':
      return [
        { type: 'xstate.done.actor.enable', output: { enabled: true, enforced_until: null, addresses, networks: ['bitcoin', 'ethereum', 'tron', 'litecoin'] } },
        { type: 'xstate.error.actor.enable', error: new Error('Internet server error') },
      ];
    // The password confirmation (its own chart, tests/model/passwordConfirm.model.test.ts) ends one of two ways.
    case 'confirmingDisable':
      return [
        { type: 'xstate.done.actor.confirmDisable', output: { confirmed: true, result: offEnforced } },
        { type: 'xstate.done.actor.confirmDisable', output: { confirmed: false } },
      ];
    case 'editingAddress':
      return [
        { type: 'field.change', name: 'network', value: 'tron' },
        { type: 'field.change', name: 'address', value: ADDRESS },
        { type: 'field.change', name: 'label', value: 'x'.repeat(41) },
        { type: 'field.change', name: 'password', value: 'pw' },
        { type: 'form.submit' },
        { type: 'form.cancel' },
      ];
    case 'addingAddress':
      return [
        { type: 'xstate.done.actor.addAddress', output: { enabled, enforced_until: null, addresses: [cold], networks: ['bitcoin', 'ethereum', 'tron', 'litecoin'] } },
        { type: 'xstate.error.actor.addAddress', error: new Error('This address is already on your list.') },
      ];
    case 'removing':
      return [
        { type: 'xstate.done.actor.removeAddress', output: { enabled, enforced_until: null, addresses: [], networks: ['bitcoin', 'ethereum', 'tron', 'litecoin'] } },
        { type: 'xstate.error.actor.removeAddress', error: new Error('Internet server error') },
      ];
    default:
      return [];
  }
}

const model = walk(withdrawalAllowlistLogic, { events });
const formStates = ['editingAddress', 'addingAddress'];
const emptyForm = { network: 'bitcoin', address: '', label: '', password: '' };

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['loadStatus', 'enable', 'confirmDisable', 'addAddress', 'removeAddress']);
  const notices: Notice[] = [];
  const actor = createActor(
    withdrawalAllowlistLogic.provide({ actors: fakes.actors as never, actions: { notify: (_, notice) => void notices.push(notice) } }),
    { inspect: coverage?.inspect },
  ).start();
  const expectedCalls: { id: string; input: unknown }[] = [];
  const expectedNotices: Notice[] = [];
  // Nothing read yet: the chart starts with no networks to choose from.
  let status: AllowlistStatus = { ...offEmpty, networks: [] };
  let previousState: string | undefined;
  let previousContext: Record<string, unknown> | undefined;
  await replay(actor, path, fakes, (snapshot, { event }, index) => {
    const state = snapshot.value as string;
    const context = snapshot.context as Record<string, unknown> & { password: string };
    const entered = index === 0 || state !== previousState;
    if (entered) {
      if (state === 'loading') expectedCalls.push({ id: 'loadStatus', input: undefined });
      if (state === 'enabling') expectedCalls.push({ id: 'enable', input: undefined });
      if (state === 'confirmingDisable') expectedCalls.push({ id: 'confirmDisable', input: undefined });
      if (state === 'addingAddress') {
        // Only a whole addition goes out: a network (bitcoin until another is chosen), the address, a label within
        // 40 characters, the password.
        expect(context.label).toBe('');
        expect(['bitcoin', 'tron']).toContain(context.network);
        expectedCalls.push({ id: 'addAddress', input: { network: context.network, address: ADDRESS, label: '', password: 'pw' } });
      }
      if (state === 'removing') expectedCalls.push({ id: 'removeAddress', input: { id: cold.id } });
    }
    if (event.type === 'xstate.done.actor.confirmDisable') {
      const output = event.output as { confirmed: true; result: AllowlistStatus } | { confirmed: false };
      if (output.confirmed) {
        status = output.result;
        expectedNotices.push({ title: 'Withdrawal allowlist off', type: 'success' });
      }
    } else if (event.type.startsWith('xstate.done.actor.')) status = event.output as AllowlistStatus;
    if (event.type === 'xstate.done.actor.enable') expectedNotices.push({ title: 'Withdrawal allowlist on', type: 'success' });
    if (event.type === 'xstate.done.actor.addAddress') expectedNotices.push({ title: 'Address added', type: 'success' });
    // The switch: on only when off (no password), off only when on (the password form).
    if (previousState === 'ready' && event.type === 'allowlist.enable') expect(state).toBe(previousContext!.enabled ? 'ready' : 'enabling');
    if (previousState === 'ready' && event.type === 'disable.start') expect(state).toBe(previousContext!.enabled ? 'confirmingDisable' : 'ready');

    expect({ enabled: context.enabled, enforcedUntil: context.enforcedUntil, addresses: context.addresses, networks: context.networks }).toEqual({
      enabled: status.enabled,
      enforcedUntil: status.enforced_until,
      addresses: status.addresses,
      networks: status.networks,
    });
    expect(snapshot.hasTag('busy')).toBe(['loading', 'enabling', 'addingAddress', 'removing'].includes(state));
    expect(context.removingId).toBe(state === 'removing' ? cold.id : null);
    // The form and its password live only inside a change; a form opens empty; a refusal asks for the password again.
    if (!formStates.includes(state)) expect({ network: context.network, address: context.address, label: context.label, password: context.password }).toEqual(emptyForm);
    if (entered && previousState === 'ready' && formStates.includes(state)) {
      expect({ network: context.network, address: context.address, label: context.label, password: context.password }).toEqual(emptyForm);
    }
    if (event.type.startsWith('xstate.error.actor.') && formStates.includes(state)) expect(context.password).toBe('');
    const canSubmit =
      (state === 'editingAddress' && ['bitcoin', 'tron'].includes(context.network as string) && context.address === ADDRESS && context.label === '' && context.password !== '');
    expect(selectCanSubmit(snapshot as never)).toBe(canSubmit);
    expect(selectCanToggle(snapshot as never)).toBe(state === 'ready');
    previousState = state;
    previousContext = context;
  });
  expect(fakes.calls).toEqual(expectedCalls);
  expect(notices).toEqual(expectedNotices);
  actor.stop();
}

describe('withdrawal allowlist: every path through the chart', () => {
  it('has a graph to walk', () => {
    expect(model.states).toBeGreaterThan(30);
  });

  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(path);
  });

  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(withdrawalAllowlistLogic);
    for (const path of model.paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices what the walk leaves out', async () => {
    const coverage = new Coverage(withdrawalAllowlistLogic);
    for (const path of model.paths.filter((path) => !path.steps.some(({ event }) => event.type === 'address.remove'))) await run(path, coverage);
    expect(coverage.missingStates(), 'Without removing an address, its call is never reached').toEqual(['withdrawalAllowlist.removing']);
    expect(coverage.missingTransitions()).toEqual([
      'withdrawalAllowlist.ready —address.remove#0→ withdrawalAllowlist.removing',
      'withdrawalAllowlist.removing —xstate.done.actor.removeAddress#0→ withdrawalAllowlist.ready',
      'withdrawalAllowlist.removing —xstate.error.actor.removeAddress#0→ withdrawalAllowlist.ready',
    ]);
  });
});
