/**
 * Fan-out of the built-in realtime server (packages/realtime/server.ts) beside a raw `ws` broadcast of the
 * same frame to the same sockets, in the same run.
 *
 * Processes (2 vCPU: the server and the clients each get a core, more or less):
 *   - the server: the built-in server on a bare node:http server, or the ceiling, a `ws` server that
 *     broadcasts one prebuilt frame (UTF-8 encoded once, as the built-in server does) to every socket;
 *   - the clients: N websocket connections in one process (more when `ulimit -n` is too low), hand-rolled
 *     over `net` so that the client side costs as little as it can; on the built-in server each one
 *     subscribes to the public channel `bench` first, exactly as pusher-js would;
 *   - this process, which drives both over IPC and never touches a socket.
 *
 * For each N (1,000 and 10,000) and each server, alternating (raw, built-in, raw, built-in, … BENCH_ROUNDS):
 *   1. throughput: the server publishes M messages back to back (one per turn of its event loop, so that
 *      M × N ≈ 1,000,000 deliveries), `trigger('bench', 'tick', {t, k})` on the built-in server; the figure is
 *      deliveries per second, from the first publish to the last frame read by the last client; plus the
 *      server's CPU per delivery;
 *   2. latency: K messages (BENCH_LATENCY_MESSAGES, 50) one at a time, the next once every client has the
 *      last one; publish-to-receive = the client's clock on reading the frame − the timestamp in the payload
 *      (CLOCK_MONOTONIC, shared by the processes), p50/p99 over every delivery.
 *
 * Targets: at least 0.8× the raw broadcast's deliveries per second; p99 under 25 ms at 10,000 subscribers.
 *
 * Run: node --import tsx bench/realtime-fanout.ts
 * Knobs: BENCH_SUBSCRIBERS (comma list, default 1000,10000), BENCH_DELIVERIES (per throughput run, 1000000),
 * BENCH_LATENCY_MESSAGES (50), BENCH_ROUNDS (2), BENCH_CLIENT_PROCESSES (default: as few as `ulimit -n` allows).
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { WebSocketServer, type WebSocket } from 'ws';
import { createBuiltInRealtime } from '../packages/realtime/index.ts';

const APP = { id: 'bench', key: 'bench-key', secret: 'bench-secret' };
const CHANNEL = 'bench';
const EVENT = 'tick';
const now = () => {
  const [s, ns] = process.hrtime();
  return s * 1e3 + ns / 1e6;
};

type Kind = 'raw' | 'built-in';

// ---------------------------------------------------------------------------------------------------------
// The server process

async function serve(kind: Kind) {
  const http = createServer();
  let publishFrame: (k: number) => void;
  let connections: () => number;
  if (kind === 'built-in') {
    const realtime = await createBuiltInRealtime({ app: APP, log: { info() {}, warn() {}, error() {}, debug() {} } });
    realtime.attach(http);
    publishFrame = (k) => void realtime.trigger(CHANNEL, EVENT, { t: now(), k });
    connections = () => realtime.stats().connections;
  } else {
    const wss = new WebSocketServer({ server: http, perMessageDeflate: false });
    const sockets = new Set<WebSocket>();
    wss.on('connection', (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
    });
    // The same frame the built-in server sends, built and encoded once, written to every socket.
    publishFrame = (k) => {
      const data = JSON.stringify({ t: now(), k });
      const frame = Buffer.from(`{"event":${JSON.stringify(EVENT)},"channel":${JSON.stringify(CHANNEL)},"data":${JSON.stringify(data)}}`);
      for (const ws of sockets) ws.send(frame, { binary: false });
    };
    connections = () => sockets.size;
  }
  http.listen(0, '127.0.0.1', () => process.send!({ port: (http.address() as AddressInfo).port }));

  process.on('message', (message: { op: string; from: number; count: number }) => {
    if (message.op === 'connections') process.send!({ connections: connections() });
    if (message.op === 'one') {
      publishFrame(message.from);
      process.send!({ published: message.from });
    }
    if (message.op === 'burst') {
      const cpu = process.cpuUsage();
      const started = now();
      let k = message.from;
      const end = message.from + message.count;
      const next = () => {
        publishFrame(k++);
        if (k < end) setImmediate(next);
        else {
          const used = process.cpuUsage(cpu);
          process.send!({ started, publishedIn: now() - started, cpuMs: (used.user + used.system) / 1000 });
        }
      };
      next();
    }
  });
  process.on('disconnect', () => process.exit(0));
}

// ---------------------------------------------------------------------------------------------------------
// The client process: minimal websocket clients over net.

function clientFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  // Client frames must be masked; an all-zero mask leaves the payload as it is.
  const header = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length, 0, 0, 0, 0]) : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 255, 0, 0, 0, 0]);
  return Buffer.concat([header, payload]);
}

const PONG = Buffer.from([0x8a, 0x80, 0, 0, 0, 0]);

function openClient(port: number, path: string, onText: (text: string, socket: Socket) => void): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    let upgraded = false;
    let pending: Buffer | null = null;
    socket.on('error', reject);
    socket.on('connect', () =>
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      ),
    );
    socket.on('data', (chunk: Buffer) => {
      let buffer = pending ? Buffer.concat([pending, chunk]) : chunk;
      pending = null;
      if (!upgraded) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return void (pending = buffer);
        if (!buffer.subarray(0, 12).toString().includes('101')) return reject(new Error(buffer.toString()));
        upgraded = true;
        buffer = buffer.subarray(end + 4);
        resolve(socket);
      }
      let offset = 0;
      while (buffer.length - offset >= 2) {
        const opcode = buffer[offset] & 0x0f;
        let length = buffer[offset + 1] & 0x7f;
        let start = offset + 2;
        if (length === 126) {
          if (buffer.length - offset < 4) break;
          length = buffer.readUInt16BE(offset + 2);
          start = offset + 4;
        } else if (length === 127) {
          if (buffer.length - offset < 10) break;
          length = Number(buffer.readBigUInt64BE(offset + 2));
          start = offset + 10;
        }
        if (buffer.length < start + length) break;
        if (opcode === 1) onText(buffer.toString('utf8', start, start + length), socket);
        else if (opcode === 9) socket.write(PONG);
        offset = start + length;
      }
      if (offset < buffer.length) pending = buffer.subarray(offset);
    });
  });
}

async function runClients(port: number, count: number, kind: Kind, latencySlots: number) {
  const path = kind === 'built-in' ? `/app/${APP.key}?protocol=7&client=bench&version=1` : '/';
  const subscribe = clientFrame(JSON.stringify({ event: 'pusher:subscribe', data: { channel: CHANNEL, auth: '' } }));
  const latencies = new Float64Array(count * latencySlots);
  let latencyCount = 0;
  let recording = false;
  const received = new Map<number, number>();
  let expected = 0;
  let lastAt = 0;
  let subscribedCount = 0;
  let onSubscribed: (() => void) | undefined;
  let watch: number | undefined;
  let cpuAtStart = process.cpuUsage();

  const onText = (text: string, socket: Socket) => {
    if (text.charCodeAt(2) === 101 /* e */ && text.startsWith('{"event":"pusher')) {
      if (text.startsWith('{"event":"pusher:connection_established"')) socket.write(subscribe);
      else if (text.startsWith('{"event":"pusher_internal:subscription_succeeded"')) {
        if (++subscribedCount === count) onSubscribed?.();
      }
      return;
    }
    const at = now();
    const t = parseFloat(text.slice(text.indexOf('t\\":') + 4));
    const k = parseInt(text.slice(text.indexOf('k\\":') + 4), 10);
    if (recording) latencies[latencyCount++] = at - t;
    const got = (received.get(k) ?? 0) + 1;
    received.set(k, got);
    lastAt = at;
    if (got === count) {
      received.delete(k);
      if (watch !== undefined && k === watch) process.send!({ complete: k });
      if (--expected === 0) {
        const used = process.cpuUsage(cpuAtStart);
        process.send!({ burstDone: lastAt, cpuMs: (used.user + used.system) / 1000 });
      }
    }
  };

  const sockets: Socket[] = [];
  const subscribedAll = new Promise<void>((resolve) => (onSubscribed = resolve));
  const BATCH = 250;
  for (let i = 0; i < count; i += BATCH) {
    sockets.push(...(await Promise.all(Array.from({ length: Math.min(BATCH, count - i) }, () => openClient(port, path, onText)))));
  }
  if (kind === 'built-in') await subscribedAll;
  process.send!({ ready: true });

  process.on('message', (message: { op: string; count?: number; k?: number }) => {
    if (message.op === 'expect') {
      expected = message.count!;
      cpuAtStart = process.cpuUsage();
    }
    if (message.op === 'watch') watch = message.k;
    if (message.op === 'record') recording = true;
    if (message.op === 'report') process.send!({ latencies: latencies.subarray(0, latencyCount) });
    if (message.op === 'close') {
      for (const socket of sockets) socket.resetAndDestroy();
      process.exit(0);
    }
  });
  process.on('disconnect', () => process.exit(0));
}

