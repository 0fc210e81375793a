/**
 * `npm run ledger:check`: audits the ledger of the database the server would use (DATABASE_URL, or the
 * PGlite files under DATA_DIR, default ./.data) and exits 1 when it finds any drift, negative balance or
 * unbalanced entry, 0 when clean. It only reads and never migrates.
 *
 * PGlite keeps its files for one process at a time: stop the server before checking a PGlite DATA_DIR.
 */
import { openDatabase } from '../infra/db/open.ts';
import { checkLedger, formatLedgerReport } from '../ledger/check.ts';

async function main(): Promise<number> {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = process.env.DATA_DIR || './.data';
  const db = await openDatabase({ databaseUrl, dataDir });
  try {
    const exists = await db.maybe<{ found: string | null }>(`SELECT to_regclass('ledger_accounts')::text AS found`);
    if (!exists?.found) {
      console.error(`ledger: no ledger tables in ${databaseUrl ? 'DATABASE_URL' : dataDir}; start the server once to migrate it.`);
      return 1;
    }
    const report = await checkLedger(db);
    console.log(formatLedgerReport(report));
    return report.clean ? 0 : 1;
  } finally {
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('ledger: check failed:', error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
