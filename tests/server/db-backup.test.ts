import { execFile } from 'node:child_process';
import { existsSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/src/infra/db/open.ts';
import { createTestApp } from '../support/server.ts';

/**
 * `npm run db:backup` and `db:restore`, the commands, on the embedded database: a seeded DATA_DIR backed up, then
 * changed, then restored. Each step is a process of its own, as an operator runs them, with the server stopped
 * (PGlite keeps its files for one process at a time), except where the test holds the data directory on purpose.
 */
const run = promisify(execFile);

interface Ran {
  code: number;
  out: string;
}

const npm = (script: string, args: string[], env: Record<string, string>): Promise<Ran> =>
  run('npm', ['run', '--silent', script, '--', ...args], { env: { ...process.env, DATABASE_URL: '', ...env } }).then(
    (finished) => ({ code: 0, out: finished.stdout + finished.stderr }),
    (failed: { code: number; stdout: string; stderr: string }) => ({ code: failed.code, out: failed.stdout + failed.stderr }),
  );

const openAt = (dataDir: string) => openDatabase({ databaseUrl: undefined, dataDir });

async function aliceEmail(dataDir: string): Promise<string | undefined> {
  const db = await openAt(dataDir);
  try {
    return (await db.maybe<{ email: string }>(`SELECT email FROM users WHERE username = 'alice'`))?.email;
  } finally {
    await db.close();
  }
}

describe('npm run db:backup and db:restore on the embedded database', () => {
  let dataDir: string;
  let backups: string;
  let backup: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'peerex-backup-data-'));
    backups = await mkdtemp(join(tmpdir(), 'peerex-backups-'));
    // The demo data, seeded into the files under DATA_DIR; then the app is gone, as a stopped server is.
    const t = await createTestApp('pglite', { env: { DATA_DIR: dataDir, SEED_DEMO: 'true' } });
    await t.close();
  }, 120_000);

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
    await rm(backups, { recursive: true, force: true });
  });

  it('backs up into a timestamped file readable by its owner only, and names the secrets it does not hold', async () => {
    writeFileSync(join(dataDir, 'app-secret.txt'), 'a secret of this data directory');
    const made = await npm('db:backup', [backups], { DATA_DIR: dataDir });
    expect(made.code, made.out).toBe(0);
    const files = readdirSync(backups);
    expect(files).toEqual([expect.stringMatching(/^peerex-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.tar\.gz$/)]);
    backup = join(backups, files[0]!);
    expect(made.out).toContain(`to ${backup}`);
    expect(statSync(backup).mode & 0o777).toBe(0o600);
    expect(made.out).toContain(`Keep a copy of ${join(dataDir, 'app-secret.txt')}`);
  }, 60_000);

  it('refuses to restore while another process holds the data directory, and changes nothing', async () => {
    const server = await openAt(dataDir);
    try {
      await server.exec(`UPDATE users SET email = 'changed@peerex.test' WHERE username = 'alice'`);
      const refused = await npm('db:restore', [backup], { DATA_DIR: dataDir });
      expect(refused.code).toBe(1);
      expect(refused.out).toContain(`is in use by process ${process.pid}`);
      expect(refused.out).toContain('Nothing was changed.');
    } finally {
      await server.close();
    }
    expect(await aliceEmail(dataDir)).toBe('changed@peerex.test');
  }, 60_000);

  it('restores: the change made after the backup is gone, the demo data is back, the replaced database is kept aside', async () => {
    const restored = await npm('db:restore', [backup], { DATA_DIR: dataDir });
    expect(restored.code, restored.out).toBe(0);
    expect(await aliceEmail(dataDir)).toBe('alice@peerex.test');

    const db = await openAt(dataDir);
    try {
      const traders = await db.query<{ username: string }>(`SELECT username FROM users WHERE username IN ('alice', 'bob', 'carol', 'mod', 'ops') ORDER BY username`);
      expect(traders.map((row) => row.username)).toEqual(['alice', 'bob', 'carol', 'mod', 'ops']);
      expect((await db.one<{ n: number }>(`SELECT count(*)::int AS n FROM offers`)).n).toBeGreaterThan(0);
    } finally {
      await db.close();
    }

    const aside = readdirSync(dataDir).filter((name) => name.startsWith('pgdata.before-restore-'));
    expect(aside).toHaveLength(1);
    expect(restored.out).toContain(join(dataDir, aside[0]!));
    // The replaced database, with the change, is whole: it opens where it was put.
    const keptDir = await mkdtemp(join(tmpdir(), 'peerex-kept-'));
    try {
      renameSync(join(dataDir, aside[0]!), join(keptDir, 'pgdata'));
      expect(await aliceEmail(keptDir)).toBe('changed@peerex.test');
    } finally {
      await rm(keptDir, { recursive: true, force: true });
    }
    // Nothing half-made left behind.
    expect(readdirSync(dataDir).filter((name) => name.startsWith('restoring-'))).toEqual([]);
  }, 90_000);

  it('refuses a file that is not a backup, and keeps the database as it was', async () => {
    const junk = join(backups, 'junk.tar.gz');
    writeFileSync(junk, 'not a tarball');
    const refused = await npm('db:restore', [junk], { DATA_DIR: dataDir });
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('junk.tar.gz is not a backup this server can open');
    expect(await aliceEmail(dataDir)).toBe('alice@peerex.test');
    expect(readdirSync(dataDir).filter((name) => name.startsWith('restoring-') || name.startsWith('pgdata.before-restore-'))).toEqual([]);
    expect(existsSync(join(dataDir, 'pgdata.lock'))).toBe(false);
  }, 60_000);

  it('on PostgreSQL, does nothing and prints the pg_dump and pg_restore commands', async () => {
    const env = { DATABASE_URL: 'postgres://peerex:secret@db.internal:5432/peerex', DATA_DIR: dataDir };
    const dump = await npm('db:backup', [backups], env);
    expect(dump.code).toBe(1);
    expect(dump.out).toMatch(new RegExp(`pg_dump -Fc --file=${backups}/peerex-[\\dTZ-]+\\.dump "\\$DATABASE_URL"`));
    const restore = await npm('db:restore', ['peerex.dump'], env);
    expect(restore.code).toBe(1);
    expect(restore.out).toContain('pg_restore --clean --if-exists --no-owner --single-transaction --dbname="$DATABASE_URL" peerex.dump');
    // The password stays in the environment, never on the screen.
    expect(dump.out + restore.out).not.toContain('secret');
    expect(readdirSync(backups).filter((name) => name.endsWith('.dump'))).toEqual([]);
  }, 60_000);
});
