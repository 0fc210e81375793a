import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { memberAddedFrame, memberRemovedFrame, type PresenceMember } from './protocol.ts';

/**
 * Several built-in realtime servers behind one load balancer, through one Redis (docs/pusher-and-beams.md "Several processes").
 *
 * - Fan-out: the node that publishes delivers to its own sockets first, then puts
 *   `origin \n channel \n except \n seq \n frame` on one pub/sub channel; every other node delivers it to its
 *   own sockets. The frame is the finished Pusher message, so a receiving node only looks up the channel.
 * - Presence is one set of Redis hashes per channel (users → user_info, users → sockets count, socket →
 *   user), changed only by Lua scripts, so "first socket of this user" and "last socket of this user" are
 *   decided once for the whole fleet. The script that decides also publishes member_added/removed, with a
 *   sequence number: the bus then carries presence events in the order Redis decided them, and a socket
 *   whose join is in flight can tell which buffered events its member list already includes.
 * - Occupancy: each node keeps a hash channel → its own subscriber count; queries sum the live nodes'.
 * - Liveness: each node puts its deadline in a sorted set every third of `nodeTimeoutMs`. Whoever sees a
 *   deadline passed takes that node's presence sockets out (publishing member_removed for users it was the
 *   last to hold) and drops its counts, in one script, so exactly one node does it.
 *
 * - Gaps: an event published while Redis was away, or by a node that died between its commit and its publish,
 *   never reaches the other nodes' sockets, and those sockets stay open, so their clients would not know to
 *   refetch. So whenever events may have been lost, the nodes concerned are told (`onGap`) and end their
 *   sockets with 4200: pusher-js reconnects at once and the web app refetches on reconnect. That is: a node
 *   whose bus subscription was interrupted (it missed what was published meanwhile); every node, when a node
 *   whose command connection was interrupted is back (its publishes failed meanwhile); every node, when a
 *   node is reaped (it may have committed something it never published). Each is rare; a reconnect of every
 *   client at such a moment is the price of nobody showing a trade's state that is no longer true.
 *
 * - Ended sessions: the node where a session ended closes its sockets and says so on the bus, ahead of what it
 *   publishes next, so no event published after the end reaches that session's sockets on another node (each
 *   node also hears every ending from the database, but not in order with the bus).
 *
 * Every key starts with `prefix` (default `peerex:rt:`). Scripts build key names from it, so this needs one
 * Redis (or a primary with replicas), not Redis Cluster.
 */

export interface RealtimeLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

/** One message from the bus for this node's sockets; `seq` is 0 except on presence events. */
export type BusFrameHandler = (channel: string, frame: string, except: string, seq: number) => void;

/** What this node holds, to write into Redis again when Redis lost it (restart) or took this node for dead. */
export interface LocalState {
  channels(): Iterable<[channel: string, subscribers: number]>;
  presence(): Iterable<{ channel: string; socketId: string; member: PresenceMember }>;
}

export interface RedisBusOptions {
  url: string;
  prefix: string;
  /** How long a node stays counted without a heartbeat (it beats every third of this). */
  nodeTimeoutMs: number;
  /** Most distinct users in one presence channel (Pusher's limit is 100); 0 = no limit. */
  maxPresenceMembers: number;
  log: RealtimeLog;
  onFrame: BusFrameHandler;
  /** Events meant for this node's sockets may have been lost: their clients must reconnect and refetch. */
  onGap: () => void;
  /** Another node says these sessions ended (`sessionsEnded`), before anything it publishes after. */
  onSessionsEnded: (sessionIds: string[]) => void;
  localState: LocalState;
}

export type JoinResult =
  | { joined: true; seq: number; /** user id, user_info JSON, … */ members: string[] }
  | { joined: false; seq: number; members: [] };

