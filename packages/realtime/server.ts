import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { connectRedisBus, type LocalState, type RealtimeBus, type RealtimeLog } from './bus.ts';
import { createRealtimeHttpApi, type RealtimeHttpBackend } from './http-api.ts';
import {
  channelAuthMatches,
  channelKind,
  CloseCode,
  connectionEstablishedFrame,
  errorFrame,
  eventFrame,
  isSessionId,
  isValidChannelName,
  MAX_EVENT_NAME_LENGTH,
  memberAddedFrame,
  memberRemovedFrame,
  newSocketId,
  parseChannelData,
  PONG_FRAME,
  presenceSucceededFrame,
  sessionOfChannelData,
  subscriptionErrorFrame,
  subscriptionSucceededFrame,
  type PresenceMember,
} from './protocol.ts';
import type { RealtimeApp, RealtimePublisher } from './publisher.ts';

export type { RealtimeLog } from './bus.ts';

/**
 * The built-in realtime server: Pusher Channels protocol 7 over `ws` (docs/pusher-and-beams.md "Pusher Channels protocol"), so unmodified pusher-js
 * 8 connects to `/app/{key}` of the product's own HTTP server; the HTTP trigger API (http-api.ts) so the
 * `pusher` SDK publishes into it; and, with a Redis URL, fan-out, occupancy and presence shared by every
 * process (bus.ts). Without Redis everything stays in this process and no Redis code runs.
 *
 * Memory per idle connection is what `ws` needs plus one small object: the socket *is* the connection (a
 * subclass of ws's WebSocket carrying its socket id and subscriptions), its listeners are shared functions,
 * and per-message deflate is off.
 */
export interface BuiltInRealtimeOptions {
  app: RealtimeApp;
  /** Set: fan-out and global occupancy/presence through Redis. Unset: in-process only. */
  redisUrl?: string;
  log: RealtimeLog;
  /** Sent in connection_established; also the period of the server's ws pings (default 30, like soketi and Reverb). */
  activityTimeoutSeconds?: number;
  /**
   * Largest frame a client may send (default 10 KB, Pusher's event limit). ws closes a connection that sends a
   * larger one with 1009 "message too big", which pusher-js takes as a plain close: it reconnects after a second,
   * once, rather than in a loop (no 42xx, which it retries at once).
   */
  maxPayloadBytes?: number;
  /**
   * Subscriptions one connection may hold (default 100). One more is refused as soketi refuses a channel over a
   * limit: `pusher:subscription_error` naming the channel, type LimitReached, status 429; the connection and its
   * other channels stay, and pusher-js does not retry a refused subscription by itself.
   */
  maxSubscriptionsPerConnection?: number;
  /**
   * Open connections per client address in this process (default 0: no limit; the product passes
   * REALTIME_MAX_CONNECTIONS_PER_ADDRESS). One more gets `pusher:error` 4100 "over capacity" and a 4100 close,
   * as soketi answers over quota: pusher-js retries after a second, without refusing for good (40xx) or
   * retrying at once (42xx).
   */
  maxConnectionsPerAddress?: number;
  /** The client address an upgrade is counted under (default: its socket's); the product counts as its HTTP rate limits. */
  addressOf?: (req: IncomingMessage) => string;
  /**
   * Whether an upgrade may open a socket at all (default: every one). One it refuses is answered a plain HTTP 403
   * before the websocket handshake; the product refuses pages of other origins (server/src/infra/http/allowed-hosts.ts).
   */
  admits?: (req: IncomingMessage) => boolean;
  /** Distinct users of one presence channel (default 100, Pusher's limit); 0 = no limit. */
  maxPresenceMembers?: number;
  /** Prefix of every Redis key and of the bus channel (default `peerex:rt:`). */
  redisPrefix?: string;
  /** How long a process stays counted without a heartbeat before another takes its sockets out (default 15 s). */
  nodeTimeoutMs?: number;
  /** The HTTP API's clock, in milliseconds since the epoch (tests). */
  now?: () => number;
}

