import Pusher from 'pusher';
import { userChannelName } from '../../../../contracts/chat.ts';
import { hostRules } from '../http/allowed-hosts.ts';
import { proxyTrust, upgradeClientAddress } from '../http/client-address.ts';
import { channelKind, createBuiltInRealtime, createHostedRealtime, type BuiltInRealtime, type RealtimePublisher } from '../../../../packages/realtime/index.ts';
import { realtimeSettings, type RealtimeSettings } from './settings.ts';
import { sessionsRepository } from '../../accounts/sessions.repository.ts';
import { shared } from '../shared.ts';

/** What migration 022's trigger NOTIFYs, with the session's id, when a session ends. */
export const SESSION_ENDED_CHANNEL = 'peerex_session_ended';
/**
 * How far before a lost LISTEN connection a process looks for ended sessions once back: sessions are ended with
 * the clock of whoever ended them (another machine, the `user:role` command), which may run this much behind.
 */
const CATCH_UP_MARGIN_MS = 5 * 60_000;

/** One event on one channel, as subscribers receive it. */
export interface RealtimeEvent {
  channel: string;
  event: string;
  data: unknown;
}

export type RealtimeListener = (event: RealtimeEvent) => void;

/**
 * The seam between what happens (a trade action, a chat message, a price tick) and whoever delivers it: the
 * built-in Pusher-protocol server, or hosted Pusher / soketi through the `pusher` SDK (infra/realtime/settings.ts).
 * Callers publish only after their transaction committed, so nobody is told of something that then rolled
 * back. Publishing never fails the caller: the change is committed and the clients refetch on reconnect.
 */
