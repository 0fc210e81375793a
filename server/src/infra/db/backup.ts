import { existsSync, fsyncSync, openSync, closeSync, renameSync, rmSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { migrate } from './migrate.ts';
import { lockDataDir, openPglite } from './pglite.ts';

/**
 * Backups of the embedded database (PGlite under DATA_DIR): a gzipped tarball of its data directory, as
 * PGlite's `dumpDataDir` writes it and its `loadDataDir` reads it back. PGlite's files belong to one process at
 * a time (pglite.ts `lockDataDir`), so both refuse while a server holds the data directory. On PostgreSQL,
 * pg_dump and pg_restore do this (`postgresCommands`).
 */

/** `2026-11-29T04-50-12Z`: sorts by time, and no colon for file systems that refuse one. */
export const backupStamp = (now: Date): string => now.toISOString().replace(/\.\d{3}Z$/, 'Z').replaceAll(':', '-');

/** Where a backup goes: `target` itself when it names a `.tar.gz` file, else a timestamped file in the `target` folder. */
export function backupFile(target: string, now: Date): string {
  return /\.(tar\.gz|tgz)$/.test(target) ? resolve(target) : resolve(target, `peerex-${backupStamp(now)}.tar.gz`);
}

/**
 * The files the server generates into DATA_DIR beside the database: a backup does not hold them
 * (docs/operators.md "Running it in production").
 */
export const GENERATED_FILES = ['app-secret.txt', 'wallet-mnemonic.txt', 'vapid-keys.json'] as const;

/** Makes a rename or a new file in `dir` survive a power cut (the file's own data is synced by its writer). */
function syncDirectory(dir: string) {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Whether the open database is Peerex's: migrated at least once (`schema_migrations` exists). */
async function isPeerexDatabase(db: Awaited<ReturnType<typeof openPglite>>): Promise<boolean> {
  return (await db.one<{ found: string | null }>(`SELECT to_regclass('schema_migrations')::text AS found`)).found !== null;
}

/** Writes the database under `dataDir` to `file` (a gzipped tarball); refuses while another process holds it. */
export async function backupPglite(dataDir: string, file: string): Promise<{ bytes: number }> {
  if (!existsSync(join(dataDir, 'pgdata', 'PG_VERSION'))) throw new Error(`There is no embedded database in ${dataDir} to back up.`);
  const db = await openPglite({ dataDir });
  try {
    if (!(await isPeerexDatabase(db))) throw new Error(`The database in ${dataDir} was never migrated: start the server once first.`);
    const dump = Buffer.from(await (await db.pglite.dumpDataDir('gzip')).arrayBuffer());
    await mkdir(dirname(file), { recursive: true });
    // Written beside the file, then renamed: an interrupted backup never leaves a truncated file under the real name.
    // Readable by its owner only: it holds password hashes, sessions and sealed two-factor secrets.
    const partial = `${file}.partial`;
    await writeFile(partial, dump, { flag: 'w', flush: true, mode: 0o600 });
    renameSync(partial, file);
    syncDirectory(dirname(file));
    return { bytes: dump.length };
  } finally {
    await db.close();
  }
}

export interface Restored {
  /** Where the database that was there is kept (undefined when `dataDir` held none). */
  keptAside?: string;
  /** Migrations the backup lacked, applied to it before it took the database's place. */
  migrated: string[];
}

/**
 * Puts the backup `file` in place of the database under `dataDir`. It is first unpacked beside it and opened
 * and migrated there; only a backup that passes takes `pgdata`'s place, and the database that was there is kept
 * as `pgdata.before-restore-<time>` rather than deleted. The data directory stays locked throughout, so no
 * server starts on it halfway; while a server holds it, this refuses and changes nothing.
 */
export async function restorePglite(dataDir: string, file: string, now: Date): Promise<Restored> {
  const backup = new Blob([await readFile(file)]);
  await mkdir(dataDir, { recursive: true });
  const unlock = lockDataDir(dataDir);
  const staging = join(dataDir, `restoring-${backupStamp(now)}`);
  try {
    let migrated: string[];
    const db = await openPglite({ dataDir: staging, boot: { snapshot: backup } }).catch((error: unknown) => {
      throw new Error(`${basename(file)} is not a backup this server can open: ${error instanceof Error ? error.message : String(error)}`);
    });
    try {
      if (!(await isPeerexDatabase(db))) throw new Error(`${basename(file)} holds no Peerex database (it was never migrated).`);
      migrated = await migrate(db);
    } finally {
      await db.close();
    }
    const current = join(dataDir, 'pgdata');
    let keptAside: string | undefined;
    if (existsSync(current)) {
      keptAside = join(dataDir, `pgdata.before-restore-${backupStamp(now)}`);
      renameSync(current, keptAside);
    }
    renameSync(join(staging, 'pgdata'), current);
    syncDirectory(dataDir);
    return { keptAside, migrated };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    unlock();
  }
}

/** What to run instead on PostgreSQL: `$DATABASE_URL` left for the shell, so no password is printed. */
export const postgresCommands = {
  backup: (file: string) => `pg_dump -Fc --file=${shellQuoted(file)} "$DATABASE_URL"`,
  restore: (file: string) => `pg_restore --clean --if-exists --no-owner --single-transaction --dbname="$DATABASE_URL" ${shellQuoted(file)}`,
};

const shellQuoted = (text: string): string => (/^[\w./=-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`);
