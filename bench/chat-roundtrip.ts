/**
 * Chat round trip under 32 concurrent chatting pairs: `send_message` over HTTP to the `new_message` frame at
 * the partner's realtime socket, beside a ceiling measured in the same run.
 *
 * 1. The server: the real app (buildApp) in a child process on 127.0.0.1 at a random port, realtime built in
 *    (the Pusher-protocol server on the product's own port), rate limits raised out of the way. On PostgreSQL
 *    when DATABASE_URL is given (a throwaway database is created on that server and dropped at the end), else
 *    on in-memory PGlite. The child inserts 32 sellers (with BTC deposited through the ledger, and one sell
 *    offer each) and 32 buyers; this process signs all 64 in over HTTP and each buyer opens one trade
 *    (`POST /api/market/trade/` `open`; the channel is the answer's `X-Trade-Channel` header).
 * 2. The clients: 64 raw `ws` sockets (one per trader, not pusher-js: the protocol is spoken by hand so the
 *    client costs little) at `/app/<key>` (key from `GET /api/config`), each subscribing to `private-<channel>`
 *    with the signature of `POST /api/realtime/auth/` (websocket token, form-encoded `socket_id`, `channel_name`).
 * 3. Each pair chats in a closed loop: one side sends a message (`{type:"send_message", message_type:"text",
 *    text}` over keep-alive `node:http`); when the partner's socket reads its `new_message` frame, the partner
 *    sends the next one. Latency = just before the HTTP call → that frame read at the partner's socket (both
 *    ends are this process's clock). The sender's own socket also gets the frame (it is on the channel too),
 *    and the chat also publishes `conversation` to both user channels (nobody subscribes to those here).
 * 4. Scenarios, each BENCH_SECONDS (15) in BENCH_ROUNDS (3) interleaved slices after a 3 s warm-up each, so
 *    all live through the same ups and downs of a shared machine:
 *      - `publish (ceiling)`: `POST /api/bench/publish/<channel>/`, a route that exists only in this run
 *        (BuildAppOptions.extraCalls): the same HTTP, session hook (one indexed read), request contract,
 *        `app.realtime.publish('private-<channel>', 'new_message', …)` and answer envelope; no chat rules and no
 *        write. The floor of the pipeline.
 *      - `SELECT 1 + publish`: the same with one `SELECT 1` through the pool first (one more database round trip).
 *      - `send_message`: the product's chat (`POST /api/market/chat/<channel>/`): one statement that checks the
 *        sender and stores the message, the publish, then the `conversation` announcement to both parties.
 *    Prints messages/s, p50/p90/p99/max of the round trip, p50 of the HTTP answer, the CPU one message costs
 *    the server process, (PostgreSQL) this database's backends and this load generator, and the ratio
 *    chat ÷ ceiling of throughput and of p50.
 *
 * Run: node --import tsx bench/chat-roundtrip.ts                                              # PGlite
 *      DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/chat-roundtrip.ts   # PostgreSQL
 * Knobs: BENCH_PAIRS (32), BENCH_SECONDS (15), BENCH_ROUNDS (3), BENCH_WARM_UP_SECONDS (3),
 * BENCH_ONLY (comma list of scenario name prefixes: publish, SELECT, send_message), BENCH_KEEP_DATABASE=1,
 * BENCH_PROFILE=1 (a V8 CPU profile of the server under /tmp/bench-prof-chat).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { xpubEnvironmentOf } from '../server/src/wallets/keys.ts';
import { newVapidEnvironment } from '../server/src/push/keys.ts';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import pg from 'pg';
import WebSocket from 'ws';
import { chatMessage, chatRequest, realtimeEvents, tradeChannelName } from '../contracts/chat.ts';
import { TRADE_CHANNEL_HEADER } from '../contracts/trade.ts';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { MEMORY_DATA_DIR } from '../server/src/infra/db/pglite.ts';
import { defineCall, envelope } from '../server/src/infra/http/call.ts';
import { ok } from '../server/src/infra/http/reply.ts';
import { postEntry } from '../server/src/ledger/ledger.ts';
import { createPasswordHasher, OWASP_ARGON2ID } from '../server/src/infra/passwords.ts';
import { signedIn } from '../server/src/accounts/sessions.plugin.ts';
import { createPoster, percentile } from './support/http.ts';

const PAIRS = Number(process.env.BENCH_PAIRS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 3);
const ONLY = process.env.BENCH_ONLY?.split(',');
const PASSWORD = 'bench-password-1';
/** A message that has not reached the partner in this long is a failure of the run, not a slow figure. */
const LOST_AFTER_MS = 10_000;

