/**
 * `npm run user:role -- <username> <role>`: grants (`moderator`, `operator`) or takes back (`trader`) a role on the database
 * the server would use (DATABASE_URL, or the PGlite files under DATA_DIR, default ./.data). No API call can
 * change a role. Prints what it did; an unknown user or role exits 1.
 *
 * PGlite keeps its files for one process at a time: stop the server before changing a PGlite DATA_DIR.
 */
import { setUserRole } from '../accounts/roles.ts';
import { runOnDatabase } from './run-on-database.ts';

const USAGE = 'usage: npm run user:role -- <username> <moderator|operator|trader>';

const [username, role, ...extra] = process.argv.slice(2);
if (!username || !role || extra.length > 0) {
  console.error(USAGE);
  process.exit(1);
}
runOnDatabase('user:role', 'users', async (db) => {
  const change = await setUserRole(db, username, role);
  (change.ok ? console.log : console.error)(change.sentence);
  return change.ok ? 0 : 1;
});
