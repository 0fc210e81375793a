import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { resolve } from 'node:path';
import { withHelpers, type Db, type Queryable, type SqlParam } from './db.ts';
import type { PgliteReply, PgliteRequest, PgliteRequestBody, WireError } from './pglite-worker.ts';

/*
 * PGlite on a thread of its own (node:worker_threads), the server's database talking to it through a port.
 * PGlite's open is the WebAssembly PostgreSQL's own start, most of a restart on the embedded database
 * (bench/README.md "Restart to ready"); the production build's start script starts this thread before it loads the
 * server's bundle (scripts/build-server.ts), so that start runs while Node loads and evaluates the server, and the
 * database plugin adopts it (open.ts). It is the same one connection as PGlite in the process: its queries run one
 * at a time and a transaction holds it (pglite-worker.ts runs PGlite's own `transaction`).
 *
 * This module is in the start script as well as in the server's bundle, so the two copies meet through a global.
 * It imports nothing heavy: the start script should be ready to start the thread as soon as Node runs it.
 */

/** The thread and our end of its port, as started. */
export interface PgliteThread {
  readonly dataDir: string;
  readonly worker: Worker;
  readonly port: MessagePort;
}

/** What the start script leaves for the server's database plugin, and how the handover went (bench/support/boot-phases.ts). */
interface EarlyPglite {
  thread: PgliteThread;
  /** Milliseconds since the process started, at the thread's start. */
  startedAt: number;
  /**
   * Set once the server takes it: how long its open had taken on the thread (and the thread's CPU time by then,
   * Node 23.9 and later), and how long the server waited.
   */
  openMs?: number;
  openCpuMs?: number;
  waitedMs?: number;
}

const EARLY = Symbol.for('peerex.earlyPglite');
const holder = globalThis as { [EARLY]?: EarlyPglite };

/** The default of DATA_DIR (config.ts), which the start script needs before the configuration is read. */
const DEFAULT_DATA_DIR = './.data';

/**
 * Starts the PGlite thread on `dataDir`, from `workerUrl` (the build's `main.pglite-worker.js`, or a script that
 * imports pglite-worker.ts). It opens the database at once; `pgliteOnThread` answers the Db once it is open.
 */
export function startPgliteThread(dataDir: string, workerUrl: URL): PgliteThread {
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(workerUrl, { workerData: { dataDir, port: port2 }, transferList: [port2] });
  // The thread alone keeps no process alive: one that never takes it (a configuration refused at start) still ends.
  // Once taken, our end of the port, listened to, keeps the process alive while the database is open.
  worker.unref();
  return { dataDir, worker, port: port1 };
}

/**
 * The start script's part: with no DATABASE_URL the server will open PGlite under DATA_DIR, so the thread starts now,
 * read from the same variables the configuration reads (an empty one is unset there too).
 */
export function startPgliteEarly(workerUrl: URL): void {
  if (process.env.DATABASE_URL) return;
  const startedAt = process.uptime() * 1000;
  holder[EARLY] = { thread: startPgliteThread(process.env.DATA_DIR || DEFAULT_DATA_DIR, workerUrl), startedAt };
}

/**
 * The thread the start script started, for the server's PGlite on `dataDir`; taken once. Undefined without one
 * (the TypeScript source, tests, scripts), and ended when it was opened elsewhere than the configuration says.
 */
export function adoptEarlyPglite(dataDir: string): Promise<Db> | undefined {
  const early = holder[EARLY];
  if (!early || early.waitedMs !== undefined) return undefined;
  early.waitedMs = -1;
  if (resolve(early.thread.dataDir) !== resolve(dataDir)) {
    // Closed rather than ended, so that it releases the directory it holds.
    pgliteOnThread(early.thread).then(
      (db) => db.close(),
      () => {},
    );
    return undefined;
  }
  const at = performance.now();
  return pgliteOnThread(early.thread, (openMs, cpuMs) => {
    early.openMs = openMs;
    early.openCpuMs = cpuMs;
    early.waitedMs = Math.round(performance.now() - at);
  });
}

/** How the handover of the start script's thread went, for bench/support/boot-phases.ts. */
export function earlyPgliteTimes(): { startedAt: number; openMs?: number; openCpuMs?: number; waitedMs?: number } | undefined {
  const early = holder[EARLY];
  return early && { startedAt: Math.round(early.startedAt), openMs: early.openMs, openCpuMs: early.openCpuMs, waitedMs: early.waitedMs };
}

