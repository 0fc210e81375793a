/**
 * How many logins per second this machine serves with the production argon2id parameters.
 *
 * 1. Raw argon2id: hashes and verifies per second, one at a time and with several in flight.
 * 2. Over HTTP: boots the server as `npm start` does (`node --import tsx server/src/main.ts`, a fresh
 *    embedded database with the demo data, or DATABASE_URL when set), then N clients each send
 *    `POST /api/security/login/` for alice back to back for a fixed time; prints logins/s, p50 and p95.
 *
 * Run: node --import tsx bench/logins.ts
 * Knobs: BENCH_SECONDS (per run, default 10), BENCH_CLIENTS (comma list, default 1,2,4,8).
 */
import { hash, verify } from '@node-rs/argon2';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { OWASP_ARGON2ID } from '../server/src/infra/passwords.ts';
import { DEMO_PASSWORD } from '../server/src/seed.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CLIENT_COUNTS = (process.env.BENCH_CLIENTS ?? '1,2,4,8').split(',').map(Number);
/** `Algorithm.Argon2id`; the package's enum is `const` and cannot be imported under isolated modules. */
const ARGON2ID = 2;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** Runs `task` from `inFlight` loops until `seconds` pass; returns per-call latencies in ms. */
async function hammer(inFlight: number, seconds: number, task: () => Promise<void>): Promise<number[]> {
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < deadline) {
        const start = performance.now();
        await task();
        latencies.push(performance.now() - start);
      }
    }),
  );
  return latencies.sort((a, b) => a - b);
}

function report(label: string, latencies: number[], seconds: number) {
  const perSecond = latencies.length / seconds;
  console.log(
    `${label.padEnd(28)} ${perSecond.toFixed(1).padStart(7)}/s   p50 ${ms(percentile(latencies, 0.5)).padStart(9)}   p95 ${ms(percentile(latencies, 0.95)).padStart(9)}`,
  );
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function startServer() {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'peerex-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
      SEED_DEMO: 'true',
      // The per-IP limit protects real servers from guessing; here one IP is the whole point.
      RATE_LIMIT_PER_MINUTE: '100000000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('server exited during boot');
    const health = await fetch(`${baseUrl}/api/health`).then((response) => (response.ok ? response.json() : undefined)).catch(() => undefined);
    if (health) return { baseUrl, health: health as { info: { database: string } }, stop: () => stop(child, dataDir) };
    if (Date.now() > deadline) throw new Error('server did not become healthy');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function stop(child: ReturnType<typeof spawn>, dataDir: string) {
  child.kill('SIGTERM');
  await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
  rmSync(dataDir, { recursive: true, force: true });
}

const { memoryCost, timeCost, parallelism } = OWASP_ARGON2ID;
console.log(`Machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} cores, Node ${process.version}`);
console.log(`argon2id m=${memoryCost} KiB, t=${timeCost}, p=${parallelism}; ${SECONDS} s per run\n`);

console.log('Raw argon2id (@node-rs/argon2, libuv thread pool)');
const options = { ...OWASP_ARGON2ID, algorithm: ARGON2ID } as const;
const stored = await hash(DEMO_PASSWORD, options);
for (const inFlight of [1, availableParallelism()]) {
  report(`hash, ${inFlight} in flight`, await hammer(inFlight, SECONDS / 2, async () => void (await hash(DEMO_PASSWORD, options))), SECONDS / 2);
  report(`verify, ${inFlight} in flight`, await hammer(inFlight, SECONDS / 2, async () => void (await verify(stored, DEMO_PASSWORD))), SECONDS / 2);
}

const server = await startServer();
try {
  console.log(`\nPOST /api/security/login/ over HTTP (database: ${server.health.info.database})`);
  const body = JSON.stringify({ username: 'alice', password: DEMO_PASSWORD, device: 'bench' });
  const login = async () => {
    const response = await fetch(`${server.baseUrl}/api/security/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    if (response.status !== 200) throw new Error(`login answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  };
  await hammer(2, 1, login); // warm-up: JIT, connection pool, the lazily made dummy hash
  for (const clients of CLIENT_COUNTS) {
    report(`${clients} concurrent client${clients === 1 ? '' : 's'}`, await hammer(clients, SECONDS, login), SECONDS);
  }
} finally {
  await server.stop();
}
