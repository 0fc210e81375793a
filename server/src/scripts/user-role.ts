/**
 * `npm run user:role -- <username> <role>`: grants (`moderator`) or takes back (`trader`) a role on the database
 * the server would use (DATABASE_URL, or the PGlite files under DATA_DIR, default ./.data). No API call can
 * change a role. Prints what it did; an unknown user or role exits 1.
 *
 * PGlite keeps its files for one process at a time: stop the server before changing a PGlite DATA_DIR.
 */
import { setUserRole } from '../accounts/roles.ts';
import { openDatabase } from '../infra/db/open.ts';

const USAGE = 'usage: npm run user:role -- <username> <moderator|trader>';

async function main(args: string[]): Promise<number> {
  const [username, role, ...extra] = args;
  if (!username || !role || extra.length > 0) {
    console.error(USAGE);
    return 1;
  }
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = process.env.DATA_DIR || './.data';
  const db = await openDatabase({ databaseUrl, dataDir });
  try {
    const exists = await db.maybe<{ found: string | null }>(`SELECT to_regclass('users')::text AS found`);
    if (!exists?.found) {
      console.error(`user:role: no users in ${databaseUrl ? 'DATABASE_URL' : dataDir}; start the server once to migrate it.`);
      return 1;
    }
    const change = await setUserRole(db, username, role);
    (change.ok ? console.log : console.error)(change.sentence);
    return change.ok ? 0 : 1;
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('user:role: failed:', error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
