/**
 * How fast Browse Offers answers at 100,000 offers (issue 3), on PostgreSQL, over HTTP.
 *
 * 1. Creates a throwaway database on BENCH_DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/postgres),
 *    migrates it with the product's migrations, and seeds 1,000 traders and 100,000 offers with one
 *    INSERT … SELECT over generate_series each (random coin, currency, type, 1–5 payment methods, rates
 *    around the market rate, creation times over 180 days, 10% paused). Then ANALYZE.
 * 2. Prints EXPLAIN ANALYZE of the list's SQL for every scenario (the service's own statements, through a
 *    Queryable that explains each before running it).
 * 3. Starts the real app (buildApp, PostgreSQL, the price feed ticking) in a child process listening on
 *    127.0.0.1 at a random port, with one extra signed-in route that only runs `SELECT 1` (the ceiling:
 *    same HTTP, JSON, session hook and pool, no work), signs a trader in over HTTP, and runs each scenario
 *    with BENCH_CLIENTS (16) concurrent keep-alive clients for BENCH_SECONDS (12) each, in interleaved
 *    slices; prints requests/s, p50 and p95, each scenario's throughput as a share of the ceiling's, and
 *    the CPU time one request costs the server process and the database's backends.
 * 4. Drops the database.
 *
 * Run: node --import tsx bench/offers-list.ts
 * Knobs: BENCH_DATABASE_URL, BENCH_SECONDS (per scenario), BENCH_ROUNDS (4 interleaved slices of it), BENCH_CLIENTS,
 * BENCH_OFFERS (100000), BENCH_TRADERS (1000);
 * BENCH_ONLY (comma list of scenario name prefixes), BENCH_KEEP_DATABASE=1 (keep it for psql),
 * BENCH_PROFILE=1 (a V8 CPU profile of the server under /tmp/bench-prof).
 */
