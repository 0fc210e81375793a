/**
 * `npm run db:restore -- <file.tar.gz>`: puts a backup from `npm run db:backup` in place of the embedded database
 * (PGlite under DATA_DIR, default ./.data). It refuses while a server holds the data directory; the backup is
 * opened and migrated before it takes the database's place, and the database that was there is kept beside it
 * (`pgdata.before-restore-<time>`), never deleted. With DATABASE_URL it prints the pg_restore command to run
 * instead and exits 1, having restored nothing.
 */
import { existsSync } from 'node:fs';
import { postgresCommands, restorePglite } from '../infra/db/backup.ts';

const [file, ...extra] = process.argv.slice(2);
if (!file || extra.length > 0) {
  console.error('usage: npm run db:restore -- <backup.tar.gz>');
  process.exit(1);
}

if (process.env.DATABASE_URL) {
  console.error(
    `db:restore restores the embedded database; this server uses PostgreSQL (DATABASE_URL). Stop the servers, then restore a pg_dump -Fc file with pg_restore:\n\n  ${postgresCommands.restore(file)}\n`,
  );
  process.exit(1);
}
if (!existsSync(file)) {
  console.error(`db:restore: there is no file ${file}.`);
  process.exit(1);
}

const dataDir = process.env.DATA_DIR || './.data';
restorePglite(dataDir, file, new Date()).then(
  ({ keptAside, migrated }) => {
    console.log(`Restored ${file} into ${dataDir}.${migrated.length > 0 ? ` Migrated it: ${migrated.join(', ')}.` : ''}`);
    if (keptAside) console.log(`The database that was there is kept in ${keptAside}; delete it once the restored one is right.`);
    process.exit(0);
  },
  (error: unknown) => {
    console.error(`db:restore: ${(error instanceof Error ? error.message : String(error)).replace(/\.?$/, '.')} Nothing was changed.`);
    process.exit(1);
  },
);