export interface Realtime {
  readonly settings: RealtimeSettings;
  publish(channel: string, event: string, data: unknown): void;
  /** Which of these traders have a live connection right now, on any process (their user channel is occupied). */
  online(usernames: readonly string[]): Promise<Set<string>>;
  /**
   * Signs a subscription for pusher-js (docs/pusher-and-beams.md "Channel authorization"); the caller decides whether the user may join. With the
   * built-in server a private channel's signature also covers `channel_data` naming `sessionId`, the session
   * that asked, so the socket is closed when that session ends.
   */
  authorize(socketId: string, channelName: string, sessionId: string): { auth: string; channel_data?: string };
  /** In-process listeners (tests, benchmarks). Returns the unsubscribe. */
  subscribe(listener: RealtimeListener): () => void;
  /**
   * The built-in server's open websockets and the channels they subscribe to, in this process (GET /metrics);
   * undefined with hosted Pusher or soketi, whose own dashboard counts them.
   */
  stats(): { connections: number; channels: number } | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

/**
 * Tier 3: the realtime publisher. Built in, it also takes over websocket upgrades of `/app/{key}` on this
 * server (refusing pages of other origins, and on a loopback HOST other Host names: infra/http/allowed-hosts.ts) and
 * serves the trigger API at `/apps/{id}/…`; on close it ends every socket with 4200 so clients
 * reconnect at once to another process. Built in, it also closes the sockets of every session that ends, on
 * whichever process or command it ended (docs/rules.md "Sessions"); hosted Pusher has no per-session close.
 */
export const realtimePlugin = shared('peerex-realtime', async (app) => {
  const settings = realtimeSettings(app.config, app.keys.realtimeSecret);
  const signer = new Pusher({ appId: settings.app.id, key: settings.app.key, secret: settings.app.secret, host: 'localhost' });
  let publisher: RealtimePublisher;
  let stats: Realtime['stats'] = () => undefined;
  if (settings.mode === 'built-in') {
    const limits = app.config.realtimeLimits;
    const trust = proxyTrust(app.config.trustProxy);
    const hosts = hostRules(app.config);
    const builtIn = await createBuiltInRealtime({
      app: settings.app,
      redisUrl: app.config.redisUrl,
      log: app.log,
      maxPayloadBytes: limits.maxFrameBytes,
      maxSubscriptionsPerConnection: limits.maxSubscriptionsPerConnection,
      maxConnectionsPerAddress: limits.maxConnectionsPerAddress,
      addressOf: (req) => upgradeClientAddress(req, trust),
      admits: (req) => hosts.upgradeAllowed(req),
    });
    builtIn.attach(app.server);
    await app.register(builtIn.httpApi);
    publisher = builtIn;
    stats = () => builtIn.stats();
    await endSocketsWithTheirSessions(builtIn);
  } else {
    publisher = createHostedRealtime(settings);
    app.log.info({ host: settings.host, cluster: settings.cluster }, 'realtime events go to an external Pusher-compatible server');
  }

  /**
   * Every ended session's sockets close at once: the process that ended it closes its own and tells the others
   * through Redis, in order with what it publishes next (`sessions.ended`); and the trigger of migration 022
   * tells every process, whoever ended it (the `user:role` command too), and this one listens.
   */
  async function endSocketsWithTheirSessions(builtIn: BuiltInRealtime) {
    app.sessions.onEnded((ids) => builtIn.endSessions(ids, { everywhere: true }));
    const stop = await app.db.listen(SESSION_ENDED_CHANNEL, (id) => builtIn.endSessions([id]), {
      // Told nothing while the connection was lost: ask which of its sockets' sessions, or which at all, ended meanwhile.
      async onResume(lostAt) {
        const since = new Date(lostAt.getTime() - CATCH_UP_MARGIN_MS);
        const ended = await sessionsRepository(app.db).endedAmongOrSince(builtIn.sessions(), since);
        const closed = builtIn.endSessions(ended);
        app.log.warn({ since, ended: ended.length, closed }, 'realtime: listening for ended sessions again; caught up');
      },
      onError: (error) => app.log.warn({ err: error }, 'realtime: the connection that listens for ended sessions failed; reconnecting'),
    });
    app.addHook('onClose', stop);
  }

  const listeners = new Set<RealtimeListener>();
  // One chain per process: a trade's events reach the server in the order they happened (an HTTP trigger
  // per event could otherwise overtake the one before it).
  let sending: Promise<void> = Promise.resolve();
  // While Redis (or a hosted server) is away every event fails, price ticks included: one line when publishing
  // starts failing and one when it works again, not thousands a second (the chaos run saw ~3,000/s).
  let failedSince: { at: Date; events: number } | undefined;
  const published = () => {
    if (!failedSince) return;
    app.log.warn({ since: failedSince.at, failed: failedSince.events }, 'realtime publishing works again');
    failedSince = undefined;
  };
  const failed = (error: unknown, channel: string, event: string) => {
    if (failedSince) failedSince.events += 1;
    else {
      failedSince = { at: new Date(), events: 1 };
      app.log.error({ err: error, channel, event }, 'realtime publish failed; further failures are counted until it works again');
    }
  };

  app.decorate('realtime', {
    settings,
    publish(channel, event, data) {
      for (const listener of listeners) {
        try {
          listener({ channel, event, data });
        } catch (error) {
          app.log.error({ err: error, channel, event }, 'realtime listener failed');
        }
      }
      sending = sending
        .then(() => publisher.trigger(channel, event, data))
        .then(published, (error: unknown) => failed(error, channel, event));
    },
    async online(usernames) {
      if (usernames.length === 0) return new Set();
      const occupied = await publisher.occupied(usernames.map(userChannelName));
      return new Set(usernames.filter((name) => occupied.has(userChannelName(name))));
    },
    authorize(socketId, channelName, sessionId) {
      if (settings.mode !== 'built-in' || channelKind(channelName) !== 'private') return signer.authorizeChannel(socketId, channelName);
      // The SDK signs `socket_id:channel:channel_data` and answers the channel_data, which pusher-js sends back as is.
      return signer.authorizeChannel(socketId, channelName, { session: sessionId } as unknown as Pusher.PresenceChannelData);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stats: () => stats(),
  } satisfies Realtime);

  // Before the HTTP server stops: open websockets would otherwise hold its close until they time out.
  app.addHook('preClose', async () => {
    await sending;
    await publisher.close();
  });
});
