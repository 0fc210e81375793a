import { workerData, type MessagePort } from 'node:worker_threads';
import type { Queryable, SqlParam } from './db.ts';
import { openPglite } from './pglite.ts';

/*
 * The PGlite thread's side (pglite-thread.ts starts it; the production build bundles it on its own as
 * `server/dist/main.pglite-worker.js`): opens PGlite under the data directory it is given, then answers the
 * server's requests on its port. Queries run through the same openPglite as in the process, so the same
 * one-connection rules hold: PGlite runs one statement at a time, and a transaction holds the connection until the
 * server ends it.
 */

export type PgliteRequestBody =
  | { op: 'query'; sql: string; params: SqlParam[]; tx?: number }
  | { op: 'exec'; sql: string; tx?: number }
  /** Answers the transaction's number once BEGIN ran; its queries name it. */
  | { op: 'begin' }
  /** COMMIT, or ROLLBACK; answered once it ran. */
  | { op: 'end'; tx: number; commit: boolean }
  /** Answers the listener's number; each NOTIFY comes as a `notify` message. */
  | { op: 'listen'; channel: string }
  | { op: 'unlisten'; listen: number }
  | { op: 'close' };
export type PgliteRequest = PgliteRequestBody & { id: number };

/** An error as it crosses the threads: its name, message and own fields (PostgreSQL's `code`, `constraint`, `detail`…). */
export interface WireError {
  name: string;
  message: string;
  fields: Record<string, unknown>;
}

export type PgliteReply =
  /** How long the open took, and this thread's CPU time by then (bench/support/boot-phases.ts). */
  | { kind: 'open'; openMs: number; cpuMs?: number }
  | { kind: 'openFailed'; error: WireError }
  | { kind: 'done'; id: number; result: unknown }
  | { kind: 'failed'; id: number; error: WireError }
  | { kind: 'notify'; listen: number; payload: string };

/** What does not cross: functions, and PGlite's per-query options (which may hold its parsers). */
function wireError(error: unknown, primitivesOnly = false): WireError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === 'function' || key === 'queryOptions') continue;
    if (primitivesOnly && typeof value === 'object' && value !== null) continue;
    fields[key] = value;
  }
  return { name: error.name, message: error.message, fields };
}

/** A transaction's end: resolving its work commits, rejecting with this rolls back. */
const ROLLBACK = Symbol('rollback');

const { dataDir, port } = workerData as { dataDir: string; port: MessagePort };

const send = (reply: PgliteReply) => port.postMessage(reply);
const done = (id: number, result: unknown) => send({ kind: 'done', id, result });
function failed(id: number, error: unknown) {
  try {
    send({ kind: 'failed', id, error: wireError(error) });
  } catch {
    // A field that cannot be cloned: the code, constraint and message still go.
    send({ kind: 'failed', id, error: wireError(error, true) });
  }
}

/** This thread's CPU time in milliseconds (Node 23.9 and later), for bench/support/boot-phases.ts beside the wall-clock time. */
const threadCpu = () => {
  const usage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.();
  return usage && Math.round((usage.user + usage.system) / 1000);
};

const started = performance.now();
const opening = openPglite({ dataDir });
opening.then(
  () => send({ kind: 'open', openMs: Math.round(performance.now() - started), cpuMs: threadCpu() }),
  (error: unknown) => send({ kind: 'openFailed', error: wireError(error, true) }),
);

const transactions = new Map<number, { tx: Queryable; end: (commit: boolean, id: number) => void }>();
const listeners = new Map<number, () => Promise<void>>();
let nextNumber = 1;

async function answer(request: PgliteRequest): Promise<void> {
  const db = await opening;
  const target = (tx: number | undefined): Queryable => {
    if (tx === undefined) return db;
    const transaction = transactions.get(tx);
    if (!transaction) throw new Error(`Transaction ${tx} has ended`);
    return transaction.tx;
  };
  switch (request.op) {
    case 'query':
      return done(request.id, await target(request.tx).query(request.sql, request.params));
    case 'exec':
      await target(request.tx).exec(request.sql);
      return done(request.id, null);
    case 'begin': {
      const number = nextNumber++;
      let endId: number | undefined;
      db.transaction(
        (tx) =>
          new Promise<void>((resolve, reject) => {
            transactions.set(number, { tx, end: (commit, id) => ((endId = id), commit ? resolve() : reject(ROLLBACK)) });
            done(request.id, number);
          }),
      ).then(
        () => {
          transactions.delete(number);
          done(endId!, null);
        },
        (error: unknown) => {
          // Before the work began, BEGIN itself failed; after, the end's COMMIT or ROLLBACK did (or it was asked).
          if (!transactions.delete(number)) return failed(request.id, error);
          if (error === ROLLBACK) done(endId!, null);
          else failed(endId!, error);
        },
      );
      return;
    }
    case 'end': {
      const transaction = transactions.get(request.tx);
      if (!transaction) throw new Error(`Transaction ${request.tx} has ended`);
      return transaction.end(request.commit, request.id);
    }
    case 'listen': {
      const number = nextNumber++;
      listeners.set(number, await db.listen(request.channel, (payload) => send({ kind: 'notify', listen: number, payload })));
      return done(request.id, number);
    }
    case 'unlisten':
      await listeners.get(request.listen)?.();
      listeners.delete(request.listen);
      return done(request.id, null);
    case 'close':
      await db.close();
      done(request.id, null);
      port.close();
  }
}

port.on('message', (request: PgliteRequest) => {
  answer(request).catch((error: unknown) => failed(request.id, error));
});
