import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREPARED, uniqueViolation, type Db, type Queryable } from '../../server/src/infra/db/db.ts';
import { prepareDatabase } from '../../server/src/infra/db/db.plugin.ts';
import { listMigrations, migrate, readMigrations } from '../../server/src/infra/db/migrate.ts';
import { openPostgres } from '../../server/src/infra/db/postgres.ts';
import { createScratchDatabase, createTestApp, dbTargets, type TestApp } from '../support/server.ts';

describe.each(dbTargets)('the database layer on %s', (target) => {
  let t: TestApp;
  let db: Db;
  beforeAll(async () => {
    t = await createTestApp(target);
    db = t.app.db;
  });
  afterAll(() => t.close());

  it('has applied every migration, in order, and records them', async () => {
    const files = await readMigrations();
    // Each capability adds its own migrations; these are the ones this layer's tests rely on.
    expect(files.map((file) => file.name)).toEqual(expect.arrayContaining(['001_accounts.sql', '002_reference_data.sql', '003_offers.sql']));
    expect(files.map((file) => file.version)).toEqual([...files.map((file) => file.version)].sort((a, b) => a - b));
    const rows = await db.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version');
    expect(rows).toEqual(files.map((file) => ({ version: file.version, name: file.name })));
  });

  it('applies nothing on a second run', async () => {
    expect(await migrate(db)).toEqual([]);
  });

  it("lists the migrations' numbers and names as readMigrations reads them", async () => {
    expect(await listMigrations()).toEqual((await readMigrations()).map(({ version, name }) => ({ version, name })));
  });

  it('applies a new migration at the next start, past the one read that finds the others applied', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'peerex-migrations-'));
    try {
      for (const migration of await readMigrations()) writeFileSync(join(dir, migration.name), migration.sql);
      writeFileSync(join(dir, '900_prepare_probe.sql'), 'CREATE TABLE prepare_probe (id int);');
      expect(await prepareDatabase(db, { migrationsDir: dir })).toEqual({ applied: ['900_prepare_probe.sql'], filled: [], seeded: false });
      expect(await prepareDatabase(db, { migrationsDir: dir })).toEqual({ applied: [], filled: [], seeded: false });
    } finally {
      await db.exec('DROP TABLE IF EXISTS prepare_probe; DELETE FROM schema_migrations WHERE version = 900;');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rolls a failing migration back whole, recording nothing', async () => {
    const broken = [
      ...(await readMigrations()),
      { version: 900, name: '900_broken.sql', sql: 'CREATE TABLE half_done (id int); SELECT no_such_function();' },
    ];
    await expect(migrate(db, broken)).rejects.toThrow();
    expect(await db.maybe("SELECT 1 FROM schema_migrations WHERE version = 900")).toBeUndefined();
    expect(await db.maybe("SELECT to_regclass('half_done') AS t").then((row) => row?.t)).toBeNull();
  });

  it('returns NUMERIC and INT8 as exact strings and timestamptz as Date, like the other driver', async () => {
    const row = await db.one<{ price: unknown; big: unknown; count: unknown; small: unknown; at: unknown }>(
      `SELECT 97000.123456789012345678::numeric AS price, 9007199254740993::int8 AS big,
              count(*) AS count, 7::int AS small, $1::timestamptz AS at FROM (SELECT 1) x`,
      [new Date('2026-11-21T10:00:00.000Z')],
    );
    expect(row).toEqual({
      price: '97000.123456789012345678',
      big: '9007199254740993',
      count: '1',
      small: 7,
      at: new Date('2026-11-21T10:00:00.000Z'),
    });
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    await db.exec('CREATE TABLE tx_probe (id int PRIMARY KEY)');
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO tx_probe VALUES (1)');
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO tx_probe VALUES (2)');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await db.query('SELECT id FROM tx_probe ORDER BY id')).toEqual([{ id: 1 }]);
  });

  it("runs a transaction's statements issued together in order, and none of them once one was refused", async () => {
    await db.exec('CREATE TABLE pipeline_probe (id int PRIMARY KEY)');
    const counted = await db.transaction(async (tx) => {
      const [, , rows] = await Promise.all([
        tx.query('INSERT INTO pipeline_probe VALUES (1)'),
        tx.query('INSERT INTO pipeline_probe VALUES ($1)', [2], PREPARED),
        tx.query<{ n: number }>('SELECT count(*)::int AS n FROM pipeline_probe'),
      ]);
      return rows[0]?.n;
    });
    expect(counted).toBe(2);
    // The first refused, the second written behind it: the transaction keeps neither.
    await expect(
      db.transaction((tx) => Promise.all([tx.query('INSERT INTO pipeline_probe VALUES (1)'), tx.query('INSERT INTO pipeline_probe VALUES (3)')])),
    ).rejects.toThrow(/duplicate key/);
    expect(await db.query('SELECT id FROM pipeline_probe ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('hears committed NOTIFYs on a channel it listens to, its own included, and none of a rolled-back transaction', async () => {
    const heard: string[] = [];
    const stop = await db.listen('peerex_listen_probe', (payload) => heard.push(payload));
    await db.query(`SELECT pg_notify('peerex_listen_probe', 'alone')`);
    await db.transaction(async (tx) => {
      await tx.query(`SELECT pg_notify('peerex_listen_probe', 'committed')`);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`SELECT pg_notify('peerex_listen_probe', 'rolled back')`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await db.query(`SELECT pg_notify('peerex_other_channel', 'elsewhere')`);
    await db.query(`SELECT pg_notify('peerex_listen_probe', 'last')`);
    await expect.poll(() => heard.at(-1)).toBe('last');
    expect(heard).toEqual(['alone', 'committed', 'last']);
    await stop();
    // Another listener hears what the stopped one no longer does.
    const still: string[] = [];
    const stopStill = await db.listen('peerex_listen_probe', (payload) => still.push(payload));
    await db.query(`SELECT pg_notify('peerex_listen_probe', 'after the stop')`);
    await expect.poll(() => still).toEqual(['after the stop']);
    expect(heard).toEqual(['alone', 'committed', 'last']);
    await stopStill();
  });

  it('names the index a unique violation tripped on, on both drivers', async () => {
    const insert = (username: string, email: string) =>
      db.query(
        `INSERT INTO users (username, email, password_hash, created_at) VALUES ($1, $2, '$argon2id$x', now())`,
        [username, email],
      );
    await insert('Unique_One', 'unique-one@example.test');
    const caught = await insert('unique_one', 'unique-two@example.test').catch((error: unknown) => error);
    expect(uniqueViolation(caught)).toBe('users_username_key');
    const byEmail = await insert('unique_two', 'unique-one@example.test').catch((error: unknown) => error);
    expect(uniqueViolation(byEmail)).toBe('users_email_key');
    expect(uniqueViolation(new Error('other'))).toBeUndefined();
  });

  it('enforces the account rules in the schema too', async () => {
    const bad = [
      ['ab', 'short@example.test', '$argon2id$x'],
      ['has space', 'space@example.test', '$argon2id$x'],
      ['upper_mail', 'Upper@example.test', '$argon2id$x'],
      ['plain_pass', 'plain@example.test', 'secret123'],
    ];
    for (const [username, email, hash] of bad) {
      await expect(
        db.query('INSERT INTO users (username, email, password_hash, created_at) VALUES ($1, $2, $3, now())', [
          username ?? '',
          email ?? '',
          hash ?? '',
        ]),
        `${username}`,
      ).rejects.toThrow();
    }
  });
});

const postgresOnly = dbTargets.filter((target) => target === 'postgres');

describe.each(postgresOnly)('migrations with several processes booting at once on %s', () => {
  it('migrates once while the others wait on the advisory lock', async () => {
    const scratch = await createScratchDatabase();
    const pools = await Promise.all([1, 2, 3, 4].map(() => openPostgres({ url: scratch.url, poolSize: 2 })));
    try {
      const applied = await Promise.all(pools.map((pool) => migrate(pool)));
      const files = await readMigrations();
      expect(applied.flat().sort()).toEqual(files.map((file) => file.name));
      expect(applied.filter((list) => list.length > 0)).toHaveLength(1);
      const [first] = pools;
      expect(await first?.query('SELECT version FROM schema_migrations ORDER BY version')).toEqual(
        files.map((file) => ({ version: file.version })),
      );
    } finally {
      await Promise.all(pools.map((pool) => pool.close()));
      await scratch.drop();
    }
  });
});

describe.each(postgresOnly)("prepared statements' plans on %s", () => {
  // One connection, so that every statement below meets the setting the one before left.
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let db: Db;
  const PLAN_MODE = 'SELECT current_setting($1) AS mode, pg_backend_pid() AS pid';
  const modeOf = async (on: Queryable, prepared: boolean) =>
    (await on.one<{ mode: string; pid: number }>(PLAN_MODE, ['plan_cache_mode'], prepared ? PREPARED : undefined)).mode;
  beforeAll(async () => {
    scratch = await createScratchDatabase();
    db = await openPostgres({ url: scratch.url, poolSize: 1 });
  });
  afterAll(async () => {
    await db.close();
    await scratch.drop();
  });

  it('runs a prepared statement on its generic plan and any other planned for its values, on one connection', async () => {
    expect(await modeOf(db, true)).toBe('force_generic_plan');
    expect(await modeOf(db, false)).toBe('auto');
    expect(await modeOf(db, true)).toBe('force_generic_plan');
    expect(await modeOf(db, true)).toBe('force_generic_plan');
    expect(await modeOf(db, false)).toBe('auto');
  });

  it("knows the setting a rolled-back transaction put back, and keeps a connection whose statement was refused", async () => {
    expect(await modeOf(db, false)).toBe('auto');
    // Set inside the transaction, undone by its rollback.
    await expect(
      db.transaction(async (tx) => {
        expect(await modeOf(tx, true)).toBe('force_generic_plan');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await modeOf(db, true)).toBe('force_generic_plan');
    // Reset inside the transaction, undone by its rollback: generic again after it.
    await expect(
      db.transaction(async (tx) => {
        expect(await modeOf(tx, false)).toBe('auto');
        await tx.query('SELECT no_such_column FROM pg_class');
      }),
    ).rejects.toThrow();
    expect(await modeOf(db, true)).toBe('force_generic_plan');
    expect(await modeOf(db, false)).toBe('auto');

    const { pid } = await db.one<{ pid: number }>(PLAN_MODE, ['plan_cache_mode']);
    await expect(db.query('SELECT 1 / 0')).rejects.toThrow('division by zero');
    expect((await db.one<{ pid: number }>(PLAN_MODE, ['plan_cache_mode'])).pid).toBe(pid);
  });
});

describe.each(postgresOnly)('a LISTEN connection that is lost, on %s', () => {
  it('is opened again, and says when it was lost so that the listener catches up', async () => {
    const scratch = await createScratchDatabase();
    const db = await openPostgres({ url: scratch.url, poolSize: 2 });
    try {
      const heard: string[] = [];
      const resumed: Date[] = [];
      const errors: Error[] = [];
      await db.listen('peerex_listen_probe', (payload) => heard.push(payload), { onResume: (lostAt) => void resumed.push(lostAt), onError: (error) => void errors.push(error) });
      const before = new Date();
      const listening = `SELECT pid FROM pg_stat_activity WHERE application_name = 'peerex-listen' AND datname = current_database()`;
      expect(await db.query(`SELECT pg_terminate_backend(pid) FROM (${listening}) l`)).toHaveLength(1);
      await expect.poll(async () => (await db.query(listening)).length, { interval: 5 }).toBe(0);
      await db.query(`SELECT pg_notify('peerex_listen_probe', 'while away')`);
      await expect.poll(() => resumed.length, { timeout: 10_000 }).toBe(1);
      expect(resumed[0]!.getTime()).toBeGreaterThanOrEqual(before.getTime());
      expect(errors.length).toBeGreaterThan(0);
      await db.query(`SELECT pg_notify('peerex_listen_probe', 'back')`);
      await expect.poll(() => heard).toEqual(['back']);
    } finally {
      await db.close();
      await scratch.drop();
    }
  });
});

describe('an embedded database directory', () => {
  it('belongs to one process at a time: refused while a live process holds it, taken over from a dead one, freed on close', async () => {
    const { mkdtempSync, readFileSync, writeFileSync, existsSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { spawn } = await import('node:child_process');
    const { openPglite } = await import('../../server/src/infra/db/pglite.ts');
    const dataDir = mkdtempSync(join(tmpdir(), 'peerex-lock-'));
    const lockFile = join(dataDir, 'pgdata.lock');
    // Another live process (as a running server would be) holds the directory.
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    try {
      writeFileSync(lockFile, String(holder.pid));
      await expect(openPglite({ dataDir })).rejects.toThrow(`in use by process ${holder.pid}`);
      expect(readFileSync(lockFile, 'utf8')).toBe(String(holder.pid));
    } finally {
      holder.kill('SIGKILL');
      await new Promise((resolve) => (holder.exitCode !== null || holder.signalCode !== null ? resolve(null) : holder.once('exit', resolve)));
    }
    // Its holder died without closing: the next opener takes the directory over.
    const db = await openPglite({ dataDir });
    try {
      expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
      expect(await db.one<{ one: number }>('SELECT 1 AS one')).toEqual({ one: 1 });
    } finally {
      await db.close();
    }
    expect(existsSync(lockFile)).toBe(false);
    rmSync(dataDir, { recursive: true, force: true });
  });
});