export interface RealtimeBus {
  readonly nodeId: string;
  /** Puts a frame on the bus for the other nodes' sockets. */
  publish(channel: string, frame: string, except: string | undefined): Promise<void>;
  /**
   * Tells the other nodes that these sessions ended, on the bus itself: a frame this node publishes afterwards
   * reaches them after it, so after they closed those sessions' sockets.
   */
  sessionsEnded(sessionIds: readonly string[]): Promise<void>;
  /** Records this node's subscriber count of a channel; writes are batched per tick. Resolves once written. */
  setLocalCount(channel: string, subscribers: number): Promise<void>;
  join(channel: string, socketId: string, member: PresenceMember): Promise<JoinResult>;
  leave(channel: string, socketId: string): Promise<void>;
  /** Subscribers of each channel on the *other* live nodes. */
  remoteCounts(channels: readonly string[]): Promise<number[]>;
  /** Channels with subscribers on the other live nodes, with their counts. */
  remoteChannels(prefix: string): Promise<Map<string, number>>;
  /** Distinct users of each presence channel, fleet-wide. */
  userCounts(channels: readonly string[]): Promise<number[]>;
  userIds(channel: string): Promise<string[]>;
  /** Takes this node's presence sockets out (member_removed where due), unregisters it, quits Redis. */
  close(): Promise<void>;
}

/**
 * On the bus instead of a frame: events may have been lost (see Gaps above). Node ids are hex, so no
 * message from a node starts with `*`; after the notice comes the id of the node that sends it, if any.
 */
const GAP_NOTICE = '*gap';
/** On the bus: `*ended \n <node id> \n <session id>,<session id>…` (session ids hold no comma: the product's are digits). */
const SESSIONS_ENDED = '*ended';

// ---------------------------------------------------------------------------------------------------------
// Lua. ARGV[1] is always the key prefix, ARGV[2] the bus channel.

const LEAVE_FUNCTION = `
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function leave(prefix, bus, channel, socket_id)
  local base = prefix .. 'presence:' .. channel
  local entry = redis.call('HGET', base .. ':sockets', socket_id)
  if not entry then return 0 end
  redis.call('HDEL', base .. ':sockets', socket_id)
  local nl = string.find(entry, '\\n', 1, true)
  local user_id = string.sub(entry, 1, nl - 1)
  if redis.call('HINCRBY', base .. ':counts', user_id, -1) > 0 then return 0 end
  redis.call('HDEL', base .. ':counts', user_id)
  redis.call('HDEL', base .. ':users', user_id)
  local seq = redis.call('INCR', prefix .. 'seq')
  redis.call('PUBLISH', bus, '\\n' .. channel .. '\\n\\n' .. seq .. '\\n' .. string.sub(entry, nl + 1))
  return 1
end
local function reap(prefix, bus, node)
  local set = prefix .. 'node:' .. node .. ':presence'
  for _, member in ipairs(redis.call('SMEMBERS', set)) do
    local space = string.find(member, ' ', 1, true)
    leave(prefix, bus, string.sub(member, 1, space - 1), string.sub(member, space + 1))
  end
  redis.call('DEL', set, prefix .. 'node:' .. node .. ':channels')
  redis.call('ZREM', prefix .. 'nodes', node)
end
`;

/** ARGV: prefix, bus, node, channel, socket id, user id, user_info JSON, member_added frame, member_removed frame, max members. */
const JOIN = `
local prefix, bus, node, channel, socket_id, user_id = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]
local base = prefix .. 'presence:' .. channel
local seq = tonumber(redis.call('GET', prefix .. 'seq') or '0')
if redis.call('HEXISTS', base .. ':sockets', socket_id) == 1 then
  return {1, seq, redis.call('HGETALL', base .. ':users')}
end
local before = tonumber(redis.call('HGET', base .. ':counts', user_id) or '0')
local max = tonumber(ARGV[10])
if before == 0 and max > 0 and redis.call('HLEN', base .. ':users') >= max then
  return {0, seq, {}}
end
redis.call('HSET', base .. ':sockets', socket_id, user_id .. '\\n' .. ARGV[9])
redis.call('HINCRBY', base .. ':counts', user_id, 1)
redis.call('SADD', prefix .. 'node:' .. node .. ':presence', channel .. ' ' .. socket_id)
if before == 0 then
  redis.call('HSET', base .. ':users', user_id, ARGV[7])
  seq = redis.call('INCR', prefix .. 'seq')
  redis.call('PUBLISH', bus, '\\n' .. channel .. '\\n' .. socket_id .. '\\n' .. seq .. '\\n' .. ARGV[8])
end
return {1, seq, redis.call('HGETALL', base .. ':users')}
`;

