/**
 * Restart to ready: from starting the server's process to its first 200 on /api/health, on PGlite with a warm
 * DATA_DIR (migrated and seeded by a first start that is not counted). The production build
 * (`server/dist/main.js`, as `npm run serve` starts it) against the TypeScript source under tsx, RUNS starts
 * each, taken in turn so a change in the machine's load falls on both; then where a built start's time goes
 * (bench/support/boot-phases.ts). Prints the load average before and after, since a busy machine slows it all.
 * Run: node --import tsx bench/restart.ts [runs] [--development] [--postgres] [--node <binary>]
 * `--postgres`: on a throwaway database of the PostgreSQL server at BENCH_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres) instead of PGlite. `--node <binary>`: the servers run on that Node
 * (the compile cache, server/dist/main.js, is Node 22.1's and later's), the bench itself on this one.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateMnemonic } from '@scure/bip39';
import pg from 'pg';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { buildServer, SERVER_BUNDLE } from '../scripts/build-server.ts';
import { newVapidEnvironment } from '../server/src/push/keys.ts';
import { xpubEnvironmentOf } from '../server/src/wallets/keys.ts';
import { freePort } from './support/chaos-cluster.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const RUNS = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 5);
const optionValue = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const NODE = optionValue('--node') ?? process.execPath;
const POSTGRES = process.argv.includes('--postgres');
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PHASES_BUNDLE = join(ROOT, 'server', 'dist', 'bench-boot-phases.js');
const POLL_MS = 10;

const MODES = {
  built: [SERVER_BUNDLE],
  'built, --enable-source-maps': ['--enable-source-maps', SERVER_BUNDLE],
  'tsx (source)': ['--import', 'tsx', 'server/src/main.ts'],
} as const;
type Mode = keyof typeof MODES;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/**
 * A production server's environment (what a process manager restarts): its own secret, the wallets' public keys
 * and the web push keys given, no demo data. `--development` starts as `npm start` does on a laptop instead: the
 * secret, the wallet mnemonic and the push keys generated into DATA_DIR, demo data, pino-pretty's log lines.
 */
const DEVELOPMENT = process.argv.includes('--development');
const PRODUCTION: NodeJS.ProcessEnv = {
  NODE_ENV: 'production',
  APP_SECRET: randomBytes(32).toString('hex'),
  ...xpubEnvironmentOf(generateMnemonic(wordlist)),
  ...newVapidEnvironment(),
};

let databaseUrl: string | undefined;

function environment(dataDir: string, port: number): NodeJS.ProcessEnv {
  const base = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  return DEVELOPMENT ? base : { ...base, ...PRODUCTION };
}

/** One start: milliseconds from spawn to the first 200 on /api/health, then SIGTERM and wait for the exit. */
async function restartToReady(mode: Mode, dataDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(NODE, [...MODES[mode]], { cwd: ROOT, env: environment(dataDir, port), stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let ready: number | undefined;
  while (ready === undefined) {
    if (child.exitCode !== null) throw new Error(`${mode}: the server exited with ${child.exitCode} before it answered`);
    const status = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (answer) => answer.status,
      () => 0,
    );
    if (status === 200) ready = performance.now() - started;
    else await sleep(POLL_MS);
  }
  child.kill('SIGTERM');
  await exited;
  return ready;
}

async function phases(dataDir: string): Promise<string> {
  await buildServer(PHASES_BUNDLE, join(ROOT, 'bench', 'support', 'boot-phases.ts'), { pgliteThread: true });
  const port = await freePort();
  const child = spawn(NODE, [PHASES_BUNDLE], { cwd: ROOT, env: environment(dataDir, port), stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  await new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return output.trim();
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

await buildServer();
const dataDir = mkdtempSync(join(tmpdir(), 'peerex-restart-'));
const databaseName = `restart_bench_${randomBytes(4).toString('hex')}`;
const admin = POSTGRES ? new pg.Client({ connectionString: SERVER_URL }) : undefined;
if (admin) {
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${databaseName}`;
  databaseUrl = url.href;
}
try {
  const nodeVersion = execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim();
  console.log(
    `Node ${nodeVersion}, ${DEVELOPMENT ? 'development' : 'production'} environment, ${POSTGRES ? 'PostgreSQL' : 'PGlite'}; load average before: ${load()}`,
  );
  // The first start migrates and seeds: the data directory is warm from here on.
  await restartToReady('built', dataDir);
  const times = new Map<Mode, number[]>(Object.keys(MODES).map((mode) => [mode as Mode, []]));
  for (let run = 0; run < RUNS; run++) {
    for (const mode of Object.keys(MODES) as Mode[]) times.get(mode)!.push(await restartToReady(mode, dataDir));
  }
  for (const [mode, values] of times) {
    console.log(`${mode.padEnd(22)} median ${Math.round(median(values))} ms; runs: ${values.map((value) => Math.round(value)).join(', ')} ms`);
  }
  for (let run = 0; run < 3; run++) console.log(`phases of a built start: ${await phases(dataDir)}`);
  console.log(`load average after: ${load()}`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
  if (admin) {
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await admin.end();
  }
}
