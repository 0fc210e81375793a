import type Pusher from 'pusher-js';
import type { Channel, Options } from 'pusher-js';
import type { WebAppConfig } from '../../contracts/index.ts';

/** The connection as a screen may show it: live, trying to come back, or gone (signed out, refused, no config). */
export type ConnectionState = 'connecting' | 'connected' | 'offline';

export type EventHandlers = Record<string, (data: unknown) => void>;

export type SubscriptionCallbacks = {
  /** Every event on the channel, by name. */
  events: EventHandlers;
  /** The server accepted the subscription (again after each reconnect). */
  onSubscribed?: () => void;
  /**
   * The auth endpoint or the server refused it (HTTP status when the auth call answered). A refusal that may
   * pass (`refusalMayPass`) is asked again by the service itself; `onSubscribed` follows when it succeeds.
   */
  onRefused?: (status: number | undefined) => void;
};

type RealtimeConfig = WebAppConfig['realtime'] | null;

export type RealtimeServiceOptions = {
  /**
   * From GET /api/config, read at boot; null when it could not be read, and then nothing is live (the screens
   * say offline). A promise, so the first page renders without waiting for it.
   */
  config: RealtimeConfig | Promise<RealtimeConfig>;
  /** The auth endpoint, `/api/realtime/auth/`. */
  authEndpoint: string;
  /** The signed-in user's websocket_token, read at each channel authorization. */
  getToken: () => string | null;
  /** Replaces pusher-js (tests). Default: pusher-js, downloaded with the first subscription, not with the first page. */
  createClient?: (key: string, options: Options) => Pusher | Promise<Pusher>;
  /** The page's location: where the built-in server lives when `ws_host` is null. */
  location?: { hostname: string; port: string; protocol: string };
  /**
   * The server closed the socket because the session that authorized it ended (signed out here or everywhere
   * else, a password reset, a role change): pusher-js stays disconnected, and the caller asks the server, whose
   * 401 signs the trader out.
   */
  onSessionEnded?: () => void;
};

/** The close code of a socket whose session ended (pusher-js takes it as "refused" and does not reconnect). */
export const SESSION_ENDED_CLOSE_CODE = 4009;

/** The close code in a pusher-js connection error: its own (`PusherError`), or the one it wraps (`WebSocketError`). */
const closeCodeOf = (error: unknown): number | undefined => {
  const { data, error: inner } = (error ?? {}) as { data?: { code?: unknown }; error?: { data?: { code?: unknown } } };
  const code = data?.code ?? inner?.data?.code;
  return typeof code === 'number' ? code : undefined;
};

/**
 * Whether a refused subscription may be accepted if asked again: the auth call did not get through (no
 * status: a process going down, the network) or the server was busy. pusher-js asks again only after its next
 * reconnect, which may never come, so the service asks again itself. A 401 or 403 is an answer, not a hiccup.
 */
export const refusalMayPass = (status: number | undefined) => !status || status === 408 || status === 429 || status >= 500;

/** The first pause before asking again after a refusal that may pass; it doubles up to the last. */
export const RESUBSCRIBE_FIRST_MS = 1_000;
export const RESUBSCRIBE_LAST_MS = 30_000;

const stateOf = (pusherState: string): ConnectionState =>
  pusherState === 'connected' ? 'connected' : pusherState === 'connecting' || pusherState === 'initialized' ? 'connecting' : 'offline';

/** pusher-js options for a deployment (docs/api.md "Realtime"; docs/pusher-and-beams.md "Client configuration"). */
export function pusherOptions(config: WebAppConfig['realtime'], location: { hostname: string; port: string; protocol: string }, auth: Options['channelAuthorization']): Options {
  const builtIn = config.ws_host === null && config.cluster === null;
  const tls = builtIn ? location.protocol === 'https:' : config.force_tls;
  const port = config.ws_port ?? (builtIn && location.port ? Number(location.port) : tls ? 443 : 80);
  return {
    // pusher-js insists on a cluster even when wsHost decides where it connects.
    cluster: config.cluster ?? 'peerex',
    ...(builtIn || config.ws_host ? { wsHost: config.ws_host ?? location.hostname, wsPort: port, wssPort: port } : {}),
    forceTLS: tls,
    // Only websockets: the HTTP fallbacks would call a third-party host.
    enabledTransports: ['ws', 'wss'],
    channelAuthorization: auth,
  };
}

/**
 * pusher-js evaluated, then its client made, each in a task of its own: in one, they were among a signed-in page's
 * longest tasks on a phone, while the page's first data was arriving (bench/README.md "The signed-in pages' long
 * tasks").
 */
async function createPusher(key: string, settings: Options): Promise<Pusher> {
  const { default: PusherClient } = await import('pusher-js');
  await new Promise((resolve) => setTimeout(resolve, 0));
  return new PusherClient(key, settings);
}