import { messageResponse } from '../contracts/security.ts';
import { defineCall, envelope } from '../server/src/infra/http/call.ts';
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import pg from 'pg';
import type { OfferFilters } from '../contracts/market.ts';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import type { Queryable, QueryOptions, SqlParam } from '../server/src/infra/db/db.ts';
import { createPasswordHasher, OWASP_ARGON2ID } from '../server/src/infra/passwords.ts';
import { OFFERS_PAGE_SIZE, offersService } from '../server/src/offers/offers.ts';
import { createPoster, percentile } from './support/http.ts';
import { admin, databaseUrl, SERVER_URL } from './support/postgres.ts';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { xpubEnvironmentOf } from '../server/src/wallets/keys.ts';
import { newVapidEnvironment } from '../server/src/push/keys.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 12);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16);
const OFFERS = Number(process.env.BENCH_OFFERS ?? 100_000);
const TRADERS = Number(process.env.BENCH_TRADERS ?? 1_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const WARM_UP_SECONDS = 1;
const WRITES_PER_SECOND = Number(process.env.BENCH_WRITES_PER_SECOND ?? 20);
/** Server set-ups measured: the product as shipped (pages cached), and every page from the database. */
const MODES = (process.env.BENCH_MODES ?? 'cached,database').split(',');
const BENCH_USER = { username: 'benchtrader', email: 'bench@peerex.test', password: 'bench-password-1' };

/** The filtered lists measured, by name. Values rotate per request so no single page is all that is read. */
interface Scenario {
  name: string;
  body: (i: number) => unknown;
  /** Offers published, edited or paused meanwhile, per second: each write drops every cached page. */
  writesPerSecond?: number;
  /** One of its lists, for EXPLAIN of every statement the server makes for it; undefined for the ceiling. */
  explain?: { filters: OfferFilters; page?: number; byCursor?: boolean };
}

const COINS = [1, 2, 3, 4];
const CURRENCIES = ['USD', 'EUR', 'GBP', 'NGN', 'KES', 'INR', 'BRL'];
const METHOD_SETS = [['SEPA'], ['M-Pesa', 'UPI'], ['Pix'], ['Bank Transfer', 'PayPal', 'Wise']];
/** "ader04" matches trader0400–trader0499 and nothing else: 10% of traders; "ader0123" exactly one. */
const SEARCHES = ['ader012', 'ader0456', 'r07', 'ader09'];
const pick = <T>(values: readonly T[], i: number): T => values[i % values.length] as T;
const list = (filters: OfferFilters, page = 1, cursor?: string) => ({ type: 'list', page, filters, ...(cursor ? { cursor } : {}) });
/** Where page 50 of the unfiltered list starts (the paginator's next_cursor on page 49), once the offers are in. */
let page50Cursor = '';

const SCENARIOS: Scenario[] = [
  { name: 'SELECT 1 (ceiling)', body: () => ({}) },
  { name: 'list, no filter', body: () => list({}), explain: { filters: {} } },
  { name: 'offer_type', body: (i) => list({ offer_type: i % 2 ? 'buy' : 'sell' }), explain: { filters: { offer_type: 'buy' } } },
  { name: 'coin__id', body: (i) => list({ coin__id: pick(COINS, i) }), explain: { filters: { coin__id: 4 } } },
  { name: 'currency__code', body: (i) => list({ currency__code: pick(CURRENCIES, i) }), explain: { filters: { currency__code: 'KES' } } },
  {
    name: 'payment_methods__overlap',
    body: (i) => list({ payment_methods__overlap: pick(METHOD_SETS, i) }),
    explain: { filters: { payment_methods__overlap: ['Pix'] } },
  },
  {
    name: 'user__username__icontains',
    body: (i) => list({ user__username__icontains: pick(SEARCHES, i) }),
    explain: { filters: { user__username__icontains: 'ader012' } },
  },
  {
    name: 'all five filters',
    body: (i) =>
      list({
        user__username__icontains: pick(['r04', 'ader03', 'ader05', 'r02'], i),
        payment_methods__overlap: pick(METHOD_SETS, i),
        offer_type: i % 2 ? 'buy' : 'sell',
        coin__id: pick(COINS, i),
        currency__code: pick(CURRENCIES, i),
      }),
    explain: {
      filters: { user__username__icontains: 'r04', payment_methods__overlap: ['Bank Transfer', 'PayPal', 'Wise'], offer_type: 'sell', coin__id: 1, currency__code: 'EUR' },
    },
  },
  { name: 'no filter, page 50', body: () => list({}, 50), explain: { filters: {}, page: 50 } },
  { name: 'page 50 by next_cursor', body: () => list({}, 50, page50Cursor), explain: { filters: {}, page: 50, byCursor: true } },
  {
    name: `mixed, ${WRITES_PER_SECOND} writes/s`,
    body: (i) => [list({}), list({ coin__id: pick(COINS, i) }), list({ currency__code: pick(CURRENCIES, i) }), list({ user__username__icontains: pick(SEARCHES, i) })][i % 4],
    writesPerSecond: WRITES_PER_SECOND,
  },
];

// ---------------------------------------------------------------------------------------------------------
// The server side: a child process, so the load generator does not share its event loop.

async function serve(databaseUrl: string, mode: string) {
  const config = loadConfig({
    ...process.env,
    // 'cached': the product's default; 'database': the cache off, so every list runs its queries.
    ...(mode === 'database' ? { OFFER_LIST_CACHE_SECONDS: '0' } : {}),
    NODE_ENV: 'production',
    // Production needs the deposit addresses' keys; a throwaway mnemonic's will do for a benchmark.
    ...xpubEnvironmentOf(generateMnemonic(wordlist)),
    // And the web push key pair every process of a fleet shares.
    ...newVapidEnvironment(),
    APP_SECRET: randomBytes(32).toString('hex'),
    DATABASE_URL: databaseUrl,
    SEED_DEMO: 'false',
    WEB_DIST: '/nonexistent',
  });
  const app = await buildApp({
    config,
    extraCalls: [
      defineCall({
        method: 'post',
        path: '/api/bench/select-1/',
        tag: 'Bench',
        summary: 'SELECT 1',
        description: 'The ceiling probe: the same HTTP, JSON and session hook as a product call, and one round trip.',
        access: 'session',
        answer: envelope(messageResponse),
        handle: async ({ app }) => {
          await app.db.query('SELECT 1');
          return { success: true, info: 'ok' };
        },
      }),
    ],
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.send?.({ address });
  // The server's own CPU time, asked for around each scenario: unlike req/s it hardly depends on what
  // else the (shared) machine is doing.
  process.on('message', (message) => {
    if (message === 'cpu') process.send?.({ cpu: process.cpuUsage(), cache: { ...app.offerListCache.stats } });
  });
  process.on('disconnect', () => void app.close().then(() => process.exit(0)));
}

// ---------------------------------------------------------------------------------------------------------
// The load side.

/** 1,000 traders and 100,000 offers in a few seconds: set-based SQL, not 100,000 calls. */
async function seed(db: pg.Client) {
  const hash = await createPasswordHasher(OWASP_ARGON2ID).hash(BENCH_USER.password);
  await db.query(
    `INSERT INTO users (username, email, password_hash, created_at)
     SELECT 'trader' || lpad(g::text, 4, '0'), 'trader' || g || '@bench.test', $1, now()
     FROM generate_series(0, $2 - 1) AS g`,
    [hash, TRADERS],
  );
  await db.query('INSERT INTO users (username, email, password_hash, created_at) VALUES ($1, $2, $3, now())', [
    BENCH_USER.username,
    BENCH_USER.email,
    hash,
  ]);
  // Each row's random picks must reference the row (g), or PostgreSQL would evaluate them once for all rows.
  await db.query(
    `WITH traders AS (SELECT array_agg(id ORDER BY id) AS ids FROM users WHERE username LIKE 'trader%'),
          currencies AS (SELECT array_agg(code ORDER BY code) AS codes, array_agg(usd_rate ORDER BY code) AS rates FROM fiat_currencies),
          picks AS (
            SELECT g, 1 + floor(random() * $2)::int AS trader, 1 + floor(random() * 7)::int AS currency,
                   round((10 + random() * 990)::numeric, 2) AS min_amount
            FROM generate_series(1, $1) AS g
          )
     INSERT INTO offers (user_id, offer_type, coin_id, currency_code, rate, min_amount, max_amount,
                         payment_method_ids, terms, is_active, created_at, updated_at)
     SELECT t.ids[p.trader],
            CASE WHEN random() < 0.5 THEN 'buy' ELSE 'sell' END,
            (SELECT id FROM coins WHERE p.g > 0 ORDER BY random() LIMIT 1),
            c.codes[p.currency],
            round(c.rates[p.currency] * (0.95 + random() * 0.1)::numeric, 4),
            p.min_amount,
            round(p.min_amount * (2 + random() * 48)::numeric, 2),
            ARRAY(SELECT id FROM payment_methods WHERE p.g > 0 ORDER BY random() LIMIT 1 + (p.g % 5)),
            CASE WHEN random() < 0.3 THEN 'Fast release, be online.' END,
            random() >= 0.1,
            now() - random() * interval '180 days',
            now()
     FROM picks p, traders t, currencies c`,
    [OFFERS, TRADERS],
  );
  // VACUUM as well: otherwise autovacuum and the first readers of 100,000 fresh rows (setting hint bits)
  // would do that work during the measurements.
  await db.query('VACUUM (ANALYZE)');
}

/**
 * EXPLAIN ANALYZE of every statement the server makes for a list (the service's own SQL, a trader search's or
 * payment methods' lookup included), through a Queryable that explains each statement before running it (a
 * statement may need the answer of the one before). A statement the repository prepares is explained as the server
 * runs it once prepared: PREPAREd, and with the plan made without its values (plan_cache_mode=force_generic_plan;
 * PostgreSQL's own choice comes to the same plan after five runs). The page's part inside offer_list_page
 * (migration 040) shows as a Function Scan: its plan is the function's.
 */
async function explain(db: pg.Client, filters: OfferFilters, page: number, cursor?: string) {
  const lines: string[] = [];
  const literal = (value: SqlParam) =>
    value === null ? 'NULL' : Array.isArray(value) ? db.escapeLiteral(`{${value.join(',')}}`) : typeof value === 'string' ? db.escapeLiteral(value) : String(value);
  const explaining: Queryable = {
    query: async <T extends object>(sql: string, params: readonly SqlParam[] = [], options?: QueryOptions) => {
      if (options?.prepared) {
        await db.query(`PREPARE bench_explained AS ${sql}`);
        await db.query('SET plan_cache_mode = force_generic_plan');
        const execute = `EXECUTE bench_explained${params.length ? `(${params.map(literal).join(', ')})` : ''}`;
        lines.push('[prepared: the plan made without the values]');
        lines.push(...(await db.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${execute}`)).rows.map((row) => row['QUERY PLAN'] as string));
        const rows = (await db.query(execute)).rows as T[];
        await db.query('RESET plan_cache_mode');
        await db.query('DEALLOCATE bench_explained');
        return rows;
      }
      lines.push('[planned for its values]');
      lines.push(...(await db.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, [...params])).rows.map((row) => row['QUERY PLAN'] as string));
      return (await db.query(sql, [...params])).rows as T[];
    },
    one: () => Promise.reject(new Error('unused')),
    maybe: () => Promise.reject(new Error('unused')),
    exec: () => Promise.reject(new Error('unused')),
  };
  await offersService(explaining).list(page, filters, cursor);
  return lines;
}

/** The cursor page `page` starts from: the last offer of the page before, as the paginator names it. */
async function cursorOfPage(db: pg.Client, page: number): Promise<string> {
  const { rows } = await db.query<{ cursor: string }>(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '_' || id AS cursor
     FROM offers WHERE is_active ORDER BY created_at DESC, id DESC OFFSET $1 LIMIT 1`,
    [(page - 1) * OFFERS_PAGE_SIZE - 1],
  );
  return rows[0]?.cursor ?? '';
}

/** Linux's USER_HZ: /proc reports CPU time in these ticks (100 on every mainstream distribution). */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * Microseconds of CPU that the backends serving `database` have used so far (from /proc), or undefined
 * when PostgreSQL is not on this machine. Only this database's backends count: the server is shared with
 * whatever else runs. The app's pooled connections stay open across a scenario, so the difference around
 * one is the database's share of the work.
 */
async function postgresCpu(admin: pg.Client, database: string): Promise<number | undefined> {
  if (!existsSync('/proc')) return undefined;
  const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
  let ticks = 0;
  for (const { pid } of rows) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return undefined; // not on this machine, or the backend just ended
    }
    // After "pid (comm) ", utime and stime are the 12th and 13th fields.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1_000_000) / CLOCK_TICKS_PER_SECOND;
}

const { post, close: closeHttp } = createPoster(CLIENTS);

/** CLIENTS loops, each sending the next request when its answer is in, until the time is up. */
async function hammer(seconds: number, send: (i: number) => Promise<void>) {
  const latencies: number[] = [];
  let sequence = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < deadline) {
        const i = sequence++;
        const start = performance.now();
        await send(i);
        latencies.push(performance.now() - start);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

async function main() {
  const name = `offerlist_bench_${randomBytes(6).toString('hex')}`;
  const url = databaseUrl(name);
  console.log(`Machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} cores, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}`);
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  let server: ChildProcess | undefined;
  let monitor: pg.Client | undefined;
  try {
    // The app's own migrations run on the first boot; the data goes in afterwards, then the server restarts
    // on a database with statistics.
    const boot = async (mode = 'cached') => {
      const child = fork(new URL(import.meta.url).pathname, ['serve', url, mode], { execArgv: ['--import', 'tsx', ...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/bench-prof'] : [])], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      const address = await new Promise<string>((resolve, reject) => {
        child.once('message', (message: { address: string }) => resolve(message.address));
        child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
      });
      return { child, base: new URL(address) };
    };
    /** Microseconds of CPU (user + system) the server process has used so far, and its cache's counts. */
    const serverState = (child: ChildProcess) =>
      new Promise<{ cpu: number; hits: number; misses: number }>((resolve) => {
        child.once('message', (message: { cpu: NodeJS.CpuUsage; cache: { hits: number; misses: number } }) =>
          resolve({ cpu: message.cpu.user + message.cpu.system, ...message.cache }),
        );
        child.send('cpu');
      });
    const stop = async (child: ChildProcess) => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await exited;
    };

    const first = await boot();
    await stop(first.child);

    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const seeding = performance.now();
      await seed(db);
      const counts = await db.query<{ offers: number; active: number; traders: number }>(
        `SELECT count(*)::int AS offers, count(*) FILTER (WHERE is_active)::int AS active,
                (SELECT count(*)::int FROM users) - 1 AS traders FROM offers`,
      );
      console.log(`Seeded ${JSON.stringify(counts.rows[0])} in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
      const version = await db.query<{ server_version: string }>('SHOW server_version');
      console.log(`PostgreSQL ${version.rows[0]?.server_version}\n`);

      page50Cursor = await cursorOfPage(db, 50);
      console.log('EXPLAIN ANALYZE of the list query (first page unless named), plan nodes and execution time:');
      for (const scenario of SCENARIOS) {
        if (!scenario.explain) continue;
        const { filters, page = 1, byCursor = false } = scenario.explain;
        console.log(`\n--- ${scenario.name}`);
        const plan = await explain(db, filters, page, byCursor ? await cursorOfPage(db, page) : undefined);
        for (const line of plan) if (!/^\s*(Buffers|Planning:|Sort Method|Heap Blocks)/.test(line)) console.log(line);
      }
    } finally {
      await db.end();
    }

    // Connected to `postgres`, so that it is not one of the backends it measures.
    monitor = new pg.Client({ connectionString: SERVER_URL });
    await monitor.connect();
    // The bench trader's own offer, which the writer of the mixed scenario edits and pauses.
    const ownOffer = await (async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const row = await client.query<{ id: number }>(
          `INSERT INTO offers (user_id, offer_type, coin_id, currency_code, rate, min_amount, max_amount, payment_method_ids, created_at, updated_at)
           SELECT id, 'sell', 1, 'EUR', 1, 10, 1000, ARRAY[1], now(), now() FROM users WHERE username = $1 RETURNING id::int`,
          [BENCH_USER.username],
        );
        return row.rows[0]?.id ?? 0;
      } finally {
        await client.end();
      }
    })();
    const writer = createPoster(1);

    const only = process.env.BENCH_ONLY?.split(',');
    const chosen = SCENARIOS.filter((scenario) => !only || only.some((name) => scenario.name.startsWith(name)));
    for (const mode of MODES) {
      const started = await boot(mode);
      server = started.child;
      const { base } = started;
      const login = await post(base, '/api/security/login/', '', { username: BENCH_USER.username, password: BENCH_USER.password, device: 'bench' });
      const token = (JSON.parse(login.text) as { info: { token: string } }).info.token;
      console.log(
        `\n${mode === 'cached' ? 'As shipped (pages cached until a write, OFFER_LIST_CACHE_SECONDS=5)' : 'Every page from the database (OFFER_LIST_CACHE_SECONDS=0)'}: ` +
          `HTTP, ${CLIENTS} concurrent keep-alive clients, ${SECONDS} s per scenario in ${ROUNDS} interleaved rounds ` +
          `(after ${WARM_UP_SECONDS} s warm-up each); load average ${loadavg()[0]?.toFixed(2)}`,
      );
      const runs = chosen.map((scenario) => {
        const path = scenario.name.startsWith('SELECT 1') ? '/api/bench/select-1/' : '/api/market/offers/';
        const run = { scenario, latencies: [] as number[], seconds: 0, nodeCpu: 0, dbCpu: 0 as number | undefined, rows: '', hits: 0, misses: 0, writes: 0 };
        const send = async (i: number) => {
          const answer = await post(base, path, token, scenario.body(i));
          if (answer.status !== 200) throw new Error(`${scenario.name}: ${answer.status} ${answer.text}`);
          if (!run.rows && path !== '/api/bench/select-1/') run.rows = String((JSON.parse(answer.text) as { info: { offers: unknown[] } }).info.offers.length);
        };
        return { run, send };
      });
      /** Toggles the bench trader's offer `perSecond` times a second until stopped; answers the stop. */
      const startWriting = (perSecond: number, counted: { writes: number }) => {
        let writing = true;
        const loop = (async () => {
          while (writing) {
            const answer = await writer.post(base, '/api/market/offers/', token, { type: 'toggle', id: ownOffer });
            if (answer.status !== 200) throw new Error(`toggle: ${answer.status} ${answer.text}`);
            counted.writes += 1;
            await new Promise((resolve) => setTimeout(resolve, 1000 / perSecond));
          }
        })();
        // A failed write surfaces when the slice ends, not as an unhandled rejection meanwhile.
        loop.catch(() => undefined);
        return async () => {
          writing = false;
          await loop;
        };
      };
      for (const { send } of runs) await hammer(WARM_UP_SECONDS, send);
      // Round-robin slices rather than one block per scenario: the machine is shared, and interleaving makes
      // every scenario, the ceiling included, live through the same ups and downs of everything else.
      for (let round = 0; round < ROUNDS; round += 1) {
        for (const { run, send } of runs) {
          const before = await serverState(server);
          const dbBefore = await postgresCpu(monitor, name);
          const stopWriting = run.scenario.writesPerSecond ? startWriting(run.scenario.writesPerSecond, run) : undefined;
          const slice = await hammer(SECONDS / ROUNDS, send);
          await stopWriting?.();
          const after = await serverState(server);
          run.nodeCpu += after.cpu - before.cpu;
          run.hits += after.hits - before.hits;
          run.misses += after.misses - before.misses;
          const dbAfter = await postgresCpu(monitor, name);
          run.dbCpu = run.dbCpu === undefined || dbBefore === undefined || dbAfter === undefined ? undefined : run.dbCpu + dbAfter - dbBefore;
          run.latencies.push(...slice.latencies);
          run.seconds += slice.seconds;
        }
      }
      console.log(
        `${'scenario'.padEnd(28)} ${'req/s'.padStart(8)} ${'p50'.padStart(9)} ${'p95'.padStart(9)}  of ceiling  node CPU/req  db CPU/req  cached  rows`,
      );
      const ceiling = runs.find(({ run }) => run.scenario.name.startsWith('SELECT 1'))?.run;
      const ceilingRate = ceiling ? ceiling.latencies.length / ceiling.seconds : 0;
      for (const { run } of runs) {
        const count = run.latencies.length;
        const sorted = [...run.latencies].sort((a, b) => a - b);
        const rate = count / run.seconds;
        const share = ceilingRate ? `${((100 * rate) / ceilingRate).toFixed(0)}%` : '';
        const db = run.dbCpu === undefined ? '–' : `${(run.dbCpu / count).toFixed(0)} µs`;
        // Per list request (the writer's toggles are in the CPU columns, not in the request count).
        const lists = run.hits + run.misses;
        const cached = run.scenario.name.startsWith('SELECT 1') || lists === 0 ? '' : `${((100 * run.hits) / lists).toFixed(0)}%`;
        console.log(
          `${run.scenario.name.padEnd(28)} ${rate.toFixed(0).padStart(8)} ${`${percentile(sorted, 0.5).toFixed(1)} ms`.padStart(9)} ` +
            `${`${percentile(sorted, 0.95).toFixed(1)} ms`.padStart(9)}  ${share.padStart(10)}  ${`${(run.nodeCpu / count).toFixed(0)} µs`.padStart(12)}  ${db.padStart(10)}  ${cached.padStart(6)}  ${run.rows}` +
            (run.writes ? `  (${(run.writes / run.seconds).toFixed(0)} writes/s)` : ''),
        );
      }
      const exited = new Promise((resolve) => server?.once('exit', resolve));
      server.disconnect();
      await exited;
    }
    writer.close();
    console.log(`Load average at the end: ${loadavg()[0]?.toFixed(2)}`);
  } finally {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server?.once('exit', resolve));
      server.disconnect();
      await exited;
    }
    closeHttp();
    await monitor?.end();
    if (process.env.BENCH_KEEP_DATABASE) console.log(`\nKept the database for a closer look: ${url}`);
    else await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}

if (process.argv[2] === 'serve') {
  await serve(process.argv[3] ?? '', process.argv[4] ?? 'cached');
} else {
  await main();
}
