/**
 * One chaos run (bench/chaos.ts at full size, tests/server/chaos.test.ts in a short form): clients trading
 * and chatting against two server processes over one PostgreSQL database and one Redis, while one process
 * or the other is SIGKILLed and started again and Redis is killed once; then the database is checked
 * against everything the clients were told.
 */
import { randomBytes } from 'node:crypto';
import { openPostgres } from '../../server/src/infra/db/postgres.ts';
import type { Db } from '../../server/src/infra/db/db.ts';
import { checkLedger, formatLedgerReport } from '../../server/src/ledger/check.ts';
import type { TradeFacts } from '../../contracts/trade.ts';
import { ChaosClient, factsOf, progressOf, type Acknowledged, type Answer } from './chaos-clients.ts';
import { balancer, fleetEnvironment, logDirectory, serverProcess, startRedis, type ChaosBalancer, type ChaosRedis, type ChaosServer } from './chaos-cluster.ts';
import { PASSWORD, insertOffer, insertTrader, signIn } from './chaos-traders.ts';
import { admin, databaseUrl } from './postgres.ts';

export interface ChaosOptions {
  /** Traders, an even number: half buy on the other half's offers. */
  clients: number;
  /** How long the clients trade; the faults fall inside this time. */
  seconds: number;
  /** SIGKILLs of a server process (each one started again on its port). */
  serverKills: number;
  /** SIGKILLs of Redis (each one started again, empty). */
  redisKills: number;
  /** Progress lines (the bench prints them; the test keeps quiet). */
  log?: (line: string) => void;
  /** A throwaway database and how to drop it; default: one on BENCH_DATABASE_URL's server. */
  database?: () => Promise<ThrowawayDatabase>;
}

