import { createActor } from 'xstate';
import type { SignInEntry } from '../../contracts/account-protections.ts';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import { bindSignInHistory } from '../../src/machines/signInHistory/signInHistory.actors.ts';
import { signInHistoryMachine } from '../../src/machines/signInHistory/signInHistory.machine.ts';
import {
  selectCanConfirm,
  selectCanSignOutOthers,
  selectIsBusy,
  selectIsDialogOpen,
  selectMessage,
  selectSessions,
  selectView,
} from '../../src/machines/signInHistory/signInHistory.selectors.ts';
import { createApi } from '../../src/services/api.ts';
import { flush, scriptedActors } from '../support/machines.ts';

const entry = (id: number, current: boolean, active: boolean): SignInEntry => ({
  id,
  created: `2026-11-2${id}T10:00:00.000Z`,
  last_used: `2026-11-2${id}T10:00:00.000Z`,
  device: current ? 'Chrome on Linux (desktop)' : 'Safari on iOS (phone)',
  ip: current ? '203.0.113.7' : '',
  current,
  active,
});
const mine = entry(3, true, true);
const phone = entry(2, false, true);
const ended = entry(1, false, false);

async function start(sessions: SignInEntry[]) {
  const fakes = scriptedActors(['loadHistory', 'signOutOthers']);
  const actor = createActor(signInHistoryMachine.provide({ actors: fakes.actors as never })).start();
  expect(selectView(actor.getSnapshot())).toBe('loading');
  await fakes.resolve('loadHistory', { sessions });
  return { actor, fakes };
}

describe('sign-in history', () => {
  it('lists the sign-ins; "Sign out everywhere else" asks first, then shows the answer and the list read again', async () => {
    const { actor, fakes } = await start([mine, phone, ended]);
    expect(selectView(actor.getSnapshot())).toBe('list');
    expect(selectSessions(actor.getSnapshot())).toEqual([mine, phone, ended]);
    expect(selectCanSignOutOthers(actor.getSnapshot())).toBe(true);
    expect(selectIsDialogOpen(actor.getSnapshot())).toBe(false);

    actor.send({ type: 'signOutOthers.start' });
    expect(selectIsDialogOpen(actor.getSnapshot())).toBe(true);
    expect(fakes.isRunning('signOutOthers')).toBe(false);
    actor.send({ type: 'signOutOthers.confirm' });
    expect(selectIsBusy(actor.getSnapshot())).toBe(true);
    // While the call runs the dialog stays and refuses to close.
    actor.send({ type: 'dialog.dismiss' });
    expect(selectIsDialogOpen(actor.getSnapshot())).toBe(true);
    expect(selectCanConfirm(actor.getSnapshot())).toBe(false);

    await fakes.resolve('signOutOthers', { message: 'Signed out 1 other session.', signed_out: 1 });
    expect(selectIsDialogOpen(actor.getSnapshot())).toBe(false);
    expect(selectMessage(actor.getSnapshot())).toBe('Signed out 1 other session.');
    // The old list stays on screen while the new one is read.
    expect(selectView(actor.getSnapshot())).toBe('list');
    expect(fakes.isRunning('loadHistory')).toBe(true);
    const after = [mine, { ...phone, active: false }, ended];
    await fakes.resolve('loadHistory', { sessions: after });
    expect(selectSessions(actor.getSnapshot())).toEqual(after);
    expect(selectMessage(actor.getSnapshot())).toBe('Signed out 1 other session.');
    expect(selectCanSignOutOthers(actor.getSnapshot())).toBe(false);
    expect(fakes.calls.map((call) => call.id)).toEqual(['loadHistory', 'signOutOthers', 'loadHistory']);
  });

  it('offers nothing to sign out when this browser is the only active session', async () => {
    const { actor } = await start([mine, ended]);
    expect(selectCanSignOutOthers(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'signOutOthers.start' });
    expect(selectIsDialogOpen(actor.getSnapshot())).toBe(false);
  });

  it('cancelling the dialog changes nothing; a refused sign-out closes it and keeps the list', async () => {
    const { actor, fakes } = await start([mine, phone]);
    actor.send({ type: 'signOutOthers.start' });
    actor.send({ type: 'dialog.dismiss' });
    expect(selectIsDialogOpen(actor.getSnapshot())).toBe(false);
    expect(fakes.calls).toHaveLength(1);

    actor.send({ type: 'signOutOthers.start' });
    actor.send({ type: 'signOutOthers.confirm' });
    await fakes.reject('signOutOthers', new Error('Internet server error'));
    expect(selectIsDialogOpen(actor.getSnapshot())).toBe(false);
    expect(selectSessions(actor.getSnapshot())).toEqual([mine, phone]);
    expect(selectMessage(actor.getSnapshot())).toBeNull();
    expect(selectCanSignOutOthers(actor.getSnapshot())).toBe(true);
  });

  it('a history that cannot be read can be asked for again', async () => {
    const fakes = scriptedActors(['loadHistory', 'signOutOthers']);
    const actor = createActor(signInHistoryMachine.provide({ actors: fakes.actors as never })).start();
    await fakes.reject('loadHistory', new Error('Internet server error'));
    expect(selectView(actor.getSnapshot())).toBe('unavailable');
    actor.send({ type: 'history.retry' });
    expect(selectView(actor.getSnapshot())).toBe('loading');
    await fakes.resolve('loadHistory', { sessions: [mine] });
    expect(selectView(actor.getSnapshot())).toBe('list');
  });

  it('the binding calls POST security/sessions/ with list and sign_out_others, and parses the answers by the contract', async () => {
    const bodies: unknown[] = [];
    const answers = [{ sessions: [mine, phone] }, { message: 'Signed out 1 other session.', signed_out: 1 }, { sessions: [mine] }];
    const fetch = async (url: string | URL | Request, init?: RequestInit) => {
      expect(String(url)).toBe('/api/security/sessions/');
      bodies.push(JSON.parse(String(init?.body)));
      return new Response(JSON.stringify({ success: true, info: answers[bodies.length - 1] }), { status: 200 });
    };
    const api = createApi({ baseUrl: '/api/', getToken: () => 't', onSessionExpired: () => {}, onError: () => {}, fetch: fetch as typeof globalThis.fetch });
    const actor = createActor(bindSignInHistory({ api } as unknown as FlowDeps)).start();
    await vi.waitFor(() => expect(selectSessions(actor.getSnapshot())).toEqual([mine, phone]));
    actor.send({ type: 'signOutOthers.start' });
    actor.send({ type: 'signOutOthers.confirm' });
    await vi.waitFor(() => expect(selectSessions(actor.getSnapshot())).toEqual([mine]));
    await flush();
    expect(bodies).toEqual([{ type: 'list' }, { type: 'sign_out_others' }, { type: 'list' }]);
    expect(selectMessage(actor.getSnapshot())).toBe('Signed out 1 other session.');
  });
});
