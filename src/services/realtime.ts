import Pusher, { type Channel, type Options } from 'pusher-js';
import type { WebAppConfig } from '../../contracts/index.ts';

/** The connection as a screen may show it: live, trying to come back, or gone for good (signed out, refused). */
export type ConnectionState = 'connecting' | 'connected' | 'offline';

export type EventHandlers = Record<string, (data: unknown) => void>;

export type SubscriptionCallbacks = {
  /** Every event on the channel, by name. */
  events: EventHandlers;
  /** The server accepted the subscription (again after each reconnect). */
  onSubscribed?: () => void;
  /** The auth endpoint or the server refused it (HTTP status when the auth call answered). */
  onRefused?: (status: number | undefined) => void;
};

export type RealtimeServiceOptions = {
  /** From GET /api/config; null when it could not be read, and then nothing is live (the screens say offline). */
  config: WebAppConfig['realtime'] | null;
  /** The auth endpoint, `/api/realtime/auth/`. */
  authEndpoint: string;
  /** The signed-in user's websocket_token, read at each channel authorization. */
  getToken: () => string | null;
  /** Replaces pusher-js (tests). */
  createClient?: (key: string, options: Options) => Pusher;
  /** The page's location: where the built-in server lives when `ws_host` is null. */
  location?: { hostname: string; port: string; protocol: string };
};

const stateOf = (pusherState: string): ConnectionState =>
  pusherState === 'connected' ? 'connected' : pusherState === 'connecting' || pusherState === 'initialized' ? 'connecting' : 'offline';

/**
 * The one pusher-js connection of a signed-in tab (contract.md "Realtime"), as the charts use it. A channel
 * may be wanted by several actors at once (the chat list and the open conversation both listen on the user's
 * channel): subscriptions are counted, each caller unbinds only its own handlers, and the channel is left
 * only when nobody wants it. The socket opens with the first subscription and closes on `disconnect`
 * (sign-out).
 */
export function createRealtimeService(options: RealtimeServiceOptions) {
  let client: Pusher | undefined;
  const wanted = new Map<string, number>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  let state: ConnectionState = 'offline';

  const setState = (next: ConnectionState) => {
    if (next === state) return;
    state = next;
    for (const listener of stateListeners) listener(next);
  };

  function connection(): Pusher | undefined {
    if (client) return client;
    const { config } = options;
    if (!config) return undefined;
    const location = options.location ?? window.location;
    const builtIn = config.ws_host === null && config.cluster === null;
    const tls = builtIn ? location.protocol === 'https:' : config.force_tls;
    const port = config.ws_port ?? (builtIn && location.port ? Number(location.port) : tls ? 443 : 80);
    const pusherOptions: Options = {
      // pusher-js insists on a cluster even when wsHost decides where it connects (realtime.md 1.1).
      cluster: config.cluster ?? 'peerex',
      ...(builtIn || config.ws_host ? { wsHost: config.ws_host ?? location.hostname, wsPort: port, wssPort: port } : {}),
      forceTLS: tls,
      // Only websockets: the HTTP fallbacks would call a third-party host (realtime.md 1.1).
      enabledTransports: ['ws', 'wss'],
      channelAuthorization: {
        endpoint: options.authEndpoint,
        transport: 'ajax',
        headersProvider: () => {
          const token = options.getToken();
          return token ? { Authorization: `Bearer ${token}` } : {};
        },
      },
    };
    client = options.createClient ? options.createClient(config.key, pusherOptions) : new Pusher(config.key, pusherOptions);
    client.connection.bind('state_change', ({ current }: { current: string }) => setState(stateOf(current)));
    setState(stateOf(client.connection.state));
    return client;
  }

  return {
    /** Listens on `channel` until the returned function is called. */
    subscribe(channelName: string, callbacks: SubscriptionCallbacks): () => void {
      const pusher = connection();
      if (!pusher) return () => {};
      const channel: Channel = pusher.subscribe(channelName);
      wanted.set(channelName, (wanted.get(channelName) ?? 0) + 1);
      const onEvent = (event: string, data: unknown) => callbacks.events[event]?.(data);
      const onSubscribed = () => callbacks.onSubscribed?.();
      const onRefused = (error: { status?: number } | undefined) => callbacks.onRefused?.(error?.status);
      channel.bind_global(onEvent);
      channel.bind('pusher:subscription_succeeded', onSubscribed);
      channel.bind('pusher:subscription_error', onRefused);
      // Joined before this caller came: tell it at once, as pusher-js will not say it again.
      if (channel.subscribed) queueMicrotask(onSubscribed);
      let done = false;
      return () => {
        if (done) return;
        done = true;
        channel.unbind_global(onEvent);
        channel.unbind('pusher:subscription_succeeded', onSubscribed);
        channel.unbind('pusher:subscription_error', onRefused);
        const left = (wanted.get(channelName) ?? 1) - 1;
        if (left > 0) wanted.set(channelName, left);
        else {
          wanted.delete(channelName);
          pusher.unsubscribe(channelName);
        }
      };
    },

    /** The connection's state now, and each change until the returned function is called. */
    watchConnection(listener: (state: ConnectionState) => void): () => void {
      stateListeners.add(listener);
      listener(state);
      return () => stateListeners.delete(listener);
    },

    /** Signed out: closes the socket; the next subscription opens a new one with the new token. */
    disconnect() {
      client?.disconnect();
      client = undefined;
      wanted.clear();
      setState('offline');
    },
  };
}

export type RealtimeService = ReturnType<typeof createRealtimeService>;
