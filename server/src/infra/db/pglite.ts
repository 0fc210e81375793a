import { existsSync, fsyncSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { PGlite, PGliteOptions, Transaction } from '@electric-sql/pglite';
import type { NodeFS } from '@electric-sql/pglite/nodefs';
import { withHelpers, type Db, type Queryable, type SqlParam } from './db.ts';

/** In-memory PGlite, for tests and throwaway runs. */
export const MEMORY_DATA_DIR = 'memory://';

/**
 * PGlite's modules, loaded at the first open rather than with this one: the production build's server opens PGlite
 * on a thread of its own (pglite-thread.ts), and its main thread has no use for them (a few tens of milliseconds of
 * a start, bench/README.md "Restart to ready").
 */
const loadPglite = () =>
  Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite/contrib/pg_trgm'), import('@electric-sql/pglite/nodefs')]);

const asText = (value: string): string => value;

/**
 * Ways to boot PGlite faster, for test suites that start many databases: a `dumpDataDir()` tarball of a
 * fresh data directory skips initdb, and a compiled WebAssembly module and file bundle shared between
 * instances skip compiling and reading them again.
 */
export interface PgliteBoot {
  snapshot?: Blob;
  wasmModule?: PGliteOptions['pgliteWasmModule'];
  fsBundle?: Blob;
}

export interface PgliteOptions {
  /** `memory://`, or a directory: the database lives in `<dataDir>/pgdata`. */
  dataDir: string;
  boot?: PgliteBoot;
}

function queryableOf(target: PGlite | Transaction): Queryable {
  return withHelpers(
    async <T extends object>(sql: string, params: readonly SqlParam[] = []) =>
      (await target.query<T>(sql, [...params])).rows,
    async (sql: string) => {
      await target.exec(sql);
    },
  );
}

/*
 * Durability of the files under DATA_DIR. Out of the box PGlite (0.5) writes each commit's WAL to the file
 * before it answers, so a killed process (SIGKILL, a crash, the OOM killer) loses nothing it acknowledged
 * (tests/server/pglite-durability.test.ts). But nothing ever reaches the disk itself: it starts PostgreSQL with
 * `-F` (fsync off), and even with fsync on, the Emscripten file system under it (NODEFS) has no fsync, and its
 * fdatasync is a no-op. A power cut or a kernel crash could then lose acknowledged trades and, with data pages
 * written in any order, leave a database that no longer recovers. So the server's database runs with fsync on,
 * `wal_sync_method=fsync` (the only method that reaches the file system's fsync), and NODEFS's fsync made the
 * real one. It costs one fsync of the WAL per commit (about 3 ms on the 2-vCPU development machine) and the
 * fsyncs of a checkpoint. `relaxedDurability` plays no part here: it only skips waiting for a browser store's sync.
 */
/*
 * PostgreSQL's default 128 MB of shared buffers is allocated and zeroed inside the WebAssembly memory at every
 * open: about half a second of each start, before the first query (bench/README.md "Restart to ready"). The
 * embedded database is one connection on one machine whose files the operating system caches anyway, so 32 MB of
 * PostgreSQL's own cache is plenty; a database that outgrows it is one for DATABASE_URL.
 */
const startParams = (defaults: string[]) => [...defaults, '-c', 'shared_buffers=32MB'];
const durableStartParams = (defaults: string[]) => [...startParams(defaults).filter((param) => param !== '-F'), '-c', 'wal_sync_method=fsync'];

/** The subset of Emscripten's NODEFS that fsync needs: its stream operations and the Node descriptor of a stream. */
interface EmscriptenNodeFs {
  stream_ops: { fsync?: (stream: { nfd: number }) => number };
  tryFSOperation<T>(operation: () => T): T;
}

/** PGlite's NodeFS whose fsync reaches the disk (see durableStartParams), at `location`. */
function durableNodeFS(Base: typeof NodeFS, location: string): NodeFS {
  class DurableNodeFS extends Base {
    override async init(...args: Parameters<NodeFS['init']>) {
      const { emscriptenOpts } = await super.init(...args);
      const fsyncForReal = (module: { FS: { filesystems: Record<string, unknown> } }) => {
        const nodefs = module.FS.filesystems.NODEFS as EmscriptenNodeFs;
        // tryFSOperation turns a failed fsync into an errno, on which PostgreSQL stops rather than carry on unsynced.
        nodefs.stream_ops.fsync = (stream) => nodefs.tryFSOperation(() => (fsyncSync(stream.nfd), 0));
      };
      return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), fsyncForReal] } };
    }
  }
  return new DurableNodeFS(location);
}