/** ARGV: prefix, bus, node, channel, socket id. */
const LEAVE = `${LEAVE_FUNCTION}
redis.call('SREM', ARGV[1] .. 'node:' .. ARGV[3] .. ':presence', ARGV[4] .. ' ' .. ARGV[5])
return leave(ARGV[1], ARGV[2], ARGV[4], ARGV[5])
`;

/** ARGV: prefix, bus, node, timeout ms. Returns {was this node registered, nodes reaped}. */
const HEARTBEAT = `${LEAVE_FUNCTION}
local GAP_NOTICE = '${GAP_NOTICE}'
local prefix, bus, node = ARGV[1], ARGV[2], ARGV[3]
local now = now_ms()
local known = redis.call('ZSCORE', prefix .. 'nodes', node)
redis.call('ZADD', prefix .. 'nodes', now + tonumber(ARGV[4]), node)
local dead = redis.call('ZRANGEBYSCORE', prefix .. 'nodes', '-inf', '(' .. now)
for _, other in ipairs(dead) do reap(prefix, bus, other) end
-- A node that died may have committed changes it never published: every node's clients refetch.
if #dead > 0 then redis.call('PUBLISH', bus, GAP_NOTICE) end
return {known and 1 or 0, #dead}
`;

/** ARGV: prefix, bus, node. */
const LEAVE_NODE = `${LEAVE_FUNCTION}
reap(ARGV[1], ARGV[2], ARGV[3])
return 1
`;

/** ARGV: prefix, bus, node, channel… Returns the other live nodes' subscriber count of each channel. */
const REMOTE_COUNTS = `${LEAVE_FUNCTION}
local prefix, node = ARGV[1], ARGV[3]
local out = {}
for i = 4, #ARGV do out[i - 3] = 0 end
for _, other in ipairs(redis.call('ZRANGEBYSCORE', prefix .. 'nodes', now_ms(), '+inf')) do
  if other ~= node then
    local values = redis.call('HMGET', prefix .. 'node:' .. other .. ':channels', unpack(ARGV, 4))
    for i = 1, #ARGV - 3 do
      if values[i] then out[i] = out[i] + tonumber(values[i]) end
    end
  end
end
return out
`;

/** ARGV: prefix, bus, node, name prefix. Returns channel, count, channel, count… of the other live nodes. */
const REMOTE_CHANNELS = `${LEAVE_FUNCTION}
local prefix, node, filter = ARGV[1], ARGV[3], ARGV[4]
local counts, order = {}, {}
for _, other in ipairs(redis.call('ZRANGEBYSCORE', prefix .. 'nodes', now_ms(), '+inf')) do
  if other ~= node then
    local hash = redis.call('HGETALL', prefix .. 'node:' .. other .. ':channels')
    for i = 1, #hash, 2 do
      local channel = hash[i]
      if filter == '' or string.sub(channel, 1, #filter) == filter then
        if counts[channel] == nil then
          counts[channel] = 0
          order[#order + 1] = channel
        end
        counts[channel] = counts[channel] + tonumber(hash[i + 1])
      end
    end
  end
end
local out = {}
for _, channel in ipairs(order) do
  out[#out + 1] = channel
  out[#out + 1] = tostring(counts[channel])
end
return out
`;

class Script {
  private readonly sha: string;
  constructor(private readonly lua: string) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }
  async run(redis: Redis, args: Array<string | number>): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, 0, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return redis.eval(this.lua, 0, ...args);
    }
  }
}

const scripts = {
  join: new Script(JOIN),
  leave: new Script(LEAVE),
  heartbeat: new Script(HEARTBEAT),
  leaveNode: new Script(LEAVE_NODE),
  remoteCounts: new Script(REMOTE_COUNTS),
  remoteChannels: new Script(REMOTE_CHANNELS),
};

/** HMGET through `unpack` is bounded by Lua's stack; ask in slices well below it. */
const COUNT_SLICE = 1000;