/**
 * The one pusher-js connection of a signed-in tab (docs/api.md "Realtime"), as the charts use it. A channel
 * may be wanted by several actors at once (the chat list and the open conversation both listen on the user's
 * channel): subscriptions are counted, each caller unbinds only its own handlers, and the channel is left
 * only when nobody wants it. The socket opens with the first subscription and closes on `disconnect`
 * (sign-out).
 */
export function createRealtimeService(options: RealtimeServiceOptions) {
  let client: Promise<Pusher | undefined> | undefined;
  const wanted = new Map<string, number>();
  /** Per wanted channel: stops its asking again (the pending pause, the bindings). */
  const resubscribing = new Map<string, () => void>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  let state: ConnectionState = 'offline';

  const setState = (next: ConnectionState) => {
    if (next === state) return;
    state = next;
    for (const listener of stateListeners) listener(next);
  };

  async function open(): Promise<Pusher | undefined> {
    const config = await options.config;
    if (!config) return undefined;
    const location = options.location ?? window.location;
    const settings = pusherOptions(config, location, {
      endpoint: options.authEndpoint,
      transport: 'ajax',
      headersProvider: () => {
        const token = options.getToken();
        return token ? { Authorization: `Bearer ${token}` } : {};
      },
    });
    const pusher = options.createClient ? await options.createClient(config.key, settings) : await createPusher(config.key, settings);
    pusher.connection.bind('state_change', ({ current }: { current: string }) => setState(stateOf(current)));
    // pusher-js reports one close twice (the close, then the action it took): the caller hears it once.
    let ended = false;
    pusher.connection.bind('error', (error: unknown) => {
      if (ended || closeCodeOf(error) !== SESSION_ENDED_CLOSE_CODE) return;
      ended = true;
      options.onSessionEnded?.();
    });
    setState(stateOf(pusher.connection.state));
    return pusher;
  }

  const connection = () => (client ??= open().catch(() => undefined));

  /** Asks for `channel` again after each refusal that may pass, pausing longer each time until one succeeds. */
  function resubscribeWhenRefused(pusher: Pusher, channel: Channel, channelName: string): () => void {
    let pause = RESUBSCRIBE_FIRST_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onRefused = (error: { status?: number } | undefined) => {
      if (!refusalMayPass(error?.status)) return;
      clearTimeout(timer);
      // pusher-js asks the auth endpoint at once when connected, else with every channel once it reconnects.
      timer = setTimeout(() => pusher.subscribe(channelName), pause);
      pause = Math.min(pause * 2, RESUBSCRIBE_LAST_MS);
    };
    const onSubscribed = () => {
      pause = RESUBSCRIBE_FIRST_MS;
    };
    channel.bind('pusher:subscription_error', onRefused);
    channel.bind('pusher:subscription_succeeded', onSubscribed);
    return () => {
      clearTimeout(timer);
      channel.unbind('pusher:subscription_error', onRefused);
      channel.unbind('pusher:subscription_succeeded', onSubscribed);
    };
  }

  return {
    /** Listens on `channel` until the returned function is called. */
    subscribe(channelName: string, callbacks: SubscriptionCallbacks): () => void {
      let done = false;
      let leave = () => {};
      const current = connection();
      void current.then((pusher) => {
        // Unsubscribed before the connection existed, or signed out meanwhile: nothing to join.
        if (done || !pusher || client !== current) return;
        const channel: Channel = pusher.subscribe(channelName);
        wanted.set(channelName, (wanted.get(channelName) ?? 0) + 1);
        if (!resubscribing.has(channelName)) resubscribing.set(channelName, resubscribeWhenRefused(pusher, channel, channelName));
        const onEvent = (event: string, data: unknown) => callbacks.events[event]?.(data);
        const onSubscribed = () => callbacks.onSubscribed?.();
        const onRefused = (error: { status?: number } | undefined) => callbacks.onRefused?.(error?.status);
        channel.bind_global(onEvent);
        channel.bind('pusher:subscription_succeeded', onSubscribed);
        channel.bind('pusher:subscription_error', onRefused);
        // Joined before this caller came: tell it now, as pusher-js will not say it again.
        if (channel.subscribed) onSubscribed();
        leave = () => {
          channel.unbind_global(onEvent);
          channel.unbind('pusher:subscription_succeeded', onSubscribed);
          channel.unbind('pusher:subscription_error', onRefused);
          const left = (wanted.get(channelName) ?? 1) - 1;
          if (left > 0) wanted.set(channelName, left);
          else {
            wanted.delete(channelName);
            resubscribing.get(channelName)?.();
            resubscribing.delete(channelName);
            pusher.unsubscribe(channelName);
          }
        };
      });
      return () => {
        if (done) return;
        done = true;
        leave();
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
      const closing = client;
      client = undefined;
      wanted.clear();
      for (const stop of resubscribing.values()) stop();
      resubscribing.clear();
      setState('offline');
      void closing?.then((pusher) => pusher?.disconnect());
    },
  };
}

export type RealtimeService = ReturnType<typeof createRealtimeService>;
