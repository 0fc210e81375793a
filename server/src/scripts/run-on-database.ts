import type { Db } from '../infra/db/db.ts';
import { openDatabase } from '../infra/db/open.ts';

/**
 * Runs a command-line script on the database the server would use (DATABASE_URL, or the PGlite files under
 * DATA_DIR, default ./.data), once the server has migrated it (`table` exists), and exits with the code the
 * script returns: 1 on a database never migrated or a failure, with a line naming the script.
 */
export function runOnDatabase(name: string, table: string, script: (db: Db) => Promise<number>) {
  const run = async (): Promise<number> => {
    const databaseUrl = process.env.DATABASE_URL || undefined;
    const dataDir = process.env.DATA_DIR || './.data';
    const db = await openDatabase({ databaseUrl, dataDir });
    try {
      const exists = await db.maybe<{ found: string | null }>(`SELECT to_regclass($1)::text AS found`, [table]);
      if (!exists?.found) {
        console.error(`${name}: no ${table} in ${databaseUrl ? 'DATABASE_URL' : dataDir}; start the server once to migrate it.`);
        return 1;
      }
      return await script(db);
    } finally {
      await db.close();
    }
  };
  run().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`${name}: failed:`, error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