// ---------------------------------------------------------------------------------------------------------
// The driver

function start(args: string[]): ChildProcess {
  return fork(new URL(import.meta.url).pathname, args, { execArgv: ['--import', 'tsx'], serialization: 'advanced' });
}

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

const percentile = (sorted: Float64Array, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;

interface Result {
  kind: Kind;
  n: number;
  perSecond: number;
  cpuPerDeliveryUs: number;
  clientCpuPerDeliveryUs: number;
  p50: number;
  p99: number;
  max: number;
  fanOutMs: number;
}

function fdLimit(): number {
  try {
    return Number(execFileSync('sh', ['-c', 'ulimit -n']).toString().trim()) || 1024;
  } catch {
    return 1024;
  }
}

async function measure(kind: Kind, n: number, deliveries: number, latencyMessages: number, clientProcesses: number): Promise<Result> {
  const server = start(['server', kind]);
  const { port } = await once<{ port: number }>(server, 'port');
  const shares = Array.from({ length: clientProcesses }, (_, i) => Math.floor(n / clientProcesses) + (i < n % clientProcesses ? 1 : 0));
  const clients = shares.map((share) => start(['clients', String(port), String(share), kind, String(latencyMessages)]));
  await Promise.all(clients.map((client) => once(client, 'ready')));
  server.send({ op: 'connections' });
  const { connections } = await once<{ connections: number }>(server, 'connections');
  if (connections !== n) throw new Error(`${kind}: ${connections} connections, expected ${n}`);

  let k = 0;
  async function oneAtATime(count: number) {
    for (let i = 0; i < count; i++, k++) {
      const complete = clients.map((client) => once(client, 'complete'));
      for (const client of clients) client.send({ op: 'watch', k });
      server.send({ op: 'one', from: k });
      await Promise.all(complete);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  // Warm-up (JIT, socket buffers), not recorded.
  await oneAtATime(20);

  const messages = Math.max(1, Math.round(deliveries / n));
  for (const client of clients) client.send({ op: 'expect', count: messages });
  const done = clients.map((client) => once<{ burstDone: number; cpuMs: number }>(client, 'burstDone'));
  server.send({ op: 'burst', from: k, count: messages });
  const { started, cpuMs } = await once<{ started: number; publishedIn: number; cpuMs: number }>(server, 'started');
  const finished = await Promise.all(done);
  const lastAt = Math.max(...finished.map((message) => message.burstDone));
  const clientCpuMs = finished.reduce((sum, message) => sum + message.cpuMs, 0);
  k += messages;
  const elapsed = lastAt - started;

  for (const client of clients) client.send({ op: 'record' });
  const fanOutStart = now();
  await oneAtATime(latencyMessages);
  const fanOutMs = (now() - fanOutStart - latencyMessages * 10) / latencyMessages;
  const reports = await Promise.all(
    clients.map((client) => {
      const report = once<{ latencies: Float64Array }>(client, 'latencies');
      client.send({ op: 'report' });
      return report;
    }),
  );
  const all = new Float64Array(reports.reduce((sum, report) => sum + report.latencies.length, 0));
  let offset = 0;
  for (const { latencies } of reports) {
    all.set(latencies, offset);
    offset += latencies.length;
  }
  all.sort();

  for (const client of clients) client.send({ op: 'close' });
  await Promise.all(clients.map((client) => new Promise((resolve) => client.once('exit', resolve))));
  server.kill();
  await new Promise((resolve) => server.once('exit', resolve));
  return {
    kind,
    n,
    perSecond: (n * messages) / (elapsed / 1000),
    cpuPerDeliveryUs: (cpuMs * 1000) / (n * messages),
    clientCpuPerDeliveryUs: (clientCpuMs * 1000) / (n * messages),
    p50: percentile(all, 0.5),
    p99: percentile(all, 0.99),
    max: all[all.length - 1],
    fanOutMs,
  };
}

async function main() {
  const subscribers = (process.env.BENCH_SUBSCRIBERS ?? '1000,10000').split(',').map(Number);
  const deliveries = Number(process.env.BENCH_DELIVERIES ?? 1_000_000);
  const latencyMessages = Number(process.env.BENCH_LATENCY_MESSAGES ?? 50);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
  const limit = fdLimit();
  console.log(`${cpus().length} CPUs (${cpus()[0]?.model}), Node ${process.version}, ulimit -n ${limit}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`throughput: ~${deliveries.toLocaleString('en')} deliveries per run; latency: ${latencyMessages} messages one at a time; ${rounds} rounds, raw and built-in alternating\n`);

  const results: Result[] = [];
  for (const n of subscribers) {
    // One client process holds N sockets (plus a few descriptors of its own); the server holds N too.
    const clientProcesses = Number(process.env.BENCH_CLIENT_PROCESSES ?? Math.ceil(n / (limit - 200)));
    if (n + 200 > limit) console.log(`N=${n} needs ${n + 200} descriptors in the server process; ulimit -n is ${limit}: raise it`);
    for (let round = 0; round < rounds; round++) {
      for (const kind of ['raw', 'built-in'] as const) {
        const result = await measure(kind, n, deliveries, latencyMessages, clientProcesses);
        results.push(result);
        console.log(
          `N=${String(n).padStart(6)} ${kind.padEnd(8)} round ${round + 1}: ${Math.round(result.perSecond).toLocaleString('en').padStart(10)} deliveries/s, ` +
            `CPU per delivery: server ${result.cpuPerDeliveryUs.toFixed(2)} µs, clients ${result.clientCpuPerDeliveryUs.toFixed(2)} µs; one message to all ${result.fanOutMs.toFixed(1)} ms, ` +
            `latency p50 ${result.p50.toFixed(1)} ms p99 ${result.p99.toFixed(1)} ms max ${result.max.toFixed(1)} ms`,
        );
      }
    }
  }

  // The machine is shared: another process can only ever make a round slower, so each side's best round is
  // the closest to what it can do; the mean is printed beside it.
  console.log('\nsummary: best round of each (mean of the rounds in brackets)');
  console.log('| subscribers | server | deliveries/s | vs raw | server CPU per delivery | vs raw | p50 | p99 |');
  console.log('| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const n of subscribers) {
    const rows = (kind: Kind) => results.filter((r) => r.n === n && r.kind === kind);
    const best = (kind: Kind, key: 'perSecond' | 'cpuPerDeliveryUs' | 'p50' | 'p99') =>
      (key === 'perSecond' ? Math.max : Math.min)(...rows(kind).map((r) => r[key]));
    const mean = (kind: Kind, key: 'perSecond' | 'cpuPerDeliveryUs' | 'p50' | 'p99') => rows(kind).reduce((sum, r) => sum + r[key], 0) / rows(kind).length;
    for (const kind of ['raw', 'built-in'] as const) {
      console.log(
        `| ${n.toLocaleString('en')} | ${kind} | ${Math.round(best(kind, 'perSecond')).toLocaleString('en')} (${Math.round(mean(kind, 'perSecond')).toLocaleString('en')}) | ` +
          `${(best(kind, 'perSecond') / best('raw', 'perSecond')).toFixed(2)}× (${(mean(kind, 'perSecond') / mean('raw', 'perSecond')).toFixed(2)}×) | ` +
          `${best(kind, 'cpuPerDeliveryUs').toFixed(2)} µs (${mean(kind, 'cpuPerDeliveryUs').toFixed(2)}) | ` +
          `${(best('raw', 'cpuPerDeliveryUs') / best(kind, 'cpuPerDeliveryUs')).toFixed(2)}× | ` +
          `${best(kind, 'p50').toFixed(1)} ms (${mean(kind, 'p50').toFixed(1)}) | ${best(kind, 'p99').toFixed(1)} ms (${mean(kind, 'p99').toFixed(1)}) |`,
      );
    }
  }
  console.log(`\nload average after: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'server') await serve(args[0] as Kind);
else if (mode === 'clients') await runClients(Number(args[0]), Number(args[1]), args[2] as Kind, Number(args[3]));
else await main();