export interface BuiltInRealtime extends RealtimePublisher {
  /** Takes over websocket upgrades of `/app/…` on this server; other paths are left to other listeners, or refused 400. */
  attach(server: HttpServer): void;
  /**
   * These sessions ended: this process's sockets that a private subscription tied to one of them (its signed
   * `channel_data` `{"session": id}`) are closed with 4009, and a signature naming one that a socket open now
   * still holds is refused the same way. `everywhere`: the other processes are told through Redis too, ahead of
   * what this one publishes next (the process where the sessions ended). Answers how many sockets it closed here.
   */
  endSessions(ids: readonly string[], options?: { everywhere?: boolean }): number;
  /** The sessions this process's sockets are tied to (to ask which of them ended while nobody told this process). */
  sessions(): string[];
  /** The HTTP API (`/apps/:id/events`, `batch_events`, `channels`, `channels/:channel`, `channels/:channel/users`); register at the root. */
  httpApi: FastifyPluginAsync;
  /** Live counts of this process. */
  stats(): { connections: number; channels: number };
}

const DEFAULTS = {
  activityTimeoutSeconds: 30,
  maxPayloadBytes: 10_240,
  maxSubscriptionsPerConnection: 100,
  maxPresenceMembers: 100,
  redisPrefix: 'peerex:rt:',
  nodeTimeoutMs: 15_000,
};

/** A client that has this much unsent is not reading: it is dropped rather than buffered without end. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** The keepalive sweeps every socket once per activity period, in this many slices. */
const KEEPALIVE_SLICES = 10;
/** How long close() waits for clients to answer the 4200 close frame before cutting them off. */
const CLOSE_GRACE_MS = 2000;
/** Protocol versions whose framing is the one described here (pusher-js 8 sends 7). */
const PROTOCOLS = { min: 5, max: 7 };

const TEXT = { binary: false } as const;

const FORBIDDEN_TEXT = 'This server does not accept websockets from this origin.';
const FORBIDDEN_UPGRADE =
  'HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n' +
  `Cache-Control: no-store\r\nContent-Length: ${Buffer.byteLength(FORBIDDEN_TEXT)}\r\n\r\n${FORBIDDEN_TEXT}`;

/** One connection: ws's socket plus what the protocol needs to know about it. */
class PusherSocket extends WebSocket {
  socketId = '';
  /** Order of arrival in this process: a socket opened after a session ended cannot hold a signature naming it. */
  serial = 0;
  /** The sessions its private subscriptions named; null until one did. */
  sessions: Set<string> | null = null;
  /** Answered our last ping, or sent anything, since the last keepalive round. */
  alive = true;
  /** channel → the presence member it joined as (null on other channels); null until the first subscription. */
  subscriptions: Map<string, PresenceMember | null> | null = null;
  /** Only kept when connections per address are capped. */
  address: string | undefined = undefined;
}

interface LocalChannel {
  sockets: Set<PusherSocket>;
  /**
   * Presence joins waiting for Redis's answer, each with the frames that arrived meanwhile (alternating
   * presence sequence number, 0 for other events, and frame); delivered once subscription_succeeded is sent.
   */
  pending: Map<PusherSocket, Array<number | string | Buffer>> | null;
  /** In-process presence only: user id → how many of this channel's sockets are that user, and their user_info. */
  members: Map<string, { count: number; infoJson: string }> | null;
}

