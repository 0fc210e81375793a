import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from '../root.ts';
import type { Db } from './db.ts';

export const MIGRATIONS_DIR = join(ROOT, 'server', 'migrations');

/** `NNN_name.sql`: the number orders them, the name is for people. */
const MIGRATION_FILE = /^(\d{3})_[a-z0-9_]+\.sql$/;

/** Arbitrary, but every process must use the same key and nothing else may lock it for another purpose. */
export const MIGRATION_LOCK_KEY = 7_265_015_001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The migrations' numbers and file names, in order, without reading the files (a start's check needs no more). */
export async function listMigrations(dir = MIGRATIONS_DIR): Promise<Omit<Migration, 'sql'>[]> {
  const files = (await readdir(dir)).filter((file) => file.endsWith('.sql')).sort();
  const migrations: Omit<Migration, 'sql'>[] = [];
  for (const file of files) {
    const match = MIGRATION_FILE.exec(file);
    if (!match?.[1]) throw new Error(`Migration file name must look like 001_name.sql: ${file}`);
    const version = Number(match[1]);
    if (migrations.some((m) => m.version === version)) throw new Error(`Two migrations share number ${match[1]}`);
    migrations.push({ version, name: file });
  }
  return migrations;
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  return Promise.all((await listMigrations(dir)).map(async (migration) => ({ ...migration, sql: await readFile(join(dir, migration.name), 'utf8') })));
}

/**
 * Applies the pending migrations in order, all in one transaction, and records each in
 * `schema_migrations`. The transaction first takes an advisory lock, so when several server processes
 * boot at once the first migrates and the others wait, then find nothing left to do.
 * Returns the names of the migrations it applied.
 */
export async function migrate(db: Db, migrations?: Migration[]): Promise<string[]> {
  const all = migrations ?? (await readMigrations());
  return db.transaction(async (tx) => {
    // The transaction-scoped form of pg_advisory_lock: released by COMMIT/ROLLBACK, so a crash can't leave it held.
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set(
      (await tx.query<{ version: number }>('SELECT version FROM schema_migrations')).map((row) => row.version),
    );
    const applied: string[] = [];
    for (const migration of all) {
      if (done.has(migration.version)) continue;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.name);
    }
    return applied;
  });
}
