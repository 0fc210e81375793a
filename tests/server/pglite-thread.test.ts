import { execFileSync, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MessageChannel, type Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server.ts';
import { uniqueViolation, type Db } from '../../server/src/infra/db/db.ts';
import { openDatabase } from '../../server/src/infra/db/open.ts';
import { MEMORY_DATA_DIR } from '../../server/src/infra/db/pglite.ts';
import { earlyPgliteTimes, pgliteOnThread, startPgliteEarly, startPgliteThread } from '../../server/src/infra/db/pglite-thread.ts';
import { isRetryable, retrying } from '../../server/src/infra/db/retry.ts';

/**
 * PGlite on a thread of its own (server/src/infra/db/pglite-thread.ts and pglite-worker.ts), as the production build
 * opens it: the same Db as the in-process PGlite, across a message port. The worker's TypeScript source runs under
 * tsx here; the built worker runs in the last test.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where the server's build goes (git ignores it), and where the packages are found from. */
const DIST = join(ROOT, 'server', 'dist');
mkdirSync(DIST, { recursive: true });
/**
 * A worker script that runs pglite-worker.ts under tsx. Node 20's workers do not take `--import tsx` from their
 * execArgv, so it imports the TypeScript through tsx's API.
 */
const WORKER = pathToFileURL(join(DIST, `test-pglite-worker-${process.pid}.mjs`));
writeFileSync(
  WORKER,
  `import { tsImport } from 'tsx/esm/api';
await tsImport(${JSON.stringify(new URL('../../server/src/infra/db/pglite-worker.ts', import.meta.url).href)}, import.meta.url);
`,
);
afterAll(() => rmSync(WORKER, { force: true }));
const onThread = (dataDir: string = MEMORY_DATA_DIR) => pgliteOnThread(startPgliteThread(dataDir, WORKER));
const THIS_FILE = fileURLToPath(import.meta.url);
const OPEN_TIMEOUT_MS = 60_000;

describe('PGlite on its own thread', () => {
  let db: Db;
  beforeAll(async () => {
    db = await onThread();
    await db.exec(`CREATE TABLE probe (id int PRIMARY KEY, name text UNIQUE, price numeric, at timestamptz);
                   CREATE SEQUENCE attempts;
                   CREATE FUNCTION conflict_once() RETURNS int LANGUAGE plpgsql AS $$
                   BEGIN
                     IF nextval('attempts') = 1 THEN RAISE EXCEPTION 'could not serialize' USING ERRCODE = '40001'; END IF;
                     RETURN 1;
                   END $$;`);
  }, OPEN_TIMEOUT_MS);
  afterAll(() => db.close());

  it('runs parameterised statements, with NUMERIC and INT8 as exact strings and timestamptz as Date', async () => {
    const at = new Date('2026-11-29T10:00:00.000Z');
    await db.query('INSERT INTO probe (id, name, price, at) VALUES ($1, $2, $3, $4)', [1, 'first', '97000.123456789012345678', at]);
    expect(await db.one('SELECT id, name, price, at, 9007199254740993::int8 AS big, $1::text[] AS tags FROM probe WHERE id = $2', [['a', 'b'], 1])).toEqual({
      id: 1,
      name: 'first',
      price: '97000.123456789012345678',
      at,
      big: '9007199254740993',
      tags: ['a', 'b'],
    });
    expect(await db.maybe('SELECT id FROM probe WHERE id = $1', [2])).toBeUndefined();
    await expect(db.one('SELECT id FROM probe WHERE id = $1', [2])).rejects.toThrow('Expected exactly one row, got 0');
  });

  it("rejects with PostgreSQL's error: its code and constraint cross the thread, and its stack names the caller", async () => {
    await db.query("INSERT INTO probe (id, name) VALUES (10, 'taken')");
    const error = await db.query("INSERT INTO probe (id, name) VALUES (11, 'taken')").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', constraint: 'probe_name_key', message: expect.stringContaining('duplicate key') });
    expect(uniqueViolation(error)).toBe('probe_name_key');
    expect((error as Error).stack).toContain(THIS_FILE);
    await expect(db.query('SELECT no_such_column FROM probe')).rejects.toMatchObject({ code: '42703' });
  });

  it('passes on a serialization failure as one to run again', async () => {
    const first = await db.query('SELECT conflict_once()').catch((caught: unknown) => caught);
    expect(first).toMatchObject({ code: '40001' });
    expect(isRetryable(first)).toBe(true);
    await db.query("SELECT setval('attempts', 1, false)");
    expect(await retrying(() => db.query('SELECT conflict_once() AS one'))).toEqual([{ one: 1 }]);
  });

  it('commits a transaction that resolves, rolls back one that throws or whose statement failed', async () => {
    expect(
      await db.transaction(async (tx) => {
        await tx.query("INSERT INTO probe (id, name) VALUES (20, 'kept')");
        return (await tx.one<{ name: string }>('SELECT name FROM probe WHERE id = 20')).name;
      }),
    ).toBe('kept');
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO probe (id, name) VALUES (21, 'dropped')");
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await expect(
      db.transaction(async (tx) => {
        await tx.exec("INSERT INTO probe (id, name) VALUES (22, 'dropped too')");
        await tx.query("INSERT INTO probe (id, name) VALUES (23, 'kept')");
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await db.query('SELECT id FROM probe WHERE id >= 20 ORDER BY id')).toEqual([{ id: 20 }]);
  });

  it('holds its one connection for a transaction: a statement outside it runs after the commit', async () => {
    let outside: Promise<unknown[]> | undefined;
    await db.transaction(async (tx) => {
      await tx.query("INSERT INTO probe (id, name) VALUES (30, 'inside')");
      outside = db.query('SELECT id FROM probe WHERE id = 30');
      // Still inside: the transaction sees its own row, and the statement outside has not run.
      expect(await tx.query('SELECT id FROM probe WHERE id = 30')).toEqual([{ id: 30 }]);
    });
    expect(await outside).toEqual([{ id: 30 }]);
  });

  it('hears committed NOTIFYs on a channel it listens to, none of a rolled-back transaction, until stopped', async () => {
    const heard: string[] = [];
    const stop = await db.listen('peerex_thread_probe', (payload) => heard.push(payload));
    await db.query(`SELECT pg_notify('peerex_thread_probe', 'alone')`);
    await db.transaction(async (tx) => {
      await tx.query(`SELECT pg_notify('peerex_thread_probe', 'committed')`);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`SELECT pg_notify('peerex_thread_probe', 'rolled back')`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await db.query(`SELECT pg_notify('peerex_other_channel', 'elsewhere')`);
    await db.query(`SELECT pg_notify('peerex_thread_probe', 'last')`);
    await expect.poll(() => heard.at(-1)).toBe('last');
    expect(heard).toEqual(['alone', 'committed', 'last']);
    await stop();
    await db.query(`SELECT pg_notify('peerex_thread_probe', 'after the stop')`);
    const still: string[] = [];
    const stopStill = await db.listen('peerex_thread_probe', (payload) => still.push(payload));
    await db.query(`SELECT pg_notify('peerex_thread_probe', 'to the other')`);
    await expect.poll(() => still).toEqual(['to the other']);
    expect(heard).toEqual(['alone', 'committed', 'last']);
    await stopStill();
  });
});

describe("PGlite's thread ending", () => {
  /**
   * A stand-in for the thread, on a real port: it answers the open, and a close with its exit first, then its answer
   * (the order a busy machine can show, the exit and the port's message being delivered apart).
   */
  const exitBeforeCloseAnswer = () => {
    const { port1, port2 } = new MessageChannel();
    const worker = Object.assign(new EventEmitter(), { terminate: async () => 0 }) as unknown as Worker;
    port2.on('message', (request: { id: number; op: string }) => {
      if (request.op !== 'close') return;
      worker.emit('exit', 0);
      port2.postMessage({ kind: 'done', id: request.id, result: null });
      port2.close();
    });
    port2.postMessage({ kind: 'open', openMs: 1 });
    return { dataDir: MEMORY_DATA_DIR, worker, port: port1 };
  };

  it('closes without an error when the thread ends before its answer to the close is read', async () => {
    const db = await pgliteOnThread(exitBeforeCloseAnswer());
    await expect(db.close()).resolves.toBeUndefined();
    await expect(db.query('SELECT 1')).rejects.toThrow('closed');
  });
});

describe('PGlite on its own thread, on a data directory', () => {
  const dirs: string[] = [];
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'peerex-thread-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('keeps what it committed, holds the directory while open and frees it on close, twice is fine, then refuses', async () => {
    const dataDir = newDir();
    const db = await onThread(dataDir);
    await db.exec('CREATE TABLE kept (id int)');
    await db.query('INSERT INTO kept VALUES (1)');
    expect(readFileSync(join(dataDir, 'pgdata.lock'), 'utf8')).toBe(String(process.pid));
    await db.close();
    await db.close();
    expect(existsSync(join(dataDir, 'pgdata.lock'))).toBe(false);
    await expect(db.query('SELECT 1')).rejects.toThrow('closed');
    const again = await onThread(dataDir);
    try {
      expect(await again.query('SELECT id FROM kept')).toEqual([{ id: 1 }]);
    } finally {
      await again.close();
    }
  }, OPEN_TIMEOUT_MS);

  it('fails to open a directory a live process holds, and says so', async () => {
    const dataDir = newDir();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    try {
      writeFileSync(join(dataDir, 'pgdata.lock'), String(holder.pid));
      await expect(onThread(dataDir)).rejects.toThrow(`in use by process ${holder.pid}`);
    } finally {
      holder.kill('SIGKILL');
    }
  }, OPEN_TIMEOUT_MS);

  it("started by the start script, is taken by the database's opener on the same directory, once", async () => {
    const startEarly = (dataDir: string) => {
      const saved = { DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: process.env.DATA_DIR };
      delete process.env.DATABASE_URL;
      process.env.DATA_DIR = dataDir;
      try {
        startPgliteEarly(WORKER);
      } finally {
        for (const [key, value] of Object.entries(saved)) {
          if (value === undefined) delete process.env[key];
          else process.env[key] = value;
        }
      }
    };
    // The configuration names another directory than the thread's: not taken, and the thread closes, freeing its own.
    const elsewhere = newDir();
    startEarly(elsewhere);
    const inMemory = await openDatabase({ databaseUrl: undefined, dataDir: MEMORY_DATA_DIR });
    expect('pglite' in inMemory, 'opened in this thread').toBe(true);
    await inMemory.close();
    await expect.poll(() => existsSync(join(elsewhere, 'pgdata.lock')), { timeout: OPEN_TIMEOUT_MS }).toBe(false);
    expect(earlyPgliteTimes()?.openMs).toBeUndefined();

    const dataDir = newDir();
    startEarly(dataDir);
    const db = await openDatabase({ databaseUrl: undefined, dataDir });
    try {
      expect('pglite' in db, 'the thread').toBe(false);
      expect(earlyPgliteTimes()?.openMs).toBeGreaterThan(0);
      expect(await db.one('SELECT 1 AS one')).toEqual({ one: 1 });
      // Taken once: a second opener opens its own.
      const second = await openDatabase({ databaseUrl: undefined, dataDir: MEMORY_DATA_DIR });
      expect('pglite' in second).toBe(true);
      await second.close();
    } finally {
      await db.close();
    }
    expect(existsSync(join(dataDir, 'pgdata.lock'))).toBe(false);
  }, OPEN_TIMEOUT_MS);
});

describe("the server's build", () => {
  // Beside the server's build, where the packages left out of the bundle (PGlite) are found.
  const name = `test-pglite-thread-${process.pid}`;
  const start = join(DIST, `${name}.js`);
  const dataDir = mkdtempSync(join(tmpdir(), 'peerex-thread-build-'));
  beforeAll(() => buildServer(start, fileURLToPath(new URL('./fixtures/pglite-thread-fixture.ts', import.meta.url)), { pgliteThread: true }), 120_000);
  afterAll(() => {
    for (const file of ['.js', '.bundle.js', '.bundle.js.map', '.pglite-worker.js']) rmSync(join(DIST, `${name}${file}`), { force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('opens PGlite on its thread before it loads the bundle, and the database opener takes that thread', () => {
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), DATA_DIR: dataDir };
    const printed = JSON.parse(execFileSync(process.execPath, [start], { encoding: 'utf8', env })) as {
      row: unknown;
      inProcess: boolean;
      thread?: { startedAt: number; openMs?: number; waitedMs?: number };
    };
    expect(printed.row).toEqual({ price: '0.20000000000000000002' });
    expect(printed.inProcess).toBe(false);
    expect(printed.thread?.openMs).toBeGreaterThan(0);
    expect(existsSync(join(dataDir, 'pgdata', 'PG_VERSION'))).toBe(true);
    // Closed on the way out: the directory is free again.
    expect(existsSync(join(dataDir, 'pgdata.lock'))).toBe(false);
  }, OPEN_TIMEOUT_MS);
});
