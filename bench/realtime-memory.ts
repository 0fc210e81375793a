/**
 * Memory per idle connection of the built-in realtime server (packages/realtime/server.ts), beside a bare
 * `ws` server holding the same number of idle sockets (the ceiling: what ws and Node need anyway).
 *
 * The server runs in a process of its own (`--expose-gc`), so the clients' memory does not count; the
 * clients are `ws` sockets in another process. For each server:
 *   1. baseline: the server is up, nothing connected; two full GCs, then `process.memoryUsage()`;
 *   2. N connections (BENCH_CONNECTIONS, 10,000) open and idle (the built-in server has sent each its
 *      connection_established); GC, measure;
 *   3. built-in only: every connection subscribes as a signed-in trader's web app does, to `coin_price` and
 *      its own `private-user-<n>` (signed); GC, measure.
 * Reported: heap used and RSS growth per connection. Target: at most 10 KB per idle connection.
 *
 * Run: node --import tsx bench/realtime-memory.ts
 * Knobs: BENCH_CONNECTIONS (10000; needs about as many file descriptors per process: `ulimit -n`).
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { WebSocket, WebSocketServer } from 'ws';
import { createBuiltInRealtime } from '../packages/realtime/index.ts';

const APP = { id: 'bench', key: 'bench-key', secret: 'bench-secret' };
type Kind = 'raw' | 'built-in';
type Memory = { heapUsed: number; rss: number; external: number; arrayBuffers: number };

// ---------------------------------------------------------------------------------------------------------
// The server process

async function serve(kind: Kind) {
  const http = createServer();
  let connections: () => number;
  if (kind === 'built-in') {
    const realtime = await createBuiltInRealtime({ app: APP, log: { info() {}, warn() {}, error() {}, debug() {} } });
    realtime.attach(http);
    connections = () => realtime.stats().connections;
  } else {
    const wss = new WebSocketServer({ server: http, perMessageDeflate: false });
    connections = () => wss.clients.size;
  }
  http.listen(0, '127.0.0.1', () => process.send!({ port: (http.address() as AddressInfo).port }));
  process.on('message', async (message: string) => {
    if (message !== 'measure') return;
    // Several rounds: V8 frees in steps (weak maps, finalizers), and nothing should be in flight.
    for (let i = 0; i < 4; i++) {
      global.gc!();
      await delay(50);
    }
    const { heapUsed, rss, external, arrayBuffers } = process.memoryUsage();
    process.send!({ memory: { heapUsed, rss, external, arrayBuffers }, connections: connections() });
  });
  process.on('disconnect', () => process.exit(0));
}

// ---------------------------------------------------------------------------------------------------------
// The client process

async function runClients(port: number, count: number, kind: Kind) {
  const path = kind === 'built-in' ? `/app/${APP.key}?protocol=7&client=bench&version=1` : '/';
  const sockets: Array<{ ws: WebSocket; socketId: string }> = [];
  const BATCH = 250;
  for (let i = 0; i < count; i += BATCH) {
    const batch = await Promise.all(
      Array.from(
        { length: Math.min(BATCH, count - i) },
        () =>
          new Promise<{ ws: WebSocket; socketId: string }>((resolve, reject) => {
            const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { perMessageDeflate: false });
            ws.on('error', reject);
            if (kind === 'raw') ws.on('open', () => resolve({ ws, socketId: '' }));
            else
              ws.once('message', (raw) => {
                const { socket_id: socketId } = JSON.parse(JSON.parse(raw.toString()).data) as { socket_id: string };
                resolve({ ws, socketId });
              });
          }),
      ),
    );
    sockets.push(...batch);
  }
  process.send!({ ready: true });

  process.on('message', async (message: string) => {
    if (message === 'subscribe') {
      let succeeded = 0;
      await new Promise<void>((resolve) => {
        sockets.forEach(({ ws, socketId }, i) => {
          const channel = `private-user-trader${i}`;
          const auth = `${APP.key}:${createHmac('sha256', APP.secret).update(`${socketId}:${channel}`).digest('hex')}`;
          ws.on('message', (raw) => {
            if (raw.toString().startsWith('{"event":"pusher_internal:subscription_succeeded"') && ++succeeded === count * 2) resolve();
          });
          ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel: 'coin_price', auth: '' } }));
          ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel, auth } }));
        });
      });
      process.send!({ subscribed: true });
    }
    if (message === 'close') {
      for (const { ws } of sockets) ws.terminate();
      process.exit(0);
    }
  });
  process.on('disconnect', () => process.exit(0));
}

// ---------------------------------------------------------------------------------------------------------
// The driver

const start = (args: string[], gc = false): ChildProcess =>
  fork(new URL(import.meta.url).pathname, args, { execArgv: ['--import', 'tsx', ...(gc ? ['--expose-gc'] : [])] });

const once = <T>(child: ChildProcess, key: string): Promise<T> =>
  new Promise((resolve, reject) => {
    const onMessage = (message: Record<string, unknown>) => {
      if (key in message) {
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message as T);
      }
    };
    const onExit = (code: number | null) => reject(new Error(`child exited (${code}) waiting for ${key}`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });

async function measure(server: ChildProcess): Promise<{ memory: Memory; connections: number }> {
  const answer = once<{ memory: Memory; connections: number }>(server, 'memory');
  server.send('measure');
  return answer;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;

async function run(kind: Kind, n: number) {
  const server = start(['server', kind], true);
  const { port } = await once<{ port: number }>(server, 'port');
  const before = await measure(server);
  const clients = start(['clients', String(port), String(n), kind]);
  await once(clients, 'ready');
  const idle = await measure(server);
  if (idle.connections !== n) throw new Error(`${kind}: ${idle.connections} connections, expected ${n}`);
  const rows = [{ what: 'idle, connected', after: idle.memory }];
  if (kind === 'built-in') {
    clients.send('subscribe');
    await once(clients, 'subscribed');
    rows.push({ what: 'subscribed: coin_price + own private channel', after: (await measure(server)).memory });
  }
  clients.send('close');
  await new Promise((resolve) => clients.once('exit', resolve));
  server.kill();
  return rows.map(({ what, after }) => ({
    kind,
    what,
    heap: (after.heapUsed - before.memory.heapUsed) / n,
    rss: (after.rss - before.memory.rss) / n,
    external: (after.external - before.memory.external) / n,
  }));
}

async function main() {
  const n = Number(process.env.BENCH_CONNECTIONS ?? 10_000);
  const limit = Number(execFileSync('sh', ['-c', 'ulimit -n']).toString().trim()) || 1024;
  console.log(`${cpus().length} CPUs (${cpus()[0]?.model}), Node ${process.version}, ulimit -n ${limit}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  if (n + 200 > limit) throw new Error(`${n} connections need more than ulimit -n ${limit} descriptors per process: raise it or set BENCH_CONNECTIONS`);
  console.log(`${n.toLocaleString('en')} connections, per connection (growth over the server's baseline, after GC):\n`);
  console.log('| server | state | heap used | RSS | external |');
  console.log('| --- | --- | ---: | ---: | ---: |');
  for (const kind of ['raw', 'built-in'] as const) {
    for (const row of await run(kind, n)) {
      console.log(`| ${row.kind} | ${row.what} | ${kb(row.heap)} | ${kb(row.rss)} | ${kb(row.external)} |`);
    }
  }
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'server') await serve(args[0] as Kind);
else if (mode === 'clients') await runClients(Number(args[0]), Number(args[1]), args[2] as Kind);
else await main();
