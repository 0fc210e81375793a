/**
 * `npm run db:backup [-- <folder or file.tar.gz>]`: writes the embedded database (PGlite under DATA_DIR, default
 * ./.data) to a gzipped tarball, `backups/peerex-<time>.tar.gz` unless told where. PGlite keeps its files for one
 * process at a time: stop the server first (it refuses otherwise). With DATABASE_URL it prints the pg_dump
 * command to run instead and exits 1, having backed up nothing. `npm run db:restore` reads the file back.
 */
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { backupFile, backupPglite, GENERATED_FILES, postgresCommands } from '../infra/db/backup.ts';

const [target = 'backups', ...extra] = process.argv.slice(2);
if (extra.length > 0) {
  console.error('usage: npm run db:backup [-- <folder or file.tar.gz>]');
  process.exit(1);
}
const file = backupFile(target, new Date());
const shown = relative(process.cwd(), file).startsWith('..') ? file : relative(process.cwd(), file);

if (process.env.DATABASE_URL) {
  console.error(`db:backup backs up the embedded database; this server uses PostgreSQL (DATABASE_URL). Back it up with pg_dump:\n\n  ${postgresCommands.backup(shown.replace(/\.tar\.gz$|\.tgz$/, '.dump'))}\n`);
  process.exit(1);
}

const dataDir = process.env.DATA_DIR || './.data';
backupPglite(dataDir, file).then(
  ({ bytes }) => {
    console.log(`Backed up the database in ${dataDir} to ${shown} (${(bytes / 1024 / 1024).toFixed(1)} MB).`);
    const beside = GENERATED_FILES.filter((name) => existsSync(join(dataDir, name)));
    if (beside.length > 0) {
      console.log(
        `It holds the database only. Keep a copy of ${beside.map((name) => join(dataDir, name)).join(', ')} too, made once and never changed: ` +
          'without them two-factor set-ups stop working and the server refuses the wallets it handed out addresses for.',
      );
    }
    process.exit(0);
  },
  (error: unknown) => {
    console.error(`db:backup: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