export async function createBuiltInRealtime(options: BuiltInRealtimeOptions): Promise<BuiltInRealtime> {
  const { app, log } = options;
  const activityTimeoutSeconds = options.activityTimeoutSeconds ?? DEFAULTS.activityTimeoutSeconds;
  const maxSubscriptions = options.maxSubscriptionsPerConnection ?? DEFAULTS.maxSubscriptionsPerConnection;
  const maxPerAddress = options.maxConnectionsPerAddress ?? 0;
  const addressOf = options.addressOf ?? ((req: IncomingMessage) => req.socket.remoteAddress ?? '');
  const maxPresenceMembers = options.maxPresenceMembers ?? DEFAULTS.maxPresenceMembers;

  /** Open sockets by socket id, in order of arrival (so the first is the oldest). */
  const sockets = new Map<string, PusherSocket>();
  let lastSerial = 0;
  const channels = new Map<string, LocalChannel>();
  /** The sockets tied to each session, for closing them when it ends. */
  const sessionSockets = new Map<string, Set<PusherSocket>>();
  /**
   * Sessions ended while sockets opened before were still open, each with the last serial then: one of those
   * sockets may hold a signature naming it, asked for before it ended but not used yet. Kept, oldest first, until
   * the last such socket is gone.
   */
  const endedSessions = new Map<string, number>();
  const perAddress = new Map<string, number>();
  const attached = new Map<HttpServer, (req: IncomingMessage, socket: Duplex, head: Buffer) => void>();
  let closing = false;
  let closed: Promise<void> | undefined;

  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    clientTracking: false,
    maxPayload: options.maxPayloadBytes ?? DEFAULTS.maxPayloadBytes,
    WebSocket: PusherSocket,
  });

  const localCount = (name: string) => {
    const channel = channels.get(name);
    return channel ? channel.sockets.size + (channel.pending?.size ?? 0) : 0;
  };

  const localState: LocalState = {
    *channels() {
      for (const name of channels.keys()) yield [name, localCount(name)];
    },
    *presence() {
      for (const [channel, local] of channels) {
        for (const socket of local.sockets) {
          const member = socket.subscriptions?.get(channel);
          if (member) yield { channel, socketId: socket.socketId, member };
        }
      }
    },
  };

  const bus: RealtimeBus | undefined = options.redisUrl
    ? await connectRedisBus({
        url: options.redisUrl,
        prefix: options.redisPrefix ?? DEFAULTS.redisPrefix,
        nodeTimeoutMs: options.nodeTimeoutMs ?? DEFAULTS.nodeTimeoutMs,
        maxPresenceMembers,
        log,
        localState,
        onFrame: (channel, frame, except, seq) => deliver(channel, frame, except ? sockets.get(except) : undefined, seq),
        // 4200: pusher-js reconnects at once (to whichever process), and the web app refetches on reconnect.
        onGap: () => {
          for (const socket of sockets.values()) socket.close(CloseCode.reconnectNow, 'Events may have been missed');
        },
        onSessionsEnded: (ids) => endSessions(ids),
      })
    : undefined;

  // -------------------------------------------------------------------------------------------------------
  // Delivery: the hot path. One frame per channel, encoded once, written to every local subscriber.

  function send(socket: PusherSocket, frame: string | Buffer) {
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      log.warn({ socketId: socket.socketId }, 'realtime: dropped a connection that stopped reading');
      socket.terminate();
      return;
    }
    socket.send(frame, TEXT);
  }

  function deliver(name: string, frame: string, except: PusherSocket | undefined, seq: number) {
    const channel = channels.get(name);
    if (!channel) return;
    // UTF-8 once, not once per socket.
    const payload = channel.sockets.size > 1 ? Buffer.from(frame) : frame;
    for (const socket of channel.sockets) if (socket !== except) send(socket, payload);
    if (channel.pending) for (const [socket, buffered] of channel.pending) if (socket !== except) buffered.push(seq, payload);
  }

  async function publish(names: readonly string[], event: string, data: string, exceptSocketId: string | undefined) {
    if (closing) return;
    const except = exceptSocketId ? sockets.get(exceptSocketId) : undefined;
    const published: Promise<void>[] = [];
    for (const name of names) {
      const frame = eventFrame(event, name, data);
      deliver(name, frame, except, 0);
      if (bus) published.push(bus.publish(name, frame, exceptSocketId));
    }
    await Promise.all(published);
  }

  // -------------------------------------------------------------------------------------------------------
  // Subscriptions

  function channelFor(name: string): LocalChannel {
    let channel = channels.get(name);
    if (!channel) channels.set(name, (channel = { sockets: new Set(), pending: null, members: null }));
    return channel;
  }

  function countChanged(name: string): Promise<void> | undefined {
    return bus && !closing ? bus.setLocalCount(name, localCount(name)) : undefined;
  }

  const refuse = (socket: PusherSocket, channel: string, type: string, error: string, status: number) =>
    socket.send(subscriptionErrorFrame(channel, type, error, status));

  function subscribe(socket: PusherSocket, data: unknown) {
    if (!data || typeof data !== 'object') return socket.send(errorFrame(null, 'pusher:subscribe needs data with a channel'));
    const { channel: name, auth, channel_data: channelData } = data as Record<string, unknown>;
    if (!isValidChannelName(name)) {
      if (typeof name !== 'string') return socket.send(errorFrame(null, 'pusher:subscribe needs a channel name'));
      return refuse(socket, name, 'InvalidChannel', 'Invalid channel name: up to 200 of A-Z a-z 0-9 _ - = @ , . ;', 400);
    }
    const subscriptions = (socket.subscriptions ??= new Map());
    if (subscriptions.has(name)) return resendSucceeded(socket, name);
    if (subscriptions.size >= maxSubscriptions) {
      return refuse(socket, name, 'LimitReached', `At most ${maxSubscriptions} subscriptions per connection`, 429);
    }
    const kind = channelKind(name);
    if (kind === 'public' || kind === 'private') {
      let session: string | undefined;
      if (kind === 'private') {
        // A private subscription may carry channel_data too (the product's names the session that authorized it):
        // then the signature covers it, so nobody can name another session, or drop the one named.
        const data = channelData ?? undefined;
        if (data !== undefined && typeof data !== 'string') return refuse(socket, name, 'AuthError', 'channel_data must be a JSON string', 401);
        if (!channelAuthMatches(app, socket.socketId, name, auth, data)) {
          const signed = data === undefined ? `${socket.socketId}:${name}` : `${socket.socketId}:${name}:{channel_data}`;
          return refuse(socket, name, 'AuthError', `Invalid signature: expected the HMAC-SHA256 hex digest of "${signed}"`, 401);
        }
        session = data === undefined ? undefined : sessionOfChannelData(data);
        if (session !== undefined && socket.serial <= (endedSessions.get(session) ?? 0)) return endSocket(socket);
      }
      subscriptions.set(name, null);
      if (session !== undefined) tieToSession(socket, session);
      channelFor(name).sockets.add(socket);
      const written = countChanged(name);
      // With Redis, answered once the count is written: a subscribed client is then occupancy on every node.
      if (!written) return socket.send(subscriptionSucceededFrame(name));
      void written.then(() => {
        if (socket.subscriptions?.has(name) && socket.readyState === WebSocket.OPEN) socket.send(subscriptionSucceededFrame(name));
      });
      return;
    }
    if (typeof channelData !== 'string' || !channelAuthMatches(app, socket.socketId, name, auth, channelData)) {
      return refuse(socket, name, 'AuthError', `Invalid signature: expected the HMAC-SHA256 hex digest of "${socket.socketId}:${name}:{channel_data}"`, 401);
    }
    const member = parseChannelData(channelData);
    if (!member) return refuse(socket, name, 'AuthError', 'channel_data must be JSON with a user_id', 401);
    if (bus) joinThroughRedis(bus, socket, name, member);
    else joinInProcess(socket, name, member);
  }

  function joinInProcess(socket: PusherSocket, name: string, member: PresenceMember) {
    const channel = channelFor(name);
    const members = (channel.members ??= new Map());
    const known = members.get(member.userId);
    if (!known && maxPresenceMembers > 0 && members.size >= maxPresenceMembers) {
      if (channel.sockets.size === 0) channels.delete(name);
      return refuse(socket, name, 'LimitReached', `At most ${maxPresenceMembers} members per presence channel`, 429);
    }
    if (known) known.count++;
    else members.set(member.userId, { count: 1, infoJson: member.infoJson });
    socket.subscriptions!.set(name, member);
    socket.send(presenceSucceededFrame(name, flatMembers(members)));
    channel.sockets.add(socket);
    if (!known) deliver(name, memberAddedFrame(name, member), socket, 0);
  }

  function joinThroughRedis(redis: RealtimeBus, socket: PusherSocket, name: string, member: PresenceMember) {
    const channel = channelFor(name);
    const buffered: Array<number | string | Buffer> = [];
    (channel.pending ??= new Map()).set(socket, buffered);
    socket.subscriptions!.set(name, member);
    void countChanged(name);
    // Still waiting for this very join (not left, not closed, not re-subscribed since)?
    const stillPending = () => channels.get(name)?.pending?.get(socket) === buffered;
    const settle = () => {
      const local = channels.get(name);
      local?.pending?.delete(socket);
      if (local?.pending?.size === 0) local.pending = null;
      return local;
    };
    redis.join(name, socket.socketId, member).then(
      (result) => {
        if (!stillPending()) return;
        const local = settle()!;
        if (!result.joined) {
          socket.subscriptions?.delete(name);
          if (local.sockets.size === 0 && !local.pending) channels.delete(name);
          void countChanged(name);
          return refuse(socket, name, 'LimitReached', `At most ${maxPresenceMembers} members per presence channel`, 429);
        }
        socket.send(presenceSucceededFrame(name, result.members));
        // Presence events the member list already reflects (sequence ≤ the join's) are dropped.
        for (let i = 0; i < buffered.length; i += 2) {
          const seq = buffered[i] as number;
          if (seq === 0 || seq > result.seq) send(socket, buffered[i + 1] as string | Buffer);
        }
        local.sockets.add(socket);
      },
      (error: unknown) => {
        if (!stillPending()) return;
        log.warn({ err: error, channel: name }, 'realtime: presence join failed');
        const local = settle()!;
        socket.subscriptions?.delete(name);
        if (local.sockets.size === 0 && !local.pending) channels.delete(name);
        void countChanged(name);
        refuse(socket, name, 'ServerError', 'Presence is unavailable right now; try again', 503);
      },
    );
  }

  function tieToSession(socket: PusherSocket, session: string) {
    (socket.sessions ??= new Set()).add(session);
    let tied = sessionSockets.get(session);
    if (!tied) sessionSockets.set(session, (tied = new Set()));
    tied.add(socket);
  }

  /** 4009: pusher-js stays disconnected rather than reconnect with a session that no longer signs anything. */
  function endSocket(socket: PusherSocket) {
    // A closing socket is sent nothing more (ws drops what is sent after close), whatever its client does.
    if (socket.readyState === WebSocket.OPEN) socket.close(CloseCode.sessionEnded, 'Session ended');
  }

  function endSessions(ids: readonly string[], endOptions: { everywhere?: boolean } = {}): number {
    if (endOptions.everywhere && bus) {
      // Only an id a socket can be tied to matters, and only such ids keep the bus message's separators apart.
      bus.sessionsEnded(ids.filter(isSessionId)).catch((error: unknown) => log.warn({ err: error }, 'realtime: ended sessions not told to the other processes (they hear it from the database)'));
    }
    let closed = 0;
    for (const id of ids) {
      // A socket is signed for by its id, so only sockets open now can hold an unused signature naming this session.
      if (sockets.size > 0 && !endedSessions.has(id)) endedSessions.set(id, lastSerial);
      for (const socket of sessionSockets.get(id) ?? []) {
        if (socket.readyState !== WebSocket.OPEN) continue;
        endSocket(socket);
        closed++;
      }
    }
    forgetEndedSessions();
    return closed;
  }

  /** Drops the ended sessions no open socket is old enough to hold a signature for. */
  function forgetEndedSessions() {
    const oldest = sockets.values().next().value?.serial ?? Number.POSITIVE_INFINITY;
    for (const [id, lastSerialThen] of endedSessions) {
      if (lastSerialThen >= oldest) return;
      endedSessions.delete(id);
    }
  }

  function resendSucceeded(socket: PusherSocket, name: string) {
    const member = socket.subscriptions?.get(name);
    if (!member) return socket.send(subscriptionSucceededFrame(name));
    if (!bus) return socket.send(presenceSucceededFrame(name, flatMembers(channels.get(name)?.members ?? new Map())));
    // Joined or joining already: the script answers the list without changing anything.
    if (channels.get(name)?.pending?.has(socket)) return;
    bus.join(name, socket.socketId, member).then(
      (result) => {
        if (socket.readyState === WebSocket.OPEN) socket.send(presenceSucceededFrame(name, result.members));
      },
      (error: unknown) => log.warn({ err: error, channel: name }, 'realtime: presence list failed'),
    );
  }

  /** Takes a socket out of a channel; announces its user's departure when it was their last socket. */
  function leave(socket: PusherSocket, name: string, member: PresenceMember | null) {
    const channel = channels.get(name);
    if (!channel) return;
    channel.sockets.delete(socket);
    if (channel.pending?.delete(socket) && channel.pending.size === 0) channel.pending = null;
    if (member && !closing) {
      if (bus) {
        bus.leave(name, socket.socketId).catch((error: unknown) => log.warn({ err: error, channel: name }, 'realtime: presence leave failed'));
      } else {
        const known = channel.members?.get(member.userId);
        if (known && --known.count === 0) {
          channel.members!.delete(member.userId);
          deliver(name, memberRemovedFrame(name, member.userId), undefined, 0);
        }
      }
    }
    if (channel.sockets.size === 0 && !channel.pending) channels.delete(name);
    void countChanged(name);
  }

  // -------------------------------------------------------------------------------------------------------
  // Connections. The listeners are shared: `this` is the socket.

  function onMessage(this: WebSocket, raw: RawData) {
    const socket = this as PusherSocket;
    socket.alive = true;
    let message: { event?: unknown; channel?: unknown; data?: unknown };
    try {
      message = JSON.parse(raw.toString());
    } catch {
      return socket.send(errorFrame(null, 'Invalid JSON'));
    }
    if (!message || typeof message !== 'object' || typeof message.event !== 'string') {
      return socket.send(errorFrame(null, 'A message is {"event": string, "data"?: …}'));
    }
    let data = message.data;
    // pusher-js sends data as an object, other clients as a JSON string: both are accepted.
    if (typeof data === 'string') {
      try {
        data = JSON.parse(data);
      } catch {
        /* kept as the string */
      }
    }
    switch (message.event) {
      case 'pusher:ping':
        return socket.send(PONG_FRAME);
      case 'pusher:pong':
        return;
      case 'pusher:subscribe':
        return subscribe(socket, data);
      case 'pusher:unsubscribe': {
        const name = (data as { channel?: unknown } | null)?.channel;
        if (typeof name !== 'string' || !socket.subscriptions?.has(name)) return;
        const member = socket.subscriptions.get(name)!;
        socket.subscriptions.delete(name);
        return leave(socket, name, member);
      }
      default:
        if (message.event.startsWith('client-')) {
          // A message, never a close code: pusher-js takes a 43xx close as "refused" and would stay offline.
          return socket.send(errorFrame(CloseCode.clientEventRefused, 'Client events are not enabled on this server'));
        }
        // Other pusher: events (signin, …) are not offered; unknown events are ignored, as soketi does.
        if (message.event === 'pusher:signin') socket.send(errorFrame(null, 'User sign-in is not supported by this server'));
    }
  }

  function onPong(this: WebSocket) {
    (this as PusherSocket).alive = true;
  }

  function onClose(this: WebSocket) {
    const socket = this as PusherSocket;
    sockets.delete(socket.socketId);
    if (socket.address !== undefined) {
      const left = (perAddress.get(socket.address) ?? 1) - 1;
      if (left > 0) perAddress.set(socket.address, left);
      else perAddress.delete(socket.address);
    }
    const subscriptions = socket.subscriptions;
    socket.subscriptions = null;
    if (subscriptions) for (const [name, member] of subscriptions) leave(socket, name, member);
    for (const session of socket.sessions ?? []) {
      const tied = sessionSockets.get(session);
      if (tied?.delete(socket) && tied.size === 0) sessionSockets.delete(session);
    }
    socket.sessions = null;
  }

  function ignoreError() {
    // ws emits 'error' before closing (bad frame, frame too large); 'close' follows and cleans up.
  }

  function refuseConnection(socket: PusherSocket, code: number, message: string) {
    socket.on('error', ignoreError);
    // pusher-js reads the code of a first-message pusher:error; the close code says the same to others.
    socket.send(errorFrame(code, message));
    socket.close(code, message);
  }

  function accept(socket: PusherSocket, req: IncomingMessage, path: string, search: string) {
    const key = path.slice('/app/'.length);
    if (key.includes('/') || key === '') return refuseConnection(socket, CloseCode.pathNotFound, 'Path not found: expected /app/{key}');
    if (key !== app.key) return refuseConnection(socket, CloseCode.appDoesNotExist, `App key ${key} does not exist`);
    const protocol = new URLSearchParams(search).get('protocol');
    if (!protocol) return refuseConnection(socket, CloseCode.noProtocol, 'No protocol version given');
    if (!/^\d+$/.test(protocol)) return refuseConnection(socket, CloseCode.invalidVersionFormat, 'Invalid protocol version');
    const version = Number(protocol);
    if (version < PROTOCOLS.min || version > PROTOCOLS.max) {
      return refuseConnection(socket, CloseCode.unsupportedProtocol, `Unsupported protocol version ${version}`);
    }
    // An upgrade that was under way when close() began (never 42xx on a handshake: pusher-js would retry in a loop).
    if (closing) return socket.terminate();
    if (maxPerAddress > 0) {
      const address = addressOf(req);
      const open = perAddress.get(address) ?? 0;
      if (open >= maxPerAddress) return refuseConnection(socket, CloseCode.overCapacity, 'Too many connections from this address');
      perAddress.set(address, open + 1);
      socket.address = address;
    }
    let socketId = newSocketId();
    while (sockets.has(socketId)) socketId = newSocketId();
    socket.socketId = socketId;
    socket.serial = ++lastSerial;
    sockets.set(socketId, socket);
    socket.on('message', onMessage);
    socket.on('pong', onPong);
    socket.on('close', onClose);
    socket.on('error', ignoreError);
    socket.send(connectionEstablishedFrame(socketId, activityTimeoutSeconds));
  }

  // A dead peer never answers: ping each socket once per activity period and cut off whoever did not answer
  // (or send anything) since its last ping. The sockets are swept a slice per tick, so that 10,000 pings do
  // not hold up deliveries all at once; a sweep that reaches the end waits for the next tick to start over, so
  // no socket is pinged and judged in the same tick.
  let sweep = sockets.values();
  const keepalive = setInterval(
    () => {
      forgetEndedSessions();
      for (let quota = Math.ceil(sockets.size / KEEPALIVE_SLICES); quota > 0; quota--) {
        const next = sweep.next();
        if (next.done) {
          sweep = sockets.values();
          return;
        }
        const socket = next.value;
        if (!socket.alive) {
          socket.terminate();
          continue;
        }
        socket.alive = false;
        socket.ping();
      }
    },
    (activityTimeoutSeconds * 1000) / KEEPALIVE_SLICES,
  );
  keepalive.unref();

  // -------------------------------------------------------------------------------------------------------
  // Counts, local and (with Redis) fleet-wide.

  async function subscriptionCounts(names: readonly string[]): Promise<number[]> {
    const local = names.map(localCount);
    if (!bus || names.length === 0) return local;
    const remote = await bus.remoteCounts(names);
    return local.map((count, i) => count + (remote[i] ?? 0));
  }

  const backend: RealtimeHttpBackend = {
    publish,
    subscriptionCounts,
    async channels(prefix) {
      const out = new Map<string, number>();
      for (const name of channels.keys()) {
        const count = localCount(name);
        if (count > 0 && name.startsWith(prefix)) out.set(name, count);
      }
      if (bus) for (const [name, count] of await bus.remoteChannels(prefix)) out.set(name, (out.get(name) ?? 0) + count);
      return out;
    },
    async userCounts(names) {
      if (bus) return bus.userCounts(names);
      return names.map((name) => channels.get(name)?.members?.size ?? 0);
    },
    async userIds(name) {
      if (bus) return bus.userIds(name);
      return [...(channels.get(name)?.members?.keys() ?? [])];
    },
  };

  return {
    attach(server) {
      if (attached.has(server)) return;
      const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
        const url = req.url ?? '/';
        const mark = url.indexOf('?');
        const path = mark < 0 ? url : url.slice(0, mark);
        if (!path.startsWith('/app/')) {
          // Someone else's websocket (another listener will answer it), or nobody's.
          if (server.listenerCount('upgrade') > 1) return;
          socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
          return;
        }
        if (options.admits && !options.admits(req)) {
          socket.end(FORBIDDEN_UPGRADE);
          return;
        }
        wss.handleUpgrade(req, socket, head, (ws) => accept(ws as PusherSocket, req, path, mark < 0 ? '' : url.slice(mark + 1)));
      };
      attached.set(server, onUpgrade);
      server.on('upgrade', onUpgrade);
    },

    httpApi: createRealtimeHttpApi({ app, backend, now: options.now }),

    async trigger(names, event, data, triggerOptions) {
      const list = typeof names === 'string' ? [names] : names;
      for (const name of list) if (!isValidChannelName(name)) throw new Error(`Invalid channel name: '${name}'`);
      if (typeof event !== 'string' || event === '' || event.length > MAX_EVENT_NAME_LENGTH) throw new Error(`Invalid event name: '${event}'`);
      await publish(list, event, JSON.stringify(data) ?? 'null', triggerOptions?.socketId);
    },

    async occupied(names) {
      const out = new Set<string>();
      const unknown: string[] = [];
      for (const name of names) {
        if (localCount(name) > 0) out.add(name);
        else unknown.push(name);
      }
      if (bus && unknown.length) {
        // Asked on the way of a chat message (is the recipient told by the bell?) and of the conversation list:
        // while Redis is away, the other processes' sockets are unknown and taken as absent (an extra bell at
        // worst) rather than failing a call whose real work is in the database.
        const counts = await bus.remoteCounts(unknown).catch((error: unknown) => {
          log.warn({ err: error }, 'realtime: other processes\' subscribers unknown (Redis unavailable); counted as none');
          return unknown.map(() => 0);
        });
        unknown.forEach((name, i) => counts[i] > 0 && out.add(name));
      }
      return out;
    },

    stats: () => ({ connections: sockets.size, channels: channels.size }),

    endSessions,

    sessions: () => [...sessionSockets.keys()],

    close() {
      closed ??= (async () => {
        closing = true;
        clearInterval(keepalive);
        for (const [server, onUpgrade] of attached) server.off('upgrade', onUpgrade);
        attached.clear();
        const open = [...sockets.values()];
        const allClosed = Promise.all(open.map((socket) => new Promise((resolve) => socket.once('close', resolve))));
        // 4200: pusher-js reconnects at once, to whichever process the load balancer picks.
        for (const socket of open) socket.close(CloseCode.reconnectNow, 'Server shutting down');
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([allClosed, new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)))]);
        clearTimeout(timer);
        for (const socket of open) socket.terminate();
        await allClosed;
        wss.close();
        // Takes this process's presence members out fleet-wide, at once rather than after the heartbeat.
        await bus?.close();
      })();
      return closed;
    },
  };
}

/** user id, user_info JSON, … as the presence frame takes them. */
function flatMembers(members: Map<string, { infoJson: string }>): string[] {
  const flat: string[] = [];
  for (const [userId, { infoJson }] of members) flat.push(userId, infoJson);
  return flat;
}