interface Scenario {
  name: string;
  path: (channel: string) => string;
}
const ALL_SCENARIOS: Scenario[] = [
  { name: 'publish (ceiling)', path: (channel) => `/api/bench/publish/${channel}/` },
  { name: 'SELECT 1 + publish', path: (channel) => `/api/bench/select-1-publish/${channel}/` },
  { name: 'send_message', path: (channel) => `/api/market/chat/${channel}/` },
];
const SCENARIOS = ALL_SCENARIOS.filter((scenario) => !ONLY || ONLY.some((prefix) => scenario.name.startsWith(prefix)));

// ---------------------------------------------------------------------------------------------------------
// The server side: a child process, so the load generator does not share its event loop.

async function serve(databaseUrl: string) {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL;
  const config = loadConfig({
    ...env,
    ...(databaseUrl === 'pglite' ? { DATA_DIR: MEMORY_DATA_DIR } : { DATABASE_URL: databaseUrl }),
    NODE_ENV: 'production',
    // Production needs the deposit addresses' keys; a throwaway mnemonic's will do for a benchmark.
    ...xpubEnvironmentOf(generateMnemonic(wordlist)),
    // And the web push key pair every process of a fleet shares.
    ...newVapidEnvironment(),
    APP_SECRET: randomBytes(32).toString('hex'),
    SEED_DEMO: 'false',
    WEB_DIST: '/nonexistent',
    // 64 sign-ins from one address, and every trader sends as fast as the partner answers.
    RATE_LIMIT_PER_MINUTE: '1000000',
    TRADE_OPENS_PER_HOUR: '1000000',
    MAX_OPEN_TRADES: '1000',
    CHAT_MESSAGES_PER_MINUTE: '1000000',
    // 64 sockets from this one address, more with BENCH_PAIRS.
    REALTIME_MAX_CONNECTIONS_PER_ADDRESS: '0',
  });
  let sequence = 0;
  const app = await buildApp({
    config,
    // The ceilings: what send_message does without the database and the chat's rules (and with one SELECT 1).
    extraCalls: [false, true].map((select) =>
      defineCall({
        method: 'post',
        path: select ? '/api/bench/select-1-publish/{channel}/' : '/api/bench/publish/{channel}/',
        tag: 'Bench',
        summary: select ? 'SELECT 1 and publish' : 'Publish',
        description: "The ceiling probes: send_message's HTTP, session hook, request contract and publish, without the chat's rules.",
        access: 'session',
        request: chatRequest,
        answer: envelope(chatMessage),
        handle: async ({ app, request, body }) => {
          const { username } = signedIn(request);
          if (body.type !== 'send_message') throw new Error('send_message only');
          if (select) await app.db.query('SELECT 1');
          sequence += 1;
          const { channel } = request.params as { channel: string };
          const message = { id: sequence, sender: username, recipient: 'partner', text: body.text, created: new Date().toISOString(), channel };
          app.realtime.publish(tradeChannelName(channel), realtimeEvents.newMessage, message);
          return ok(chatMessage, message);
        },
      }),
    ),
  });

  // Traders and offers inserted directly (the bench measures chatting, not signing up); BTC through the ledger.
  const hash = await createPasswordHasher(OWASP_ARGON2ID).hash(PASSWORD);
  const suffix = randomBytes(3).toString('hex');
  const insertTrader = async (username: string) =>
    (
      await app.db.one<{ id: string }>(
        `INSERT INTO users (username, email, password_hash, created_at) VALUES ($1, $2, $3, now()) RETURNING id`,
        [username, `${username}@bench.test`, hash],
      )
    ).id;
  const pairs: { buyer: string; seller: string; offer: number }[] = [];
  for (let i = 0; i < PAIRS; i += 1) {
    const seller = `cs${suffix}${i}`;
    const buyer = `cb${suffix}${i}`;
    const sellerId = await insertTrader(seller);
    await insertTrader(buyer);
    await app.db.transaction((tx) =>
      postEntry(tx, {
        reference: `deposit:bench-${seller}`,
        at: new Date(),
        postings: [
          { account: { kind: 'deposits', coinId: 1 }, amount: '-1' },
          { account: { kind: 'available', userId: sellerId, coinId: 1 }, amount: '1' },
        ],
      }),
    );
    const { id: offer } = await app.db.one<{ id: number }>(
      `INSERT INTO offers (user_id, offer_type, coin_id, currency_code, rate, min_amount, max_amount, payment_method_ids, created_at, updated_at)
       VALUES ($1, 'sell', 1, 'EUR', 1, 1, 1000000, ARRAY[(SELECT id FROM payment_methods WHERE name = 'SEPA')], now(), now())
       RETURNING id::int`,
      [sellerId],
    );
    pairs.push({ buyer, seller, offer });
  }

  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.send?.({ address, pairs });
  process.on('message', (message) => {
    if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  });
  process.on('disconnect', () => void app.close().then(() => process.exit(0)));
}

