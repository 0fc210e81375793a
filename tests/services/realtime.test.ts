import type Pusher from 'pusher-js';
import type { Options } from 'pusher-js';
import { describe, expect, it, vi } from 'vitest';
import { createRealtimeService, pusherOptions, RESUBSCRIBE_FIRST_MS, type ConnectionState } from '../../src/services/realtime.ts';

const builtIn = { key: 'peerex', cluster: null, ws_host: null, ws_port: null, force_tls: false };
const page = { hostname: 'peerex.example', port: '3000', protocol: 'http:' };

/** Just enough of pusher-js: channels that record their bindings, and a connection whose state the test moves. */
function fakePusher() {
  type Handler = (...args: never[]) => void;
  const channels = new Map<string, { subscribed: boolean; bindings: Map<string, Set<Handler>>; globals: Set<Handler> }>();
  const stateHandlers = new Set<(change: { current: string }) => void>();
  const errorHandlers = new Set<(error: unknown) => void>();
  const unsubscribed: string[] = [];
  /** Every pusher.subscribe call, by channel name, in order. */
  const subscribeCalls: string[] = [];
  const pusher = {
    connection: {
      state: 'connecting',
      bind: (event: string, handler: (argument: never) => void) => {
        if (event === 'state_change') stateHandlers.add(handler as (change: { current: string }) => void);
        if (event === 'error') errorHandlers.add(handler as (error: unknown) => void);
      },
    },
    connect: vi.fn(),
    subscribe(name: string) {
      subscribeCalls.push(name);
      let channel = channels.get(name);
      if (!channel) {
        const created = { subscribed: false, bindings: new Map<string, Set<Handler>>(), globals: new Set<Handler>() };
        channel = created;
        channels.set(name, created);
      }
      const c = channel;
      return {
        get subscribed() {
          return c.subscribed;
        },
        bind: (event: string, handler: Handler) => c.bindings.set(event, (c.bindings.get(event) ?? new Set()).add(handler)),
        unbind: (event: string, handler: Handler) => c.bindings.get(event)?.delete(handler),
        bind_global: (handler: Handler) => c.globals.add(handler),
        unbind_global: (handler: Handler) => c.globals.delete(handler),
      };
    },
    unsubscribe: (name: string) => {
      unsubscribed.push(name);
      channels.delete(name);
    },
    disconnect: vi.fn(),
  };
  return {
    pusher: pusher as unknown as Pusher,
    unsubscribed,
    subscribeCalls,
    disconnect: pusher.disconnect,
    connect: pusher.connect,
    emit(channelName: string, event: string, data: unknown) {
      const channel = channels.get(channelName);
      for (const handler of channel?.globals ?? []) (handler as (e: string, d: unknown) => void)(event, data);
      for (const handler of channel?.bindings.get(event) ?? []) (handler as (d: unknown) => void)(data);
    },
    succeed(channelName: string) {
      const channel = channels.get(channelName);
      if (!channel) throw new Error(`${channelName} was never subscribed`);
      channel.subscribed = true;
      for (const handler of channel.bindings.get('pusher:subscription_succeeded') ?? []) (handler as () => void)();
    },
    moveTo(current: string) {
      pusher.connection.state = current;
      for (const handler of stateHandlers) handler({ current });
    },
    /** What pusher-js 8 emits when the server closes the socket with `code`: the close, then the action it took. */
    closedWith(code: number) {
      const close = { type: 'PusherError', data: { code, message: 'closed' } };
      for (const handler of errorHandlers) handler(close);
      for (const handler of errorHandlers) handler({ type: 'WebSocketError', error: close });
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function serviceWith(fake = fakePusher(), config: typeof builtIn | null = builtIn, onSessionEnded = vi.fn()) {
  const created: Array<{ key: string; options: Options }> = [];
  const service = createRealtimeService({
    config: Promise.resolve(config),
    authEndpoint: '/api/realtime/auth/',
    getToken: () => 'ws-token',
    location: page,
    onSessionEnded,
    createClient: (key, options) => {
      created.push({ key, options });
      return fake.pusher;
    },
  });
  return { service, fake, created, onSessionEnded };
}

describe('the realtime service', () => {
  it('connects with the first subscription, authorizing channels with the websocket token', async () => {
    const { service, created } = serviceWith();
    expect(created).toHaveLength(0);
    service.subscribe('coin_price', { events: {} });
    await settle();
    expect(created).toHaveLength(1);
    expect(created[0]?.key).toBe('peerex');
    const auth = created[0]?.options.channelAuthorization as { endpoint?: string; headersProvider?: () => unknown } | undefined;
    expect(auth?.endpoint).toBe('/api/realtime/auth/');
    expect(auth?.headersProvider?.()).toEqual({ Authorization: 'Bearer ws-token' });
  });

  it("hands each subscriber the channel's events by name, and stops when it unsubscribes", async () => {
    const { service, fake } = serviceWith();
    const first = vi.fn();
    const second = vi.fn();
    const stopFirst = service.subscribe('private-abc', { events: { new_message: first } });
    service.subscribe('private-abc', { events: { new_message: second, typing: second } });
    await settle();
    fake.emit('private-abc', 'new_message', { id: 1 });
    expect(first).toHaveBeenCalledWith({ id: 1 });
    expect(second).toHaveBeenCalledWith({ id: 1 });
    stopFirst();
    fake.emit('private-abc', 'new_message', { id: 2 });
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(2);
  });

  it('leaves a channel only when its last subscriber is gone', async () => {
    const { service, fake } = serviceWith();
    const stopOne = service.subscribe('private-user-bob', { events: {} });
    const stopTwo = service.subscribe('private-user-bob', { events: {} });
    await settle();
    stopOne();
    stopOne();
    expect(fake.unsubscribed).toEqual([]);
    stopTwo();
    expect(fake.unsubscribed).toEqual(['private-user-bob']);
  });

  it('says subscribed after each (re)subscription, at once to a late subscriber, and reports refusals with their status', async () => {
    const { service, fake } = serviceWith();
    const early = vi.fn();
    const refused = vi.fn();
    service.subscribe('private-abc', { events: {}, onSubscribed: early, onRefused: refused });
    await settle();
    fake.succeed('private-abc');
    fake.succeed('private-abc');
    expect(early).toHaveBeenCalledTimes(2);
    const late = vi.fn();
    service.subscribe('private-abc', { events: {}, onSubscribed: late });
    await settle();
    expect(late).toHaveBeenCalledTimes(1);
    fake.emit('private-abc', 'pusher:subscription_error', { status: 403 });
    expect(refused).toHaveBeenCalledWith(403);
  });

  it('asks again by itself after a refusal that may pass, pausing longer each time, until the channel is accepted', async () => {
    vi.useFakeTimers();
    try {
      const { service, fake } = serviceWith();
      const subscribed = vi.fn();
      service.subscribe('private-user-bob', { events: {}, onSubscribed: subscribed });
      await vi.advanceTimersByTimeAsync(0);
      const asked = () => fake.subscribeCalls.filter((name) => name === 'private-user-bob').length;
      expect(asked()).toBe(1);
      // The auth call did not get through (a process going down): pusher-js says status 0 and gives up.
      fake.emit('private-user-bob', 'pusher:subscription_error', { type: 'AuthError', status: 0 });
      await vi.advanceTimersByTimeAsync(RESUBSCRIBE_FIRST_MS - 1);
      expect(asked()).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(asked()).toBe(2);
      // Busy again: the next pause is twice as long.
      fake.emit('private-user-bob', 'pusher:subscription_error', { type: 'AuthError', status: 503 });
      await vi.advanceTimersByTimeAsync(2 * RESUBSCRIBE_FIRST_MS - 1);
      expect(asked()).toBe(2);
      await vi.advanceTimersByTimeAsync(1);
      expect(asked()).toBe(3);
      fake.succeed('private-user-bob');
      expect(subscribed).toHaveBeenCalledTimes(1);
      // Accepted: the pauses start again from the first.
      fake.emit('private-user-bob', 'pusher:subscription_error', { type: 'AuthError', status: 429 });
      await vi.advanceTimersByTimeAsync(RESUBSCRIBE_FIRST_MS);
      expect(asked()).toBe(4);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not ask again after a refusal that is an answer (401, 403), nor for a channel nobody wants any more', async () => {
    vi.useFakeTimers();
    try {
      const { service, fake } = serviceWith();
      service.subscribe('private-abc', { events: {} });
      const leave = service.subscribe('private-def', { events: {} });
      await vi.advanceTimersByTimeAsync(0);
      fake.emit('private-abc', 'pusher:subscription_error', { type: 'AuthError', status: 403 });
      fake.emit('private-def', 'pusher:subscription_error', { type: 'AuthError', status: 0 });
      leave();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(fake.subscribeCalls).toEqual(['private-abc', 'private-def']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('follows the connection: connecting, connected, offline when unavailable, and offline after disconnect', async () => {
    const { service, fake } = serviceWith();
    const states: ConnectionState[] = [];
    service.watchConnection((state) => states.push(state));
    service.subscribe('coin_price', { events: {} });
    await settle();
    fake.moveTo('connected');
    fake.moveTo('unavailable');
    fake.moveTo('connecting');
    fake.moveTo('connected');
    service.disconnect();
    await settle();
    expect(states).toEqual(['offline', 'connecting', 'connected', 'offline', 'connecting', 'connected', 'offline']);
    expect(fake.disconnect).toHaveBeenCalled();
  });

  it('when the server ends the socket because its session ended (4009), says so once, stays offline and connects no more', async () => {
    const { service, fake, created, onSessionEnded } = serviceWith();
    const states: ConnectionState[] = [];
    service.watchConnection((state) => states.push(state));
    service.subscribe('private-user-bob', { events: {} });
    await settle();
    fake.moveTo('connected');
    fake.closedWith(4009);
    // pusher-js takes 4009 as "refused": it goes disconnected and stays there.
    fake.moveTo('disconnected');
    expect(onSessionEnded).toHaveBeenCalledTimes(1);
    service.subscribe('coin_price', { events: {} });
    await settle();
    expect(created).toHaveLength(1);
    expect(fake.connect).not.toHaveBeenCalled();
    expect(states.at(-1)).toBe('offline');
  });

  it('does not take any other close for an ended session (a deploy\'s 4200, a dropped network)', async () => {
    const { service, fake, onSessionEnded } = serviceWith();
    service.subscribe('coin_price', { events: {} });
    await settle();
    for (const code of [4200, 4100, 1006, 4001]) fake.closedWith(code);
    expect(onSessionEnded).not.toHaveBeenCalled();
  });

  it('stays offline and joins nothing when the configuration could not be read', async () => {
    const { service, created } = serviceWith(fakePusher(), null);
    const states: ConnectionState[] = [];
    service.watchConnection((state) => states.push(state));
    const stop = service.subscribe('coin_price', { events: {} });
    await settle();
    stop();
    expect(created).toEqual([]);
    expect(states).toEqual(['offline']);
  });

  it('joins nothing for a subscription given up before the connection existed', async () => {
    const { service, fake } = serviceWith();
    const handler = vi.fn();
    service.subscribe('coin_price', { events: { price: handler } })();
    await settle();
    fake.emit('coin_price', 'price', {});
    expect(handler).not.toHaveBeenCalled();
  });
});

describe('pusherOptions', () => {
  const auth = { endpoint: '/api/realtime/auth/', transport: 'ajax' as const };

  it("connects to the built-in server on the page's own host and port, TLS when the page is https", () => {
    expect(pusherOptions(builtIn, page, auth)).toMatchObject({ wsHost: 'peerex.example', wsPort: 3000, wssPort: 3000, forceTLS: false, enabledTransports: ['ws', 'wss'] });
    expect(pusherOptions(builtIn, { hostname: 'p.example', port: '', protocol: 'https:' }, auth)).toMatchObject({ wsHost: 'p.example', wssPort: 443, forceTLS: true });
  });

  it('connects to an external server by its host and port, and to hosted Pusher by its cluster alone', () => {
    expect(pusherOptions({ key: 'k', cluster: null, ws_host: 'soketi.example', ws_port: 6001, force_tls: false }, page, auth)).toMatchObject({
      wsHost: 'soketi.example',
      wsPort: 6001,
      forceTLS: false,
    });
    const hosted = pusherOptions({ key: 'k', cluster: 'eu', ws_host: null, ws_port: null, force_tls: true }, page, auth);
    expect(hosted).toMatchObject({ cluster: 'eu', forceTLS: true });
    expect(hosted).not.toHaveProperty('wsHost');
  });
});