export async function connectRedisBus(options: RedisBusOptions): Promise<RealtimeBus> {
  const { prefix, log } = options;
  const nodeId = randomBytes(8).toString('hex');
  const busChannel = `${prefix}bus`;
  const channelsKey = `${prefix}node:${nodeId}:channels`;
  const base = [prefix, busChannel, nodeId];

  // Loaded only with a bus: a single process never needs ioredis, and importing it is a tenth of a start.
  const { Redis } = await import('ioredis');
  // Commands fail at once while Redis is away instead of queueing behind a dead connection: a trigger then
  // rejects (the caller logs it), a subscription is refused and the client may try again.
  const commands = new Redis(options.url, {
    lazyConnect: true,
    connectionName: 'peerex-realtime',
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 5000,
  });
  const subscriber = new Redis(options.url, { lazyConnect: true, connectionName: 'peerex-realtime-bus' });
  commands.on('error', (error: Error) => log.warn({ err: error }, 'realtime: Redis commands failed'));
  subscriber.on('error', (error: Error) => log.warn({ err: error }, 'realtime: Redis bus subscription failed'));

  subscriber.on('message', (_channel: string, message: string) => {
    if (message.startsWith(`${SESSIONS_ENDED}\n`)) {
      const [, origin, ids = ''] = message.split('\n', 3);
      if (origin !== nodeId && ids !== '') options.onSessionsEnded(ids.split(','));
      return;
    }
    if (message.startsWith(GAP_NOTICE)) {
      if (message !== `${GAP_NOTICE}\n${nodeId}`) gap('another node may have published while Redis could not carry it');
      return;
    }
    const a = message.indexOf('\n');
    // The publisher already delivered to its own sockets; presence events (origin '') go to every node.
    if (a < 0 || message.slice(0, a) === nodeId) return;
    const b = message.indexOf('\n', a + 1);
    const c = message.indexOf('\n', b + 1);
    const d = message.indexOf('\n', c + 1);
    if (b < 0 || c < 0 || d < 0) return;
    options.onFrame(message.slice(a + 1, b), message.slice(d + 1), message.slice(b + 1, c), Number(message.slice(c + 1, d)));
  });

  await Promise.all([commands.connect(), subscriber.connect()]);
  await subscriber.subscribe(busChannel);

  let closed = false;
  function gap(why: string) {
    if (closed) return;
    log.warn({ why }, 'realtime: events may have been lost; ending this node\'s sockets so that their clients refetch');
    options.onGap();
  }
  // Set when a connection drops, read once it is back: the first 'ready' (boot) is no gap.
  let subscriberInterrupted = false;
  let commandsInterrupted = false;
  subscriber.on('close', () => (subscriberInterrupted = true));
  commands.on('close', () => (commandsInterrupted = true));
  // ioredis subscribes again before 'ready': from here on nothing more is missed, so the refetch comes after the hole.
  subscriber.on('ready', () => {
    if (!subscriberInterrupted) return;
    subscriberInterrupted = false;
    gap('the bus subscription was interrupted');
  });

  // Occupancy writes, batched: every change of this tick in one round trip.
  let dirty = new Map<string, number>();
  let scheduled: Promise<void> | undefined;
  async function writeCounts(batch: Map<string, number>) {
    const set: string[] = [];
    const gone: string[] = [];
    for (const [channel, count] of batch) {
      if (count > 0) set.push(channel, String(count));
      else gone.push(channel);
    }
    const pipeline = commands.pipeline();
    if (set.length) pipeline.hset(channelsKey, ...set);
    if (gone.length) pipeline.hdel(channelsKey, ...gone);
    const results = await pipeline.exec();
    for (const [error] of results ?? []) if (error) throw error;
  }
  function setLocalCount(channel: string, subscribers: number): Promise<void> {
    dirty.set(channel, subscribers);
    scheduled ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        scheduled = undefined;
        const batch = dirty;
        dirty = new Map();
        writeCounts(batch).then(resolve, (error: unknown) => {
          log.warn({ err: error }, 'realtime: channel counts not written to Redis');
          resolve();
        });
      }),
    );
    return scheduled;
  }

  async function join(channel: string, socketId: string, member: PresenceMember): Promise<JoinResult> {
    const [joined, seq, members] = (await scripts.join.run(commands, [
      ...base,
      channel,
      socketId,
      member.userId,
      member.infoJson,
      memberAddedFrame(channel, member),
      memberRemovedFrame(channel, member.userId),
      options.maxPresenceMembers,
    ])) as [number, number, string[]];
    return joined === 1 ? { joined: true, seq, members } : { joined: false, seq, members: [] };
  }

  /** Writes this node's state again: its counts (absolute, so repeating is harmless) and its presence sockets. */
  async function resync() {
    const counts: string[] = [];
    for (const [channel, count] of options.localState.channels()) counts.push(channel, String(count));
    const pipeline = commands.pipeline().del(channelsKey);
    if (counts.length) pipeline.hset(channelsKey, ...counts);
    await pipeline.exec();
    // The join script skips sockets it already has, and announces users that had been taken out.
    for (const { channel, socketId, member } of options.localState.presence()) await join(channel, socketId, member);
  }

  /** `rewrite`: write this node's state again even if Redis still knew it (after a reconnect it may be stale). */
  async function heartbeat(rewrite = false) {
    const [known, reaped] = (await scripts.heartbeat.run(commands, [...base, options.nodeTimeoutMs])) as [number, number];
    if (reaped > 0) log.info({ nodes: reaped }, 'realtime: took out nodes whose heartbeat stopped');
    if (closed || (known && !rewrite)) return;
    if (!known) log.warn({}, 'realtime: this node had been taken for dead; writing its sockets to Redis again');
    await resync();
  }
  await commands.pipeline().del(channelsKey).exec();
  await scripts.heartbeat.run(commands, [...base, options.nodeTimeoutMs]);
  const beat = setInterval(
    () => void heartbeat().catch((error: unknown) => log.warn({ err: error }, 'realtime: heartbeat failed')),
    Math.max(50, Math.floor(options.nodeTimeoutMs / 3)),
  );
  beat.unref();
  // After a reconnect Redis may have restarted empty, or lost writes made while it was away; and this node's
  // publishes failed meanwhile, so the other nodes' clients must refetch.
  commands.on('ready', () => {
    if (closed) return;
    if (commandsInterrupted) {
      commandsInterrupted = false;
      commands.publish(busChannel, `${GAP_NOTICE}\n${nodeId}`).catch((error: unknown) => log.warn({ err: error }, 'realtime: could not tell the other nodes of a gap'));
    }
    void heartbeat(true).catch((error: unknown) => log.warn({ err: error }, 'realtime: cannot write this node to Redis again'));
  });

  async function inSlices<T>(channels: readonly string[], ask: (slice: readonly string[]) => Promise<T[]>): Promise<T[]> {
    const out: T[] = [];
    for (let i = 0; i < channels.length; i += COUNT_SLICE) out.push(...(await ask(channels.slice(i, i + COUNT_SLICE))));
    return out;
  }

  return {
    nodeId,
    async publish(channel, frame, except) {
      await commands.publish(busChannel, `${nodeId}\n${channel}\n${except ?? ''}\n0\n${frame}`);
    },
    async sessionsEnded(sessionIds) {
      if (sessionIds.length > 0) await commands.publish(busChannel, `${SESSIONS_ENDED}\n${nodeId}\n${sessionIds.join(',')}`);
    },
    setLocalCount,
    join,
    async leave(channel, socketId) {
      await scripts.leave.run(commands, [...base, channel, socketId]);
    },
    remoteCounts: (channels) =>
      inSlices(channels, async (slice) =>
        ((await scripts.remoteCounts.run(commands, [...base, ...slice])) as number[]).map(Number),
      ),
    async remoteChannels(namePrefix) {
      const flat = (await scripts.remoteChannels.run(commands, [...base, namePrefix])) as string[];
      const out = new Map<string, number>();
      for (let i = 0; i < flat.length; i += 2) out.set(flat[i], Number(flat[i + 1]));
      return out;
    },
    async userCounts(channels) {
      if (!channels.length) return [];
      const pipeline = commands.pipeline();
      for (const channel of channels) pipeline.hlen(`${prefix}presence:${channel}:users`);
      const results = (await pipeline.exec()) ?? [];
      return results.map(([error, count]) => {
        if (error) throw error;
        return Number(count);
      });
    },
    userIds: (channel) => commands.hkeys(`${prefix}presence:${channel}:users`),
    async close() {
      closed = true;
      clearInterval(beat);
      try {
        await scheduled;
        await scripts.leaveNode.run(commands, base);
      } catch (error) {
        log.warn({ err: error }, 'realtime: could not take this node out of Redis; its heartbeat will expire');
      }
      // QUIT needs a live connection; one that Redis dropped (and is still reconnecting) is just closed.
      const quit = (client: Redis) => client.quit().then(() => undefined, () => client.disconnect());
      await Promise.all([quit(commands), quit(subscriber)]);
    },
  };
}
