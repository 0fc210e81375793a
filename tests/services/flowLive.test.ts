import { createActor } from 'xstate';
import { bindLogin } from '../../src/machines/login/login.actors.ts';
import { createLiveInspector, listenToLivePages, parseLiveMessage, type LiveActor, type LiveEvent } from '../../src/services/flowLive.ts';
import { tradeDialogMachine } from '../../src/machines/tradeDialog/tradeDialog.machine.ts';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';

/** Two ends of one channel, as two tabs have; every test gets its own channel name. */
function channels() {
  const name = `flow-atlas-test-${Math.random()}`;
  const opened: BroadcastChannel[] = [];
  const open = () => {
    const channel = new BroadcastChannel(name);
    opened.push(channel);
    return channel;
  };
  const raw: unknown[] = [];
  const spy = open();
  spy.onmessage = (message) => raw.push(message.data);
  return { open, raw, close: () => opened.forEach((channel) => channel.close()) };
}

function atlas(open: () => BroadcastChannel) {
  const actors = new Map<string, LiveActor>();
  const events: LiveEvent[] = [];
  const gone: string[] = [];
  const stop = listenToLivePages(
    { actor: (actor) => actors.set(actor.key, actor), gone: (key) => void gone.push(key), event: (event) => void events.push(event) },
    open(),
  );
  return { actors, events, gone, stop };
}

const until = async (check: () => boolean) => {
  await vi.waitFor(() => expect(check()).toBe(true));
};

describe('live mode of the flow atlas', () => {
  it('shows where an actor of the page is, the types of its events, and when it is gone', async () => {
    const { open, close } = channels();
    const watcher = atlas(open);
    const inspect = createLiveInspector([], open(), () => '/offers');
    const dialog = createActor(tradeDialogMachine, { inspect }).start();
    await until(() => [...watcher.actors.values()].some((actor) => actor.chart === 'tradeDialog'));
    const key = [...watcher.actors.keys()][0]!;
    expect(watcher.actors.get(key)).toMatchObject({ chart: 'tradeDialog', active: ['tradeDialog', 'tradeDialog.closed'], page: '/offers' });
    dialog.send({ type: 'dialog.close' });
    await until(() => watcher.events.some((event) => event.type === 'dialog.close'));
    dialog.stop();
    await until(() => watcher.gone.includes(key));
    watcher.stop();
    close();
  });

  it('announces the running actors again when an atlas opens later', async () => {
    const { open, close } = channels();
    const inspect = createLiveInspector([], open(), () => '/offers');
    createActor(tradeDialogMachine, { inspect }).start();
    const late = atlas(open);
    await until(() => late.actors.size === 1);
    late.stop();
    close();
  });

  it('never posts what the trader typed: event types only, no context', async () => {
    const { open, raw, close } = channels();
    const watcher = atlas(open);
    const inspect = createLiveInspector([], open(), () => '/login');
    const login = createActor(bindLogin({ notify: () => {}, signIn: () => {} } as unknown as FlowDeps), { inspect }).start();
    login.send({ type: 'field.change', name: 'password', value: 'correct horse battery staple' });
    login.send({ type: 'field.change', name: 'username', value: 'alice' });
    await until(() => watcher.events.length >= 2);
    expect(JSON.stringify(raw)).not.toContain('correct horse');
    expect(JSON.stringify(raw)).not.toContain('alice');
    login.stop();
    watcher.stop();
    close();
  });

  it('ignores malformed messages from other tabs', () => {
    expect(parseLiveMessage(null)).toBeNull();
    expect(parseLiveMessage({ kind: 'actor', actor: { key: 'k', chart: 'c', active: 'x', page: '/' } })).toBeNull();
    expect(parseLiveMessage({ kind: 'actor', actor: { key: 'k', chart: 'c', active: [1], page: '/' } })).toBeNull();
    expect(parseLiveMessage({ kind: 'event', event: { key: 'k', chart: 'c', type: 'x'.repeat(501), at: 'now' } })).toBeNull();
    expect(parseLiveMessage({ kind: 'gone', key: '' })).toBeNull();
    expect(parseLiveMessage({ kind: 'who knows' })).toBeNull();
    expect(parseLiveMessage({ kind: 'actor', actor: { key: 'k', chart: 'c', active: ['c'], page: '/', extra: 'dropped' } })).toEqual({
      kind: 'actor',
      actor: { key: 'k', chart: 'c', active: ['c'], page: '/' },
    });
  });
});

describe('the atlas tab itself', () => {
  it('posts nothing about its own actors, which would feed its live list back to itself', async () => {
    const { open, raw, close } = channels();
    const inspect = createLiveInspector([], open(), () => '/flows');
    const dialog = createActor(tradeDialogMachine, { inspect }).start();
    dialog.send({ type: 'dialog.close' });
    // A page elsewhere is heard on the same channel, so the silence above is not the channel's.
    createActor(tradeDialogMachine, { inspect: createLiveInspector([], open(), () => '/offers') }).start();
    await until(() => raw.length > 0);
    expect(raw.every((message) => JSON.stringify(message).includes('/offers') || (message as { kind: string }).kind !== 'actor')).toBe(true);
    expect(raw.filter((message) => (message as { kind: string }).kind === 'event').every((message) => !JSON.stringify(message).includes('dialog.close'))).toBe(true);
    close();
  });
});
