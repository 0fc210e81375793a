import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../bench/support/chaos-cluster.ts';
import { buildServer } from '../../scripts/build-server.ts';

/**
 * `npm start` under a process manager or in a container: the signal that stops npm's process must reach the
 * server, which then shuts down as main.ts says (closes the database, exits 0). `npm start` is the build, then
 * `exec npm run serve`; the test runs `npm run serve` on the server built here (the web app's build is not
 * needed to answer /api/health), so the chain of processes a signal crosses is the one `npm start` ends in.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BOOT_TIMEOUT_MS = 90_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

interface Started {
  npm: ChildProcess;
  /** The server's own pid, as it wrote it into DATA_DIR/pgdata.lock. */
  serverPid: number;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output: () => string;
}

async function npmServe(dataDir: string): Promise<Started> {
  const port = await freePort();
  const npm = spawn('npm', ['run', 'serve'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: 'off', PRICE_TICK_SECONDS: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  npm.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => npm.once('exit', (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + BOOT_TIMEOUT_MS;
  for (;;) {
    if (npm.exitCode !== null) throw new Error(`npm run serve exited with ${npm.exitCode}:\n${output}`);
    if (Date.now() > deadline) throw new Error(`the server did not answer /api/health within ${BOOT_TIMEOUT_MS} ms:\n${output}`);
    const health = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2000) }).then(
      (answer) => answer.status,
      () => 0,
    );
    if (health === 200) break;
    await sleep(100);
  }
  const serverPid = Number(readFileSync(join(dataDir, 'pgdata.lock'), 'utf8'));
  return { npm, serverPid, exit, output: () => output };
}

describe('npm start passes the stop signal to the server', () => {
  let dataDir: string;
  const left: number[] = [];

  beforeAll(async () => {
    await buildServer();
    dataDir = mkdtempSync(join(tmpdir(), 'peerex-start-'));
  }, BOOT_TIMEOUT_MS);

  afterAll(() => {
    // A server the signal did not reach is this test's own child's: end it, by its pid.
    for (const pid of left) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts by building, then hands its process to `npm run serve`, which becomes the server', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    // `exec`: the shell npm runs the script in is replaced, so npm's child is the next process and no shell
    // sits between npm and the server to swallow the signal (sh -c dies of SIGTERM and leaves its child running).
    expect(scripts.start).toBe('npm run build && exec npm run serve');
    expect(scripts.serve).toMatch(/^exec node (--[a-z-]+ )*server\/dist\/main\.js$/);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s to npm: the server shuts down gracefully (database closed, exit 0), and npm exits 0',
    async (signal) => {
      const started = await npmServe(dataDir);
      left.push(started.serverPid);
      expect(started.serverPid).not.toBe(started.npm.pid);
      expect(isRunning(started.serverPid)).toBe(true);

      started.npm.kill(signal);
      const { code } = await started.exit;
      expect(code, started.output()).toBe(0);
      // npm waits for its child: once npm is gone, so is the server (a pid is not reused this fast).
      expect(isRunning(started.serverPid)).toBe(false);
      // main.ts's shutdown ran: it said so, and the database was closed (closing releases the data dir's lock).
      expect(started.output()).toContain('shutting down');
      expect(started.output()).toContain(signal);
      expect(existsSync(join(dataDir, 'pgdata.lock'))).toBe(false);
    },
    BOOT_TIMEOUT_MS + 30_000,
  );
});
