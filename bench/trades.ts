/**
 * Trades per second on PostgreSQL (issue 4), over HTTP, beside pgbench's TPC-B-like script as the ceiling.
 *
 * 1. pgbench: `pgbench -i` into a throwaway database, then `pgbench -c 32 -j 2 -T 15` (the built-in
 *    TPC-B-like script: five statements per transaction, three UPDATEs). Its tps is the ceiling: what this
 *    PostgreSQL on this machine commits with 32 clients when nothing but the database does any work.
 * 2. The app: a throwaway database migrated by the real app (buildApp, child process, 127.0.0.1, random
 *    port, the price feed ticking, the payment-window sweep on), traders and offers inserted directly,
 *    the sellers' balances deposited through the ledger (postEntry), every trader signed in over HTTP.
 * 3. Each scenario runs BENCH_CLIENTS (32) keep-alive clients for BENCH_SECONDS (15) after a warm-up. One
 *    client loop is one trade round trip, three HTTP calls and three database transactions:
 *      open (buyer) → mark_paid (buyer) → release_coin (seller).
 *    A session's first release carries the seller's password (the second proof a release needs); the others
 *    ride the 10-minute window it opens, as a busy seller's do.
 *    The channel of the new trade is read by the load generator with one indexed query (the web app
 *    finds it in its conversation list; that list is a read and not what is measured here).
 *    (a) many offers: client i is buyer i on seller i's offer, so no two clients share an account row;
 *    (b) one hot seller: every client buys from the same seller, on offers of 20 places (an offer takes at most
 *        20 pending trades, docs/rules.md "Offers") with 10 clients each, so every open and release queues on
 *        that seller's escrow and available rows (and every release on the fee account).
 * 4. pgbench again (the machine is shared; the two runs bracket the app's), `ledger:check` on the app's
 *    database (must be clean), then both databases are dropped.
 *
 * What is compared: trade transactions per second (3 per round trip) against pgbench's tps. Target: at
 * least 50% in both scenarios (issue 32; 25% before it).
 *
 * Run: node --import tsx bench/trades.ts
 * Knobs: BENCH_DATABASE_URL (a server to create databases on; default postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_SECONDS (15), BENCH_CLIENTS (32), PGBENCH (path; default pgbench on PATH, then PostgreSQL 15's),
 * BENCH_ONLY (comma list of scenario name prefixes: pgbench, many, hot), BENCH_KEEP_DATABASE=1, BENCH_PROFILE=1 (a V8 CPU
 * profile of the server under /tmp/bench-prof).
 */
import { execFile, fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { promisify } from 'node:util';
import pg from 'pg';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { openPostgres } from '../server/src/infra/db/postgres.ts';
import { checkLedger, formatLedgerReport } from '../server/src/ledger/check.ts';
import { postEntry } from '../server/src/ledger/ledger.ts';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { xpubEnvironmentOf } from '../server/src/wallets/keys.ts';
import { newVapidEnvironment } from '../server/src/push/keys.ts';
import { createPasswordHasher, OWASP_ARGON2ID } from '../server/src/infra/passwords.ts';
import { CONFIRMATION_WINDOW_MINUTES } from '../server/src/accounts/confirmation.ts';
import { createPoster, percentile } from './support/http.ts';
import { admin, databaseUrl, SERVER_URL } from './support/postgres.ts';

const run = promisify(execFile);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 32);
const WARM_UP_SECONDS = 3;
const PASSWORD = 'bench-password-1';
/** 97 EUR at 1 EUR per USD with BTC at 97,000 USD: 0.001 BTC per trade. */
const TRADE = { amount: '97', payment_method: 'SEPA', rate: '1' };
const TARGET_SHARE = 0.5;
/** The most pending trades one offer takes at once (max_open_trades, 1–20): a hot seller's offers take 20 each. */
const HOT_OFFER_ROOM = 20;
/**
 * A hot seller's clients per offer: half its room. A lane holds one pending trade most of the time, so an offer with
 * as many lanes as places is always nearly full, and its takers would mostly race each other for the last free place
 * (an offer refusing takers at its cap, which is the rule working, not trading throughput).
 */
