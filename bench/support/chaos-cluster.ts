/**
 * The processes a chaos run breaks: a redis-server of its own (never the shared one on 6379) and server
 * processes (`server/src/main.ts`, exactly as `npm start` runs it) on fixed ports over one PostgreSQL
 * database. Each can be SIGKILLed and started again on the same port; a process that exits without being
 * killed is recorded, since no fault injected here may take a server down on its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { newVapidEnvironment } from '../../server/src/push/keys.ts';
import { xpubEnvironmentOf } from '../../server/src/wallets/keys.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
/** How long a process may take to boot (tsx compiles on the fly; a 2-core machine under load is slow). */
const BOOT_TIMEOUT_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function exitOf(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Where the processes' output goes: one file per process, kept for a look after a failed run. */
export function logDirectory(): string {
  const dir = join('/tmp', `peerex-chaos-${randomBytes(4).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export interface ChaosRedis {
  readonly url: string;
  kill(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** A redis-server on a random port, no persistence: a restart comes back empty, as a crashed cache does. */
export async function startRedis(logs: string): Promise<ChaosRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const log = createWriteStream(join(logs, 'redis.log'), { flags: 'a' });
  async function start() {
    const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.stdout?.pipe(log, { end: false });
    started.stderr?.pipe(log, { end: false });
    child = started;
    const deadline = Date.now() + BOOT_TIMEOUT_MS;
    while (!(await answersPing(port))) {
      if (started.exitCode !== null) throw new Error(`redis-server exited with ${started.exitCode}; see ${logs}/redis.log`);
      if (Date.now() > deadline) throw new Error('redis-server did not start');
      await sleep(50);
    }
  }
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    async kill() {
      if (!child) return;
      child.kill('SIGKILL');
      await exitOf(child);
      child = undefined;
    },
    start,
    async stop() {
      if (!child) return;
      child.kill('SIGTERM');
      await exitOf(child);
      child = undefined;
      log.end();
    },
  };
}

async function answersPing(port: number): Promise<boolean> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('error', () => resolve(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
  });
}

/**
 * What every process of one fleet shares: the database, Redis, the app secret (sessions and channel
 * signatures must verify on either process), the wallets' and web push keys. Without `redisUrl`, one
 * process keeps its realtime state to itself. Production mode, as deployed;
 * the per-trader limits raised, since the chaos clients trade far faster than people do.
 */
export function fleetEnvironment(databaseUrl: string, redisUrl: string | undefined): NodeJS.ProcessEnv {
  const { REDIS_URL: _shared, ...inherited } = process.env;
  return {
    ...inherited,
    NODE_ENV: 'production',
    ...xpubEnvironmentOf(generateMnemonic(wordlist)),
    ...newVapidEnvironment(),
    APP_SECRET: randomBytes(32).toString('hex'),
    DATABASE_URL: databaseUrl,
    // Never the shared Redis the environment may name: a fleet of this file's has its own, or none.
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    SEED_DEMO: 'false',
    WEB_DIST: '/nonexistent',
    // Each client sends its own X-Forwarded-For, as clients behind a load balancer arrive, so the per-address
    // limits count each client by itself rather than everyone as 127.0.0.1: the clients' own socket plays the one
    // trusted hop, and the address they write is the one it would have appended.
    TRUST_PROXY: '1',
    RATE_LIMIT_PER_MINUTE: '100000',
    TRADE_OPENS_PER_HOUR: '100000000',
    CHAT_MESSAGES_PER_MINUTE: '100000',
    MAX_OPEN_TRADES: '100',
  };
}

export interface ChaosServer {
  readonly name: string;
  readonly port: number;
  /** When each SIGKILL of the run struck. */
  killedAt: number[];
  /** Exits nobody asked for (each one is a violation). */
  unexpectedExits: string[];
  running(): boolean;
  start(): Promise<void>;
  kill(): Promise<void>;
  /** SIGTERM, as a deploy stops a process; resolves with its exit code. */
  stop(): Promise<number | null>;
}

/** `server/src/main.ts` as a child process on `port`; `start` waits until /api/health answers 200. */
export async function serverProcess(name: string, env: NodeJS.ProcessEnv, logs: string): Promise<ChaosServer> {
  const port = await freePort();
  const log: WriteStream = createWriteStream(join(logs, `${name}.log`), { flags: 'a' });
  let child: ChildProcess | undefined;
  let killing = false;
  const server: ChaosServer = {
    name,
    port,
    killedAt: [],
    unexpectedExits: [],
    running: () => child !== undefined,
    async start() {
      // A boot can fail for a moment (Redis away: the process refuses to start without it); try again until it is up.
      const deadline = Date.now() + BOOT_TIMEOUT_MS;
      for (;;) {
        const started = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
          cwd: ROOT,
          env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        started.stdout?.pipe(log, { end: false });
        started.stderr?.pipe(log, { end: false });
        let exited = false;
        started.once('exit', (code, signal) => {
          exited = true;
          if (child === started) {
            child = undefined;
            if (!killing) server.unexpectedExits.push(`${name} exited by itself (code ${code}, signal ${signal}); see ${logs}/${name}.log`);
          }
        });
        while (!exited && !(await healthy(port))) await sleep(100);
        if (!exited) {
          child = started;
          return;
        }
        log.write(`\n[chaos] ${name} did not start; trying again\n`);
        if (Date.now() > deadline) throw new Error(`${name} did not start within ${BOOT_TIMEOUT_MS} ms; see ${logs}/${name}.log`);
        await sleep(500);
      }
    },
    async kill() {
      if (!child) return;
      const victim = child;
      killing = true;
      victim.kill('SIGKILL');
      await exitOf(victim);
      killing = false;
      server.killedAt.push(Date.now());
      log.write(`\n[chaos] SIGKILL ${new Date().toISOString()}\n`);
    },
    async stop() {
      if (!child) return null;
      const victim = child;
      killing = true;
      victim.kill('SIGTERM');
      await exitOf(victim);
      killing = false;
      return victim.exitCode;
    },
  };
  return server;
}

async function healthy(port: number): Promise<boolean> {
  try {
    const answer = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2000) });
    return answer.status === 200;
  } catch {
    return false;
  }
}

export interface ChaosBalancer {
  readonly port: number;
  /** The process the newest connection still open goes to, if any. */
  servedBy(): ChaosServer | undefined;
  close(): Promise<void>;
}

/**
 * A TCP load balancer in front of the fleet, as production has one: each connection goes to the first
 * process that accepts it, `preferred` first. A client's socket then reconnects to a live process at once
 * when its own was killed; pinned to a dead port, pusher-js ignores the refused attempt and waits out its
 * 15 s connection timeout before it tries again (SequentialStrategy), whatever the browser or Node.
 */
export async function balancer(preferred: ChaosServer, ...others: ChaosServer[]): Promise<ChaosBalancer> {
  const order = [preferred, ...others];
  const open = new Set<Socket>();
  const pairs: Array<{ target: ChaosServer; outgoing: Socket }> = [];
  const server: Server = createServer((incoming) => {
    open.add(incoming);
    incoming.once('close', () => open.delete(incoming));
    incoming.pause();
    const attempt = (index: number) => {
      if (index >= order.length) return incoming.destroy();
      const outgoing = connect(order[index]!.port, '127.0.0.1');
      let connected = false;
      open.add(outgoing);
      outgoing.once('close', () => {
        open.delete(outgoing);
        if (connected) pairs.splice(pairs.findIndex((pair) => pair.outgoing === outgoing), 1);
        if (connected) incoming.destroy();
      });
      // Refused before it connected: the next process. Any other error ends the pair, as a dead peer does.
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        if (!connected && error.code === 'ECONNREFUSED') attempt(index + 1);
        else incoming.destroy();
      });
      outgoing.once('connect', () => {
        connected = true;
        pairs.push({ target: order[index]!, outgoing });
        incoming.on('error', () => outgoing.destroy());
        incoming.once('close', () => outgoing.destroy());
        incoming.pipe(outgoing);
        outgoing.pipe(incoming);
        incoming.resume();
      });
    };
    attempt(0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    servedBy: () => pairs.at(-1)?.target,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