/** An error as the thread sent it, rebuilt with its own fields (`code`, `constraint`, `detail`…) and the caller's stack. */
function rebuilt(wire: WireError, caller: Error | undefined): Error {
  const error = new Error(wire.message);
  Object.assign(error, wire.fields);
  error.name = wire.name;
  const frames = caller?.stack?.split('\n').slice(1).join('\n');
  error.stack = `${wire.name}: ${wire.message}${frames ? `\n${frames}` : ''}`;
  return error;
}

/**
 * The Db on a started thread, once its PGlite is open; rejects with the open's error (a directory held by another
 * process, say), and the thread is ended then.
 */
export function pgliteOnThread(thread: PgliteThread, onOpen?: (openMs: number, cpuMs: number | undefined) => void): Promise<Db> {
  const { port, worker } = thread;
  let nextId = 1;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; caller?: Error }>();
  const listeners = new Map<number, (payload: string) => void>();
  let opened: { resolve: (db: Db) => void; reject: (error: Error) => void } | undefined;
  let gone: Error | undefined;

  const fail = (error: Error) => {
    gone ??= error;
    opened?.reject(error);
    opened = undefined;
    for (const request of pending.values()) request.reject(error);
    pending.clear();
  };
  /** The close's request, once sent: the thread answers it, then ends. */
  let closeId: number | undefined;
  worker.on('error', fail);
  worker.on('exit', (code) => {
    // A thread that ended cleanly after a close was asked has closed PGlite: its exit may be seen here before its
    // answer on the port, which then never comes (a shutdown ended with an error, exit code 1, when it did).
    if (closeId !== undefined && code === 0) {
      pending.get(closeId)?.resolve(null);
      pending.delete(closeId);
      return fail(new Error('The database is closed'));
    }
    fail(new Error(`The PGlite thread exited (${code})`));
  });

  const call = (body: PgliteRequestBody, caller?: Error): Promise<unknown> => {
    if (gone) return Promise.reject(gone);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject, caller });
      port.postMessage({ id, ...body } satisfies PgliteRequest);
    });
  };

  port.on('message', (reply: PgliteReply) => {
    switch (reply.kind) {
      case 'notify':
        listeners.get(reply.listen)?.(reply.payload);
        return;
      case 'open':
        onOpen?.(reply.openMs, reply.cpuMs);
        opened?.resolve(db);
        opened = undefined;
        return;
      case 'openFailed':
        opened?.reject(rebuilt(reply.error, undefined));
        opened = undefined;
        void worker.terminate();
        return;
      case 'done':
      case 'failed': {
        const request = pending.get(reply.id);
        if (!request) return;
        pending.delete(reply.id);
        if (reply.kind === 'done') request.resolve(reply.result);
        else request.reject(rebuilt(reply.error, request.caller));
      }
    }
  });

  // The caller's stack is taken before the round trip (a failed query's own stack would be the port's handler only);
  // V8 formats it only when an error needs it.
  const queryableOf = (tx?: number): Queryable =>
    withHelpers(
      async <T extends object>(sql: string, params: readonly SqlParam[] = []) =>
        (await call({ op: 'query', sql, params: [...params], tx }, new Error())) as T[],
      async (sql: string) => {
        await call({ op: 'exec', sql, tx }, new Error());
      },
    );

  let closing: Promise<void> | undefined;
  const db: Db = {
    kind: 'pglite',
    ...queryableOf(),
    async transaction(work) {
      const tx = (await call({ op: 'begin' }, new Error())) as number;
      let result;
      try {
        result = await work(queryableOf(tx));
      } catch (error) {
        // PGlite rolls back; a failure of the rollback itself would hide the reason, which is `error`.
        await call({ op: 'end', tx, commit: false }).catch(() => {});
        throw error;
      }
      await call({ op: 'end', tx, commit: true }, new Error());
      return result;
    },
    async listen(channel, onNotify) {
      const listen = (await call({ op: 'listen', channel }, new Error())) as number;
      listeners.set(listen, onNotify);
      return async () => {
        listeners.delete(listen);
        if (!gone) await call({ op: 'unlisten', listen });
      };
    },
    // Idempotent, like the in-process PGlite's: the thread closes PGlite (releasing DATA_DIR) and ends.
    close: () =>
      (closing ??= (async () => {
        if (!gone) {
          closeId = nextId;
          await call({ op: 'close' });
        }
        fail(new Error('The database is closed'));
        port.close();
        await worker.terminate();
      })()),
  };

  return new Promise<Db>((resolve, reject) => {
    if (gone) reject(gone);
    else opened = { resolve, reject };
  });
}