/** Whether process `pid` is alive on this machine (signal 0 only asks). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite's files belong to one process at a time: a second one (a command such as `npm run user:role` or
 * `ledger:check` while the server runs, or a second server) would write beside the first's in-memory state
 * and corrupt the database. So the opener takes `<dataDir>/pgdata.lock` holding its pid, and refuses while a
 * live process holds it; a lock left by a process that died is taken over. Answers the release.
 */
export function lockDataDir(dataDir: string): () => void {
  const lockFile = join(dataDir, 'pgdata.lock');
  for (;;) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(lockFile, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isRunning(holder)) {
        throw new Error(
          `The embedded database in ${dataDir} is in use by process ${holder} (a running server?). Stop it first, or use DATABASE_URL.`,
        );
      }
      rmSync(lockFile, { force: true });
    }
  }
}

export async function openPglite({ dataDir, boot = {} }: PgliteOptions): Promise<Db & { pglite: PGlite }> {
  const [{ PGlite, types }, { pg_trgm }, { NodeFS }] = await loadPglite();
  let location = MEMORY_DATA_DIR;
  let unlock = () => {};
  let files: { fs?: NodeFS; startParams: string[] } = { startParams: startParams(PGlite.defaultStartParams) };
  // A snapshot only seeds a new data directory; one that holds a database already (a second boot) opens as it is.
  let snapshot = boot.snapshot;
  if (dataDir !== MEMORY_DATA_DIR) {
    location = join(dataDir, 'pgdata');
    await mkdir(location, { recursive: true });
    unlock = lockDataDir(dataDir);
    files = { fs: durableNodeFS(NodeFS, location), startParams: durableStartParams(PGlite.defaultStartParams) };
    if (existsSync(join(location, 'PG_VERSION'))) snapshot = undefined;
  }
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(location, {
      ...files,
      // PGlite already returns NUMERIC as text; pin it anyway so an upgrade cannot silently turn money into floats.
      // INT8 is text too, because node-postgres returns it as text and both drivers must agree.
      parsers: { [types.NUMERIC]: asText, [types.INT8]: asText },
      // The extensions the migrations create; PostgreSQL ships them as contrib, PGlite needs them loaded.
      extensions: { pg_trgm },
      ...(snapshot ? { loadDataDir: snapshot } : {}),
      ...(boot.wasmModule ? { pgliteWasmModule: boot.wasmModule } : {}),
      ...(boot.fsBundle ? { fsBundle: boot.fsBundle } : {}),
    });
  } catch (error) {
    unlock();
    throw error;
  }
  return {
    kind: 'pglite',
    pglite,
    ...queryableOf(pglite),
    // PGlite is one connection: a transaction holds it and every other query waits, so there is no
    // concurrency to guard here; row locks and advisory locks are still honoured, they just never contend.
    transaction: (work) => pglite.transaction((tx) => work(queryableOf(tx))),
    // One connection inside this process: it hears its own NOTIFYs, after their commit, and is never lost.
    async listen(channel, onNotify) {
      const stop = await pglite.listen(channel, onNotify);
      return async () => {
        if (!pglite.closed) await stop();
      };
    },
    // Idempotent, like the PostgreSQL pool's.
    close: async () => {
      if (!pglite.closed) await pglite.close();
      unlock();
    },
  };
}