const HOT_LANES_PER_OFFER = HOT_OFFER_ROOM / 2;
const ONLY = process.env.BENCH_ONLY?.split(',');
const wanted = (name: string) => !ONLY || ONLY.some((prefix) => name.startsWith(prefix));

// ---------------------------------------------------------------------------------------------------------
// The server side: a child process, so the load generator does not share its event loop.

async function serve(databaseUrl: string) {
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    // Production needs the deposit addresses' keys; a throwaway mnemonic's will do for a benchmark.
    ...xpubEnvironmentOf(generateMnemonic(wordlist)),
    // And the web push key pair every process of a fleet shares.
    ...newVapidEnvironment(),
    APP_SECRET: randomBytes(32).toString('hex'),
    DATABASE_URL: databaseUrl,
    SEED_DEMO: 'false',
    WEB_DIST: '/nonexistent',
    // Every trader signs in once at the start, from one address, and each lane's buyer opens a trade per round trip.
    RATE_LIMIT_PER_MINUTE: '100000',
    TRADE_OPENS_PER_HOUR: '100000000',
  });
  // Every statement the server sends (a BEGIN, a COMMIT and a plan setting each count, as each is a message the
  // database answers): the "statements/trip" column, which the machine's load does not inflate as it does CPU time.
  let statements = 0;
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
    statements += 1;
    return (query as (...args: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  const app = await buildApp({ config });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.send?.({ address });
  process.on('message', (message) => {
    if (message === 'cpu') process.send?.({ cpu: process.cpuUsage(), statements });
  });
  process.on('disconnect', () => void app.close().then(() => process.exit(0)));
}

// ---------------------------------------------------------------------------------------------------------
// The load side.

function pgbenchPath(): string {
  if (process.env.PGBENCH) return process.env.PGBENCH;
  for (const candidate of ['/usr/bin/pgbench', '/usr/lib/postgresql/15/bin/pgbench']) if (existsSync(candidate)) return candidate;
  return 'pgbench';
}

/** pgbench's connection options from the server URL, and its password in the environment. */
function pgbenchArgs(database: string): { args: string[]; env: NodeJS.ProcessEnv } {
  const url = new URL(SERVER_URL);
  const args = ['-h', url.hostname, '-p', url.port || '5432', '-U', decodeURIComponent(url.username || 'postgres'), database];
  return { args, env: { ...process.env, ...(url.password ? { PGPASSWORD: decodeURIComponent(url.password) } : {}) } };
}

/** The TPC-B-like script at 32 clients and 2 threads for BENCH_SECONDS: its tps, without connection time. */
async function pgbench(database: string): Promise<number> {
  const { args, env } = pgbenchArgs(database);
  const { stdout } = await run(pgbenchPath(), ['-c', String(CLIENTS), '-j', '2', '-T', String(SECONDS), ...args], { env });
  const match = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout);
  if (!match?.[1]) throw new Error(`pgbench printed no tps:\n${stdout}`);
  return Number(match[1]);
}

/** Linux's USER_HZ: /proc reports CPU time in these ticks. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * Microseconds of CPU used so far by the PostgreSQL backends connected to `database` (from /proc), or
 * undefined when PostgreSQL is not on this machine. Only this database's backends: other work on the same
 * server (and its background writers) is not counted. The app's pool keeps its connections, so the
 * difference around a run is that run's database work.
 */
async function backendCpu(database: string): Promise<number | undefined> {
  if (!existsSync('/proc')) return undefined;
  // Client backends only: autovacuum workers come and go (and their work is not one scenario's).
  const pids = await admin((client) =>
    client
      .query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'`, [database])
      .then((r) => r.rows.map((row) => row.pid)),
  );
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // After "pid (comm) ", utime and stime are the 12th and 13th fields.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The backend ended meanwhile.
    }
  }
  return pids.length > 0 ? (ticks * 1_000_000) / CLOCK_TICKS_PER_SECOND : undefined;
}

const { post, close: closeHttp } = createPoster(CLIENTS * 2);

interface Trader {
  id: string;
  username: string;
  token: string;
  /** When a release of this session that carried the password was sent (performance.now()); its window runs from its answer. */
  provedAt?: number;
}

/**
 * A release's second proof (docs/rules.md "Trades"): a session's releases carry the password until one of them
 * has been answered (the hot offer's seller releases for 32 clients at once), then ride the window it opened
 * (CONFIRMATION_WINDOW_MINUTES, less a minute of margin) and carry it again after.
 */
