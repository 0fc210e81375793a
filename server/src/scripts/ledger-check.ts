/**
 * `npm run ledger:check`: audits the ledger of the database the server would use (DATABASE_URL, or the
 * PGlite files under DATA_DIR, default ./.data) and exits 1 when it finds any drift, negative balance or
 * unbalanced entry, 0 when clean. It only reads and never migrates.
 *
 * PGlite keeps its files for one process at a time: stop the server before checking a PGlite DATA_DIR.
 */
import { checkLedger, formatLedgerReport } from '../ledger/check.ts';
import { runOnDatabase } from './run-on-database.ts';

runOnDatabase('ledger', 'ledger_accounts', async (db) => {
  const report = await checkLedger(db);
  console.log(formatLedgerReport(report));
  return report.clean ? 0 : 1;
});