// ---------------------------------------------------------------------------------------------------------
// The load side.

const { post, close: closeHttp } = createPoster(PAIRS * 4);

interface Trader {
  username: string;
  token: string;
  websocketToken: string;
  socket?: WebSocket;
}

/** One message on its way: who should read it, its text, when its HTTP call started. */
interface InFlight {
  to: 0 | 1;
  text: string;
  start: number;
  timer: NodeJS.Timeout;
}

interface Pair {
  index: number;
  channel: string;
  sides: [Trader, Trader];
  sequence: number;
  inFlight?: InFlight;
}

/** Linux's USER_HZ: /proc reports CPU time in these ticks. */
const CLOCK_TICKS_PER_SECOND = 100;

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Microseconds of CPU used so far by the client backends of `database` (from /proc), as bench/trades.ts. */
async function backendCpu(serverUrl: string, database: string): Promise<number | undefined> {
  const pids = await withClient(serverUrl, (client) =>
    client
      .query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'`, [database])
      .then((r) => r.rows.map((row) => row.pid)),
  );
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The backend ended meanwhile.
    }
  }
  return pids.length > 0 && existsSync('/proc') ? (ticks * 1_000_000) / CLOCK_TICKS_PER_SECOND : undefined;
}

async function signIn(base: URL, username: string): Promise<Trader> {
  const answer = await post(base, '/api/security/login/', '', { username, password: PASSWORD, device: 'bench' });
  const info = (JSON.parse(answer.text) as { info: { token?: string; user?: { websocket_token: string } } }).info;
  if (!info.token || !info.user) throw new Error(`login of ${username} failed: ${answer.text}`);
  return { username, token: info.token, websocketToken: info.user.websocket_token };
}

async function openTrade(base: URL, buyer: Trader, offer: number): Promise<string> {
  const answer = await fetch(new URL('/api/market/trade/', base), {
    method: 'POST',
    headers: { authorization: `Bearer ${buyer.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'open', offer, amount: '97', payment_method: 'SEPA', rate: '1' }),
  });
  const channel = answer.headers.get(TRADE_CHANNEL_HEADER);
  if (answer.status !== 200 || !channel) throw new Error(`open failed: ${answer.status} ${await answer.text()}`);
  return channel;
}

/**
 * A raw Pusher-protocol client: connects, waits for `pusher:connection_established`, has the subscription
 * signed by the product and subscribes; resolves once `pusher_internal:subscription_succeeded` is in.
 * Afterwards every event frame goes to `onEvent`.
 */
function connect(base: URL, key: string, trader: Trader, channel: string, onEvent: (event: string, data: string) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://${base.host}/app/${key}?protocol=7&client=js&version=8.6.0&flash=false`, { perMessageDeflate: false });
    const timer = setTimeout(() => reject(new Error(`${trader.username}: no subscription after 15 s`)), 15_000);
    socket.on('error', reject);
    socket.on('message', (raw) => {
      const frame = JSON.parse(raw.toString()) as { event: string; channel?: string; data?: unknown };
      switch (frame.event) {
        case 'pusher:connection_established': {
          const { socket_id } = JSON.parse(frame.data as string) as { socket_id: string };
          void fetch(new URL('/api/realtime/auth/', base), {
            method: 'POST',
            headers: { authorization: `Bearer ${trader.websocketToken}`, 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ socket_id, channel_name: tradeChannelName(channel) }).toString(),
          })
            .then(async (answer) => {
              const text = await answer.text();
              if (answer.status !== 200) throw new Error(`auth of ${trader.username}: ${answer.status} ${text}`);
              // The built-in server signs the session into `channel_data`, which goes back as it came (as pusher-js does).
              const { auth, channel_data } = JSON.parse(text) as { auth: string; channel_data?: string };
              socket.send(JSON.stringify({ event: 'pusher:subscribe', data: { auth, channel_data, channel: tradeChannelName(channel) } }));
            })
            .catch(reject);
          break;
        }
        case 'pusher_internal:subscription_succeeded':
          clearTimeout(timer);
          resolve(socket);
          break;
        case 'pusher:ping':
          socket.send(JSON.stringify({ event: 'pusher:pong', data: {} }));
          break;
        case 'pusher:error':
        case 'pusher:subscription_error':
          reject(new Error(`${trader.username}: ${JSON.stringify(frame)}`));
          break;
        default:
          if (typeof frame.data === 'string') onEvent(frame.event, frame.data);
      }
    });
  });
}