export interface ThrowawayDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A database of its own on the benches' PostgreSQL server (bench/support/postgres.ts). */
async function benchDatabase(): Promise<ThrowawayDatabase> {
  const name = `peerex_chaos_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  return { url: databaseUrl(name), drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined) };
}

export interface ChaosReport {
  calls: { made: number; acknowledged: number; failed: number; refused: number };
  trips: { completed: number; cancelled: number };
  kills: { server: number; redis: number };
  reconnects: number;
  /** Channel subscriptions the auth endpoint or the server refused (pusher-js does not ask again by itself). */
  refusedSubscriptions: number;
  refetches: number;
  events: number;
  messages: number;
  ledger: string;
  checked: { opens: number; actions: number; messages: number; trades: number; knownStates: number };
  violations: string[];
  /**
   * When something is violated: the faults and, for each client that does not know what the database knows,
   * its socket's and subscriptions' timeline, in seconds from the start of trading; empty otherwise.
   */
  diagnosis: string[];
  logs: string;
}

/** 97 EUR at 1 EUR per USD with BTC at 97,000 USD: 0.001 BTC per trade. */
const TRADE = { amount: '97', payment_method: 'SEPA', rate: '1' };
/** Every fourth trip the buyer cancels instead of paying, so both ways of ending a trade are exercised. */
const CANCEL_EVERY = 4;
/** How long after the trading stops every client must be connected again and know what the database knows. */
const SETTLE_TIMEOUT_MS = 45_000;
/** The longest a fault waits for every client to be connected again after the last one. */
const RECONNECT_WAIT_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const random = (low: number, high: number) => low + Math.random() * (high - low);

interface Lane {
  index: number;
  buyer: ChaosClient;
  seller: ChaosClient;
  offer: number;
  /** The trades this lane opened (acknowledged or found applied), in order. */
  channels: string[];
  completed: number;
  cancelled: number;
}

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  // Every progress line is kept with its time, for the diagnosis of a failed run.
  const progress: Array<{ at: number; what: string }> = [];
  const log = (line: string) => {
    progress.push({ at: Date.now(), what: line.trim() });
    options.log?.(line);
  };
  const violations: string[] = [];
  const logs = logDirectory();
  const database = await (options.database ?? benchDatabase)();
  const url = database.url;
  let redis: ChaosRedis | undefined;
  const servers: ChaosServer[] = [];
  const balancers: ChaosBalancer[] = [];
  const clients: ChaosClient[] = [];
  let db: Db | undefined;
  try {
    redis = await startRedis(logs);
    const env = fleetEnvironment(url, redis.url);
    servers.push(await serverProcess('server-a', env, logs), await serverProcess('server-b', env, logs));
    // One at a time: the first migrates the new database, the second finds it migrated.
    for (const server of servers) await server.start();
    log(`Servers on ports ${servers.map((s) => s.port).join(' and ')}, Redis at ${redis.url}, database ${new URL(url).pathname.slice(1)}; logs in ${logs}`);

    db = await openPostgres({ url, poolSize: 4 });
    const lanes = await setUp(db, options.clients, servers, balancers, violations);
    for (const lane of lanes) clients.push(lane.buyer, lane.seller);
    await Promise.all(clients.map((client) => client.ready()));
    log(`${clients.length} clients signed in and connected; trading for ${options.seconds} s`);

    const kills: Kill[] = [];
    const started = Date.now();
    const deadline = started + options.seconds * 1000;
    // Trading goes on until the last fault is over (a restart may take the fault schedule past the deadline):
    // every fault strikes a fleet under load.
    let faultsOver = false;
    const faults = injectFaults(options, started, deadline, servers, redis, clients, kills, log).finally(() => (faultsOver = true));
    const trading = Promise.all(lanes.map((lane) => trade(lane, () => Date.now() < deadline || !faultsOver, violations)));
    await Promise.all([trading, faults]);
    log(`Trading stopped after ${((Date.now() - started) / 1000).toFixed(1)} s; waiting for every client to be connected and up to date`);

    await settle(clients, db, violations);
    const { checked, behind } = await check(db, lanes, kills, violations);
    const ledger = await checkLedger(db);
    if (!ledger.clean) violations.push(`ledger:check is not clean:\n${formatLedgerReport(ledger)}`);
    for (const server of servers) violations.push(...server.unexpectedExits);

    const sum = (pick: (client: ChaosClient) => number) => clients.reduce((total, client) => total + pick(client), 0);
    return {
      calls: {
        made: sum((c) => c.calls.made),
        acknowledged: sum((c) => c.calls.acknowledged),
        failed: sum((c) => c.calls.failed),
        refused: sum((c) => c.calls.refused),
      },
      trips: { completed: lanes.reduce((t, l) => t + l.completed, 0), cancelled: lanes.reduce((t, l) => t + l.cancelled, 0) },
      kills: { server: servers.reduce((t, s) => t + s.killedAt.length, 0), redis: options.redisKills },
      reconnects: sum((c) => c.connectedAt.length - 1),
      refusedSubscriptions: sum((c) => c.refusedSubscriptions),
      refetches: sum((c) => c.refetches),
      events: sum((c) => c.events),
      messages: sum((c) => c.acknowledged.filter((a) => a.kind === 'message').length),
      ledger: formatLedgerReport(ledger),
      checked,
      violations,
      diagnosis: violations.length ? diagnose(started, progress, behind) : [],
      logs,
    };
  } finally {
    for (const client of clients) client.disconnect();
    await db?.close();
    for (const lb of balancers) await lb.close();
    for (const server of servers) await server.stop();
    await redis?.stop();
    await database.drop();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Set-up: half the traders sell (each with an offer), half buy; each signed in on its home process.

async function setUp(db: Db, count: number, servers: ChaosServer[], balancers: ChaosBalancer[], violations: string[]): Promise<Lane[]> {
  const client = async (index: number, username: string, id: string): Promise<ChaosClient> => {
    const home = servers[index % servers.length]!;
    const other = servers[(index + 1) % servers.length]!;
    // A client's socket lives on its home process while that is up (a balancer of its own tells which it is on).
    const socket = await balancer(home, other);
    const auth = await balancer(home, other);
    balancers.push(socket, auth);
    const address = `10.77.${index >> 8}.${index & 255}`;
    const session = await signIn(home.port, username, address);
    return new ChaosClient({ username, id, ...session, address, home, other, balancers: { socket, auth }, violations });
  };

  const lanes: Lane[] = [];
  for (let i = 0; i < count / 2; i += 1) {
    const sellerName = `chaos_seller${i}`;
    const buyerName = `chaos_buyer${i}`;
    const sellerId = await insertTrader(db, sellerName, '1000');
    const buyerId = await insertTrader(db, buyerName);
    const offer = await insertOffer(db, sellerId);
    // Buyer and seller of one lane on different processes: every trade crosses the bus.
    lanes.push({
      index: i,
      buyer: await client(2 * i, buyerName, buyerId),
      seller: await client(2 * i + 1, sellerName, sellerId),
      offer,
      channels: [],
      completed: 0,
      cancelled: 0,
    });
  }
  return lanes;
}

// ---------------------------------------------------------------------------------------------------------
// Trading. Each call is made until it is known to have been applied: acknowledged (200), or, after a failed
// attempt, found applied by refetching. Nothing is sent again before the refetch says it was not applied.

/**
 * `attempt` until it is acknowledged or `applied()` (asked after each failed attempt) says it took effect.
 * Answers the acknowledged answer, or undefined when it was found applied without one.
 */
async function ensure(
  who: ChaosClient,
  what: string,
  attempt: () => Promise<Answer>,
  applied: () => Promise<boolean>,
  violations: string[],
): Promise<Extract<Answer, { kind: 'ok' }> | undefined> {
  for (;;) {
    const answer = await attempt();
    if (answer.kind === 'ok') return answer;
    if (await applied()) return undefined;
    if (answer.kind === 'refused') {
      // A refusal of a call that was not applied: nothing the product should answer to this client here.
      violations.push(`${who.username}: ${what} refused (${answer.status} ${answer.info}) and not applied`);
      throw new Error(`${what} refused`);
    }
  }
}

const tradeCall = (who: ChaosClient, body: Record<string, unknown>) => who.post('/api/market/trade/', body);

async function factsFor(who: ChaosClient, channel: string): Promise<TradeFacts | undefined> {
  const entry = (await who.conversations()).find((c) => c.channel === channel);
  return entry && factsOf(entry);
}

async function trade(lane: Lane, going: () => boolean, violations: string[]) {
  const { buyer, seller } = lane;
  const record = (who: ChaosClient, acknowledged: Acknowledged) => who.acknowledged.push(acknowledged);
  try {
    for (let trip = 0; going(); trip += 1) {
      // Open. Applied without an answer means: a pending trade with this seller that this lane does not know yet.
      let channel = '';
      const opened = await ensure(
        buyer,
        'open',
        () => tradeCall(buyer, { type: 'open', offer: lane.offer, ...TRADE }),
        async () => {
          const found = (await buyer.conversations()).find((c) => c.partner === seller.username && c.status === 'pending' && !lane.channels.includes(c.channel));
          if (found) channel = found.channel;
          return found !== undefined;
        },
        violations,
      );
      if (opened) {
        channel = ChaosClient.channelOf(opened);
        record(buyer, { kind: 'open', channel });
        buyer.learn(channel, { status: 'pending', buyer_paid: false, dispute_raised: false });
      }
      lane.channels.push(channel);
      buyer.follow(channel);
      seller.follow(channel);

      for (const [who, side] of [
        [buyer, 'b'],
        [seller, 's'],
      ] as const) {
        const text = `chaos ${lane.index}:${trip}:${side}`;
        const sent = await ensure(
          who,
          'send_message',
          () => who.post(`/api/market/chat/${channel}/`, { type: 'send_message', message_type: 'text', text }),
          async () => (await who.messages(channel)).some((m) => m.text === text && m.sender === who.username),
          violations,
        );
        if (sent) record(who, { kind: 'message', channel, text });
      }

      const act = async (who: ChaosClient, type: 'mark_paid' | 'release_coin' | 'cancel', reached: (facts: TradeFacts) => boolean, after: TradeFacts) => {
        const done = await ensure(
          who,
          type,
          // A release carries the password, its second proof (docs/rules.md "Trades"); within the session's
          // 10-minute window the server does not look at it, so every release may carry it.
          () => tradeCall(who, type === 'release_coin' ? { type, channel, password: PASSWORD } : { type, channel }),
          async () => {
            const facts = await factsFor(who, channel);
            return facts !== undefined && reached(facts);
          },
          violations,
        );
        if (done) {
          record(who, { kind: type, channel });
          who.learn(channel, after);
        }
      };
      if (trip % CANCEL_EVERY === CANCEL_EVERY - 1) {
        await act(buyer, 'cancel', (f) => f.status === 'cancelled', { status: 'cancelled', buyer_paid: false, dispute_raised: false });
        lane.cancelled += 1;
      } else {
        await act(buyer, 'mark_paid', (f) => f.buyer_paid, { status: 'pending', buyer_paid: true, dispute_raised: false });
        await act(seller, 'release_coin', (f) => f.status === 'completed', { status: 'completed', buyer_paid: true, dispute_raised: false });
        lane.completed += 1;
      }
      buyer.unfollow(channel);
      seller.unfollow(channel);
    }
  } catch (error) {
    violations.push(`lane ${lane.index} stopped: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A server SIGKILL: which process, when, and the clients whose socket was on it then. */
interface Kill {
  server: ChaosServer;
  at: number;
  holding: ChaosClient[];
}

// ---------------------------------------------------------------------------------------------------------
// Faults: the server kills at random moments spread over the run (each in its own slice of the time, so at
// least `serverKills` happen), the victim chosen at random and started again at once on its port; Redis
// killed at a random moment of its own and started again after a short outage.

async function injectFaults(
  options: ChaosOptions,
  started: number,
  deadline: number,
  servers: ChaosServer[],
  redis: ChaosRedis,
  clients: ChaosClient[],
  kills: Kill[],
  log: (line: string) => void,
) {
  const span = deadline - started;
  // A fault strikes a fleet whose clients are all connected again: each kill is then one the clients must
  // recover from (a kill of a process whose clients are still reconnecting from the last one tests nothing new).
  const reconnected = async () => {
    const limit = Date.now() + RECONNECT_WAIT_MS;
    while (clients.some((client) => !client.isConnected()) && Date.now() < limit) await sleep(100);
  };
  const serverFaults = async () => {
    const slice = span / options.serverKills;
    for (let k = 0; k < options.serverKills; k += 1) {
      const at = started + slice * k + random(0.1, 0.7) * slice;
      await sleep(Math.max(0, at - Date.now()));
      await reconnected();
      const victim = servers[Math.floor(Math.random() * servers.length)]!;
      const holding = clients.filter((client) => client.socketServer() === victim);
      await victim.kill();
      kills.push({ server: victim, at: victim.killedAt.at(-1)!, holding });
      log(`  ${((Date.now() - started) / 1000).toFixed(1)} s: SIGKILL ${victim.name}`);
      const restart = Date.now();
      await victim.start();
      log(`  ${((Date.now() - started) / 1000).toFixed(1)} s: ${victim.name} up again after ${((Date.now() - restart) / 1000).toFixed(1)} s`);
    }
  };
  const redisFaults = async () => {
    for (let k = 0; k < options.redisKills; k += 1) {
      await sleep(Math.max(0, started + random(0.2, 0.8) * span - Date.now()));
      await reconnected();
      await redis.kill();
      log(`  ${((Date.now() - started) / 1000).toFixed(1)} s: SIGKILL Redis`);
      await sleep(random(500, 2000));
      await redis.start();
      log(`  ${((Date.now() - started) / 1000).toFixed(1)} s: Redis up again (empty)`);
    }
  };
  await Promise.all([serverFaults(), redisFaults()]);
}

// ---------------------------------------------------------------------------------------------------------
// After the run.

/**
 * Waits until every client is connected and what it knows of each of its trades equals the database, or
 * the time is up (then `check` reports the differences). No refetch is made here: a client is up to date
 * only through the answers, events and reconnect refetches it had, as in the web app.
 */
async function settle(clients: ChaosClient[], db: Db, violations: string[]) {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  for (;;) {
    const database = await tradeFacts(db);
    const behind = clients.filter((client) => !client.isConnected() || differences(client, database).length > 0);
    if (behind.length === 0) return;
    if (Date.now() > deadline) {
      for (const client of behind) if (!client.isConnected()) violations.push(`${client.username}: realtime socket not connected ${SETTLE_TIMEOUT_MS / 1000} s after the run`);
      return;
    }
    await sleep(250);
  }
}

interface DatabaseTrade extends TradeFacts {
  channel: string;
  id: string;
  buyer_id: string;
  seller_id: string;
}

async function tradeFacts(db: Db): Promise<Map<string, DatabaseTrade>> {
  const rows = await db.query<DatabaseTrade>(`SELECT id::text, channel, status, buyer_paid, dispute_raised, buyer_id::text, seller_id::text FROM trades`);
  return new Map(rows.map((row) => [row.channel, row]));
}

/** Each trade of this client whose facts, as the client knows them, differ from the database's. */
function differences(client: ChaosClient, database: Map<string, DatabaseTrade>): string[] {
  const out: string[] = [];
  for (const trade of database.values()) {
    if (trade.buyer_id !== client.id && trade.seller_id !== client.id) continue;
    const known = client.known.get(trade.channel);
    const actual = JSON.stringify(factsOf(trade));
    if (!known || progressOf(known) !== progressOf(trade) || JSON.stringify(known) !== actual) {
      out.push(`${client.username}: ${trade.channel} known as ${known ? JSON.stringify(known) : 'nothing'}, the database has ${actual}`);
    }
  }
  return out;
}

function diagnose(started: number, progress: Array<{ at: number; what: string }>, behind: ChaosClient[]): string[] {
  const time = (at: number) => `${((at - started) / 1000).toFixed(1).padStart(6)} s`;
  // The fault lines carry their own time already ("4.4 s: SIGKILL server-a"): one time per line.
  const lines = progress.filter((entry) => entry.at >= started).map((entry) => `${time(entry.at)}  ${entry.what.replace(/^[\d.]+ s: /, '')}`);
  for (const client of behind) {
    lines.push(`${client.username} (home ${client.home.name}, ${client.events} events received), which does not know what the database knows:`);
    // Trade channels come and go every trip: only their refusals say something.
    const telling = client.timeline.filter(({ what }) => !what.startsWith('subscribed private-') || what.startsWith('subscribed private-user-'));
    lines.push(...telling.map((entry) => `${time(entry.at)}    ${entry.what}`));
  }
  return lines;
}

/** Checks the database against what the clients were told; answers the counts and the clients that fell behind. */
async function check(
  db: Db,
  lanes: Lane[],
  kills: Kill[],
  violations: string[],
): Promise<{ checked: ChaosReport['checked']; behind: ChaosClient[] }> {
  const database = await tradeFacts(db);
  const clients = lanes.flatMap((lane) => [lane.buyer, lane.seller]);
  const checked = { opens: 0, actions: 0, messages: 0, trades: database.size, knownStates: 0 };

  // Every acknowledged call is in the database.
  const messages = await db.query<{ channel: string; text: string; sender: string; copies: number }>(
    `SELECT t.channel, m.text, u.username AS sender, count(*)::int AS copies
       FROM chat_messages m JOIN trades t ON t.id = m.trade_id JOIN users u ON u.id = m.sender_id
      GROUP BY t.channel, m.text, u.username`,
  );
  const stored = new Map(messages.map((m) => [`${m.channel}\n${m.sender}\n${m.text}`, m.copies]));
  for (const client of clients) {
    for (const ack of client.acknowledged) {
      const trade = database.get(ack.channel);
      if (ack.kind === 'open') {
        checked.opens += 1;
        if (!trade) violations.push(`${client.username}: acknowledged open of ${ack.channel} is not in the database`);
      } else if (ack.kind === 'message') {
        checked.messages += 1;
        if (!stored.has(`${ack.channel}\n${client.username}\n${ack.text}`)) violations.push(`${client.username}: acknowledged message "${ack.text}" is not stored`);
      } else {
        checked.actions += 1;
        const reached = ack.kind === 'mark_paid' ? trade?.buyer_paid : ack.kind === 'release_coin' ? trade?.status === 'completed' : trade?.status === 'cancelled';
        if (!reached) violations.push(`${client.username}: acknowledged ${ack.kind} on ${ack.channel} is not in the database (${JSON.stringify(trade && factsOf(trade))})`);
      }
    }
  }

  // Nothing applied twice: one message per text, one trade per trip, one journal entry per trade and movement.
  for (const m of messages) if (m.copies > 1) violations.push(`message "${m.text}" by ${m.sender} stored ${m.copies} times in ${m.channel}`);
  for (const lane of lanes) {
    const ofLane = [...database.values()].filter((t) => t.buyer_id === lane.buyer.id && t.seller_id === lane.seller.id);
    for (const trade of ofLane) if (!lane.channels.includes(trade.channel)) violations.push(`lane ${lane.index}: trade ${trade.channel} opened without the lane knowing (an open applied twice)`);
    for (const trade of ofLane) if (trade.status === 'pending') violations.push(`lane ${lane.index}: trade ${trade.channel} left pending`);
  }
  const entries = await db.query<{ trade_id: string; movement: string; copies: number }>(
    `SELECT split_part(reference, ':', 2) AS trade_id, split_part(reference, ':', 3) AS movement, count(*)::int AS copies
       FROM ledger_entries WHERE reference LIKE 'trade:%' GROUP BY 1, 2`,
  );
  const movements = new Map<string, Map<string, number>>();
  for (const e of entries) {
    if (!movements.has(e.trade_id)) movements.set(e.trade_id, new Map());
    movements.get(e.trade_id)!.set(e.movement, e.copies);
  }
  for (const trade of database.values()) {
    const expected = new Map([['open', 1]]);
    if (trade.status === 'completed') expected.set('release', 1);
    if (trade.status === 'cancelled') expected.set('cancel', 1);
    const actual = movements.get(trade.id) ?? new Map<string, number>();
    const same = actual.size === expected.size && [...expected].every(([movement, copies]) => actual.get(movement) === copies);
    if (!same) violations.push(`trade ${trade.channel} (${trade.status}) has journal entries ${JSON.stringify([...actual])}, expected ${JSON.stringify([...expected])}`);
  }

  // Every client reconnected after each kill of the process its socket was on, and knows what the database knows.
  const behind: ChaosClient[] = [];
  for (const client of clients) {
    const diff = differences(client, database);
    checked.knownStates += [...database.values()].filter((t) => t.buyer_id === client.id || t.seller_id === client.id).length;
    violations.push(...diff);
    if (diff.length) behind.push(client);
  }
  for (const { server, at, holding } of kills) {
    for (const client of holding) {
      if (!client.connectedAt.some((connected) => connected > at)) violations.push(`${client.username}: no reconnect after ${server.name}'s SIGKILL at ${new Date(at).toISOString()}`);
    }
  }
  return { checked, behind };
}