const PROOF_VALID_MS = (CONFIRMATION_WINDOW_MINUTES - 1) * 60_000;
const needsProof = (seller: Trader, now: number) => seller.provedAt === undefined || now - seller.provedAt >= PROOF_VALID_MS;

/** One pair per client: who buys and who sells on which offer. */
interface Lane {
  buyer: Trader;
  seller: Trader;
  offer: number;
}

interface CallStats {
  open: number[];
  mark_paid: number[];
  release_coin: number[];
}

/** `CLIENTS` loops of trade round trips until the time is up. */
async function trade(base: URL, lookup: pg.Pool, lanes: Lane[], seconds: number) {
  const calls: CallStats = { open: [], mark_paid: [], release_coin: [] };
  const rounds: number[] = [];
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const timed = async (kind: keyof CallStats, work: () => Promise<{ status: number; text: string }>) => {
    const start = performance.now();
    const answer = await work();
    calls[kind].push(performance.now() - start);
    if (answer.status !== 200) throw new Error(`${kind}: ${answer.status} ${answer.text}`);
  };
  await Promise.all(
    lanes.map(async (lane) => {
      while (performance.now() < deadline) {
        const start = performance.now();
        await timed('open', () => post(base, '/api/market/trade/', lane.buyer.token, { type: 'open', offer: lane.offer, ...TRADE }));
        // Each lane's buyer trades one trade at a time, so their newest trade is this one.
        const { rows } = await lookup.query<{ channel: string }>(
          'SELECT channel FROM trades WHERE buyer_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1',
          [lane.buyer.id],
        );
        const channel = rows[0]?.channel ?? '';
        await timed('mark_paid', () => post(base, '/api/market/trade/', lane.buyer.token, { type: 'mark_paid', channel }));
        const sentAt = performance.now();
        const proof = needsProof(lane.seller, sentAt) ? { password: PASSWORD } : {};
        await timed('release_coin', () => post(base, '/api/market/trade/', lane.seller.token, { type: 'release_coin', channel, ...proof }));
        if (proof.password !== undefined) lane.seller.provedAt = Math.max(lane.seller.provedAt ?? 0, sentAt);
        rounds.push(performance.now() - start);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const summary = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return { count: values.length, p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95) };
  };
  return {
    elapsed,
    roundTrips: rounds.length / elapsed,
    round: summary(rounds),
    open: summary(calls.open),
    mark_paid: summary(calls.mark_paid),
    release_coin: summary(calls.release_coin),
  };
}

async function main() {
  const suffix = randomBytes(6).toString('hex');
  const appDatabase = `peerex_bench_trades_${suffix}`;
  const pgbenchDatabase = `peerex_bench_pgbench_${suffix}`;
  const url = databaseUrl(appDatabase);
  console.log(
    `Machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} cores, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}; ${CLIENTS} clients, ${SECONDS} s per run`,
  );
  await admin(async (client) => {
    await client.query(`CREATE DATABASE ${appDatabase}`);
    await client.query(`CREATE DATABASE ${pgbenchDatabase}`);
    const version = await client.query<{ server_version: string }>('SHOW server_version');
    console.log(`PostgreSQL ${version.rows[0]?.server_version}, pgbench at ${pgbenchPath()}`);
  });
  let server: ChildProcess | undefined;
  const lookup = new pg.Pool({ connectionString: url, max: CLIENTS });
  const pgbenchRuns: number[] = [];
  try {
    if (wanted('pgbench')) {
      const { args, env } = pgbenchArgs(pgbenchDatabase);
      await run(pgbenchPath(), ['-i', '-q', ...args], { env });
      pgbenchRuns.push(await pgbench(pgbenchDatabase));
      console.log(`\npgbench -c ${CLIENTS} -j 2 -T ${SECONDS} (TPC-B-like, scale 1): ${pgbenchRuns[0]?.toFixed(0)} tps`);
    }

    const child = fork(new URL(import.meta.url).pathname, ['serve', url], {
      execArgv: ['--import', 'tsx', ...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/bench-prof'] : [])],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    server = child;
    const base = new URL(
      await new Promise<string>((resolve, reject) => {
        child.once('message', (message: { address: string }) => resolve(message.address));
        child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
      }),
    );
    const serverCpu = () =>
      new Promise<{ cpu: number; statements: number }>((resolve) => {
        child.once('message', (message: { cpu: NodeJS.CpuUsage; statements: number }) =>
          resolve({ cpu: message.cpu.user + message.cpu.system, statements: message.statements }),
        );
        child.send('cpu');
      });

    // Traders, offers and balances: inserted directly (the bench measures trading, not signing up), the
    // money through the ledger like any deposit.
    const db = await openPostgres({ url });
    const hash = await createPasswordHasher(OWASP_ARGON2ID).hash(PASSWORD);
    const insertTrader = async (username: string, btc?: string): Promise<Omit<Trader, 'token'>> => {
      const row = await db.one<{ id: string }>(
        `INSERT INTO users (username, email, password_hash, created_at) VALUES ($1, $2, $3, now()) RETURNING id`,
        [username, `${username}@bench.test`, hash],
      );
      if (btc) {
        await db.transaction((tx) =>
          postEntry(tx, {
            reference: `deposit:bench-${username}`,
            at: new Date(),
            postings: [
              { account: { kind: 'deposits', coinId: 1 }, amount: `-${btc}` },
              { account: { kind: 'available', userId: row.id, coinId: 1 }, amount: btc },
            ],
          }),
        );
      }
      return { id: row.id, username };
    };
    const insertOffer = async (owner: string): Promise<number> =>
      (
        await db.one<{ id: number }>(
          `INSERT INTO offers (user_id, offer_type, coin_id, currency_code, rate, min_amount, max_amount, payment_method_ids, created_at, updated_at,
                               max_open_trades)
           VALUES ($1, 'sell', 1, 'EUR', 1, 1, 1000000, ARRAY[(SELECT id FROM payment_methods WHERE name = 'SEPA')], now(), now(), $2)
           RETURNING id::int`,
          [owner, HOT_OFFER_ROOM],
        )
      ).id;
    const signIn = async (trader: Omit<Trader, 'token'>): Promise<Trader> => {
      const answer = await post(base, '/api/security/login/', '', { username: trader.username, password: PASSWORD, device: 'bench' });
      const token = (JSON.parse(answer.text) as { info: { token?: string } }).info.token;
      if (!token) throw new Error(`login of ${trader.username} failed: ${answer.text}`);
      return { ...trader, token };
    };

    const many: Lane[] = [];
    for (let i = 0; i < CLIENTS; i += 1) {
      const seller = await signIn(await insertTrader(`seller${i}`, '100000'));
      const buyer = await signIn(await insertTrader(`buyer${i}`));
      many.push({ buyer, seller, offer: await insertOffer(seller.id) });
    }
    const hotSeller = await signIn(await insertTrader('hotseller', '10000000'));
    const hot: Lane[] = [];
    let hotOffer = 0;
    for (let i = 0; i < CLIENTS; i += 1) {
      if (i % HOT_LANES_PER_OFFER === 0) hotOffer = await insertOffer(hotSeller.id);
      hot.push({ buyer: await signIn(await insertTrader(`hotbuyer${i}`)), seller: hotSeller, offer: hotOffer });
    }
    // No ANALYZE here: statistics taken of the nearly empty tables would make PostgreSQL keep plans for
    // empty tables (sequential scans in foreign-key checks and prepared statements) for the whole run, as
    // they grow by thousands of rows; a live database is analysed by autovacuum as it grows, as this one is.

    console.log(`\nTrade round trips (open + mark_paid + release_coin: 3 HTTP calls, 3 transactions), ${CLIENTS} keep-alive clients, ${SECONDS} s after ${WARM_UP_SECONDS} s warm-up; load average ${loadavg()[0]?.toFixed(2)}`);
    console.log(
      `${'scenario'.padEnd(16)} ${'trips/s'.padStart(8)} ${'tx/s'.padStart(7)} ${'trip p50'.padStart(9)} ${'trip p95'.padStart(9)} ${'open p50/p95'.padStart(16)} ${'paid p50/p95'.padStart(16)} ${'release p50/p95'.padStart(16)} ${'node CPU/trip'.padStart(14)} ${'db CPU/trip'.padStart(12)} ${'statements/trip'.padStart(16)}`,
    );
    const results: { name: string; transactions: number }[] = [];
    for (const [name, lanes] of [
      ['many offers', many],
      ['one hot seller', hot],
    ] as const) {
      if (!wanted(name.split(' ')[0] === 'many' ? 'many' : 'hot')) continue;
      await trade(base, lookup, lanes, WARM_UP_SECONDS);
      const cpuBefore = await serverCpu();
      const dbBefore = await backendCpu(appDatabase);
      const result = await trade(base, lookup, lanes, SECONDS);
      const after = await serverCpu();
      const cpuPerTrip = (after.cpu - cpuBefore.cpu) / result.round.count;
      // The server's only: the load generator's channel lookup is its own connection's.
      const statementsPerTrip = (after.statements - cpuBefore.statements) / result.round.count;
      const dbAfter = await backendCpu(appDatabase);
      // Includes the load generator's one channel lookup per trip.
      const dbPerTrip = dbBefore !== undefined && dbAfter !== undefined ? `${((dbAfter - dbBefore) / result.round.count / 1000).toFixed(1)} ms` : '–';
      const ms = (s: { p50: number; p95: number }) => `${s.p50.toFixed(1)}/${s.p95.toFixed(1)} ms`;
      results.push({ name, transactions: result.roundTrips * 3 });
      console.log(
        `${name.padEnd(16)} ${result.roundTrips.toFixed(0).padStart(8)} ${(result.roundTrips * 3).toFixed(0).padStart(7)} ${`${result.round.p50.toFixed(1)} ms`.padStart(9)} ${`${result.round.p95.toFixed(1)} ms`.padStart(9)} ${ms(result.open).padStart(16)} ${ms(result.mark_paid).padStart(16)} ${ms(result.release_coin).padStart(16)} ${`${(cpuPerTrip / 1000).toFixed(1)} ms`.padStart(14)} ${dbPerTrip.padStart(12)} ${statementsPerTrip.toFixed(1).padStart(16)}`,
      );
    }

    if (wanted('pgbench')) {
      pgbenchRuns.push(await pgbench(pgbenchDatabase));
      console.log(`\npgbench again: ${pgbenchRuns[1]?.toFixed(0)} tps`);
      const ceiling = pgbenchRuns.reduce((a, b) => a + b, 0) / pgbenchRuns.length;
      console.log(`Ceiling (mean of the two pgbench runs): ${ceiling.toFixed(0)} tps; target ${TARGET_SHARE * 100}% = ${(ceiling * TARGET_SHARE).toFixed(0)} tx/s`);
      for (const result of results) {
        const share = result.transactions / ceiling;
        console.log(`  ${result.name}: ${result.transactions.toFixed(0)} tx/s = ${(share * 100).toFixed(0)}% of pgbench ${share >= TARGET_SHARE ? '(meets the target)' : '(BELOW the target)'}`);
      }
    }

    const report = await checkLedger(db);
    console.log(`\nledger:check on the app's database:\n${formatLedgerReport(report)}`);
    const counts = await db.one<{ completed: number; pending: number }>(
      `SELECT count(*) FILTER (WHERE status = 'completed')::int AS completed, count(*) FILTER (WHERE status = 'pending')::int AS pending FROM trades`,
    );
    console.log(`Trades: ${counts.completed} completed, ${counts.pending} pending; load average at the end ${loadavg()[0]?.toFixed(2)}`);
    await db.close();
    if (!report.clean) process.exitCode = 1;
  } finally {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server?.once('exit', resolve));
      server.disconnect();
      await exited;
    }
    await lookup.end();
    closeHttp();
    if (process.env.BENCH_KEEP_DATABASE) console.log(`\nKept the databases: ${url}, ${databaseUrl(pgbenchDatabase)}`);
    else {
      await admin(async (client) => {
        await client.query(`DROP DATABASE IF EXISTS ${appDatabase} WITH (FORCE)`);
        await client.query(`DROP DATABASE IF EXISTS ${pgbenchDatabase} WITH (FORCE)`);
      });
    }
  }
}

if (process.argv[2] === 'serve') {
  await serve(process.argv[3] ?? '');
} else {
  await main();
}