interface Sample {
  latencies: number[];
  answers: number[];
  elapsed: number;
}

/**
 * Every pair chats in a closed loop for `seconds` through `scenario`; resolves once the last message of
 * every pair is delivered and every HTTP answer is in.
 */
function chat(base: URL, pairs: Pair[], scenario: Scenario, seconds: number, onFrame: { current: (pair: Pair, side: 0 | 1, data: string) => void }): Promise<Sample> {
  const latencies: number[] = [];
  const answers: number[] = [];
  const calls: Promise<void>[] = [];
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let running = pairs.length;
  let last = started;
  return new Promise<Sample>((resolve, reject) => {
    const finish = () => {
      running -= 1;
      if (running === 0) Promise.all(calls).then(() => resolve({ latencies, answers, elapsed: (last - started) / 1000 }), reject);
    };
    const send = (pair: Pair, from: 0 | 1) => {
      pair.sequence += 1;
      const text = `bench ${pair.index}:${pair.sequence} from ${from}`;
      const start = performance.now();
      pair.inFlight = {
        to: from === 0 ? 1 : 0,
        text,
        start,
        timer: setTimeout(() => reject(new Error(`${scenario.name}: "${text}" not delivered in ${LOST_AFTER_MS} ms`)), LOST_AFTER_MS),
      };
      calls.push(
        post(base, scenario.path(pair.channel), pair.sides[from].token, { type: 'send_message', message_type: 'text', text }).then((answer) => {
          if (answer.status !== 200) reject(new Error(`${scenario.name}: ${answer.status} ${answer.text}`));
          answers.push(performance.now() - start);
        }, reject),
      );
    };
    onFrame.current = (pair, side, data) => {
      const inFlight = pair.inFlight;
      if (!inFlight || inFlight.to !== side) return; // the sender's own copy, or a late one
      const at = performance.now();
      if ((JSON.parse(data) as { text: string }).text !== inFlight.text) return;
      clearTimeout(inFlight.timer);
      pair.inFlight = undefined;
      latencies.push(at - inFlight.start);
      last = at;
      if (at < deadline) send(pair, side);
      else finish();
    };
    for (const pair of pairs) send(pair, (pair.index % 2) as 0 | 1);
  });
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

async function main() {
  const serverUrl = process.env.DATABASE_URL;
  const database = `peerex_bench_chat_${randomBytes(6).toString('hex')}`;
  let appUrl = 'pglite';
  console.log(
    `Machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} cores, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}; load average ${loadavg()[0]?.toFixed(2)}`,
  );
  if (serverUrl) {
    const url = new URL(serverUrl);
    url.pathname = `/${database}`;
    appUrl = url.toString();
    const version = await withClient(serverUrl, async (client) => {
      await client.query(`CREATE DATABASE ${database}`);
      return (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version;
    });
    console.log(`Database: PostgreSQL ${version} (throwaway database ${database})`);
  } else console.log('Database: embedded PGlite, in memory, in the server process');

  let server: ChildProcess | undefined;
  const sockets: WebSocket[] = [];
  try {
    const child = fork(new URL(import.meta.url).pathname, ['serve', appUrl], {
      execArgv: ['--import', 'tsx', ...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/bench-prof-chat'] : [])],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    server = child;
    const booted = await new Promise<{ address: string; pairs: { buyer: string; seller: string; offer: number }[] }>((resolve, reject) => {
      child.once('message', resolve as (message: unknown) => void);
      child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    const base = new URL(booted.address);
    const serverCpu = () =>
      new Promise<number>((resolve) => {
        child.once('message', (message: { cpu: NodeJS.CpuUsage }) => resolve(message.cpu.user + message.cpu.system));
        child.send('cpu');
      });
    const dbCpu = () => (serverUrl ? backendCpu(serverUrl, database) : Promise.resolve(undefined));

    const { info: config } = (await (await fetch(new URL('/api/config', base))).json()) as { info: { realtime: { key: string } } };
    const pairs: Pair[] = [];
    for (const [index, names] of booted.pairs.entries()) {
      const buyer = await signIn(base, names.buyer);
      const seller = await signIn(base, names.seller);
      pairs.push({ index, channel: await openTrade(base, buyer, names.offer), sides: [buyer, seller], sequence: 0 });
    }
    const onFrame = { current: (_pair: Pair, _side: 0 | 1, _data: string) => {} };
    for (const pair of pairs) {
      for (const side of [0, 1] as const) {
        const socket = await connect(base, config.realtime.key, pair.sides[side], pair.channel, (event, data) => {
          if (event === realtimeEvents.newMessage) onFrame.current(pair, side, data);
        });
        sockets.push(socket);
      }
    }
    console.log(
      `${PAIRS} pairs, each with one open trade, 2 raw ws sockets subscribed to its private channel; ${SECONDS} s per scenario in ${ROUNDS} interleaved slices after ${WARM_UP_SECONDS} s of warm-up each`,
    );

    for (const scenario of SCENARIOS) await chat(base, pairs, scenario, WARM_UP_SECONDS, onFrame);
    const totals = new Map<string, { samples: Sample[]; serverCpu: number; clientCpu: number; dbCpu: number | undefined }>();
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const scenario of SCENARIOS) {
        const cpuBefore = await serverCpu();
        const dbBefore = await dbCpu();
        const clientBefore = process.cpuUsage();
        const sample = await chat(base, pairs, scenario, SECONDS / ROUNDS, onFrame);
        const client = process.cpuUsage(clientBefore);
        const cpu = (await serverCpu()) - cpuBefore;
        const dbAfter = await dbCpu();
        const total = totals.get(scenario.name) ?? { samples: [], serverCpu: 0, clientCpu: 0, dbCpu: dbBefore === undefined ? undefined : 0 };
        total.samples.push(sample);
        total.serverCpu += cpu;
        total.clientCpu += client.user + client.system;
        if (total.dbCpu !== undefined && dbBefore !== undefined && dbAfter !== undefined) total.dbCpu += dbAfter - dbBefore;
        totals.set(scenario.name, total);
      }
    }

    console.log(`\nload average ${loadavg()[0]?.toFixed(2)}`);
    console.log(
      `${'scenario'.padEnd(20)} ${'msgs/s'.padStart(7)} ${'p50'.padStart(8)} ${'p90'.padStart(8)} ${'p99'.padStart(8)} ${'max'.padStart(9)} ${'HTTP p50'.padStart(9)} ${'server CPU/msg'.padStart(15)} ${'db CPU/msg'.padStart(11)} ${'client CPU/msg'.padStart(15)}  msgs/s per slice`,
    );
    const results = new Map<string, { rate: number; p50: number }>();
    for (const [name, total] of totals) {
      const latencies = total.samples.flatMap((sample) => sample.latencies).sort((a, b) => a - b);
      const answers = total.samples.flatMap((sample) => sample.answers).sort((a, b) => a - b);
      const elapsed = total.samples.reduce((sum, sample) => sum + sample.elapsed, 0);
      const rate = latencies.length / elapsed;
      const p50 = percentile(latencies, 0.5);
      results.set(name, { rate, p50 });
      const perMessage = (microseconds: number | undefined) => (microseconds === undefined ? '–' : `${Math.round(microseconds / latencies.length)} µs`);
      console.log(
        `${name.padEnd(20)} ${rate.toFixed(0).padStart(7)} ${ms(p50).padStart(8)} ${ms(percentile(latencies, 0.9)).padStart(8)} ${ms(percentile(latencies, 0.99)).padStart(8)} ${ms(latencies.at(-1) ?? NaN).padStart(9)} ${ms(percentile(answers, 0.5)).padStart(9)} ${perMessage(total.serverCpu).padStart(15)} ${perMessage(total.dbCpu).padStart(11)} ${perMessage(total.clientCpu).padStart(15)}  ${total.samples.map((sample) => (sample.latencies.length / sample.elapsed).toFixed(0)).join('/')}`,
      );
    }
    const chatResult = results.get('send_message');
    for (const ceiling of ['publish (ceiling)', 'SELECT 1 + publish']) {
      const floor = results.get(ceiling);
      if (!chatResult || !floor) continue;
      console.log(
        `send_message ÷ ${ceiling}: throughput ${((chatResult.rate / floor.rate) * 100).toFixed(0)}%, p50 ${(chatResult.p50 / floor.p50).toFixed(2)}×`,
      );
    }
  } finally {
    for (const socket of sockets) socket.terminate();
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server?.once('exit', resolve));
      server.disconnect();
      await exited;
    }
    closeHttp();
    if (serverUrl) {
      if (process.env.BENCH_KEEP_DATABASE) console.log(`\nKept the database: ${appUrl}`);
      else await withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
    }
  }
}

if (process.argv[2] === 'serve') {
  await serve(process.argv[3] ?? 'pglite');
} else {
  await main();
}
