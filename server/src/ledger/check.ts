import type { Db, Queryable } from '../db/db.ts';

/**
 * The ledger's audit (`npm run ledger:check`): every cached balance slot (ledger_balances, migration 009)
 * recomputed from its postings and compared, every entry checked to sum to zero per coin. The database refuses most of these
 * already (CHECK, the deferred trigger); this is what proves it after the fact, on any copy of the data,
 * and what the money tests run when they are done.
 */
export interface LedgerReport {
  accounts: number;
  entries: number;
  postings: number;
  /** Balance slots whose cached balance differs from the sum of their postings. */
  drift: { account: string; slot: number; cached: string; recomputed: string }[];
  /** Balance slots, other than the platform's deposits', whose balance (cached or recomputed) is below zero. */
  negative: { account: string; slot: number; balance: string }[];
  /** Entries whose postings do not sum to zero in some coin. */
  unbalanced: { reference: string; coinId: number; sum: string }[];
  /** Entries with fewer than two postings (a movement needs a source and a destination). */
  incomplete: { reference: string; postings: number }[];
  /** Postings with more places than their coin. */
  tooPrecise: { reference: string; account: string; amount: string }[];
  clean: boolean;
}

/**
 * Runs the audit in one REPEATABLE READ snapshot, so trades committing meanwhile on a live PostgreSQL
 * cannot show up as drift between one query and the next.
 */
export function checkLedger(db: Db): Promise<LedgerReport> {
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    return audit(tx);
  });
}

async function audit(db: Queryable): Promise<LedgerReport> {
  const [counts] = await db.query<{ accounts: string; entries: string; postings: string }>(
    `SELECT (SELECT count(*) FROM ledger_accounts) AS accounts, (SELECT count(*) FROM ledger_entries) AS entries,
            (SELECT count(*) FROM ledger_postings) AS postings`,
  );
  // Per slot: every slot of an account must match its own postings and stay >= 0 (a release takes from
  // the slot its open filled), which is stricter than the account's total doing so.
  const slots = `ledger_balances b
     JOIN ledger_accounts a ON a.id = b.account_id
     LEFT JOIN (SELECT account_id, slot, sum(amount) AS total FROM ledger_postings GROUP BY account_id, slot) s
       ON s.account_id = b.account_id AND s.slot = b.slot`;
  const drift = await db.query<{ account: string; slot: number; cached: string; recomputed: string }>(
    `SELECT a.key AS account, b.slot::integer AS slot, b.balance::text AS cached, coalesce(s.total, 0)::text AS recomputed
     FROM ${slots}
     WHERE b.balance <> coalesce(s.total, 0)
     ORDER BY b.account_id, b.slot`,
  );
  const negative = await db.query<{ account: string; slot: number; balance: string }>(
    `SELECT a.key AS account, b.slot::integer AS slot, least(b.balance, coalesce(s.total, 0))::text AS balance
     FROM ${slots}
     WHERE b.kind <> 'deposits' AND (b.balance < 0 OR coalesce(s.total, 0) < 0)
     ORDER BY b.account_id, b.slot`,
  );
  const unbalanced = await db.query<{ reference: string; coinId: number; sum: string }>(
    `SELECT e.reference, p.coin_id AS "coinId", sum(p.amount)::text AS sum
     FROM ledger_postings p JOIN ledger_entries e ON e.id = p.entry_id
     GROUP BY e.id, e.reference, p.coin_id HAVING sum(p.amount) <> 0
     ORDER BY e.id`,
  );
  const incomplete = await db.query<{ reference: string; postings: number }>(
    `SELECT e.reference, count(p.id)::integer AS postings
     FROM ledger_entries e LEFT JOIN ledger_postings p ON p.entry_id = e.id
     GROUP BY e.id, e.reference HAVING count(p.id) < 2
     ORDER BY e.id`,
  );
  const tooPrecise = await db.query<{ reference: string; account: string; amount: string }>(
    `SELECT e.reference, a.key AS account, p.amount::text AS amount
     FROM ledger_postings p
     JOIN ledger_entries e ON e.id = p.entry_id
     JOIN ledger_accounts a ON a.id = p.account_id
     JOIN coins c ON c.id = p.coin_id
     WHERE p.amount <> round(p.amount, c.decimal_places)
     ORDER BY p.id`,
  );
  return {
    accounts: Number(counts?.accounts ?? 0),
    entries: Number(counts?.entries ?? 0),
    postings: Number(counts?.postings ?? 0),
    drift,
    negative,
    unbalanced,
    incomplete,
    tooPrecise,
    clean: drift.length + negative.length + unbalanced.length + incomplete.length + tooPrecise.length === 0,
  };
}

/** The report as a few lines for a terminal: the counts, then every problem found. */
export function formatLedgerReport(report: LedgerReport): string {
  const lines = [
    `ledger: ${report.accounts} accounts, ${report.entries} entries, ${report.postings} postings`,
  ];
  for (const d of report.drift) lines.push(`  drift: ${d.account} slot ${d.slot} caches ${d.cached}, its postings sum to ${d.recomputed}`);
  for (const n of report.negative) lines.push(`  negative: ${n.account} slot ${n.slot} at ${n.balance}`);
  for (const u of report.unbalanced) lines.push(`  unbalanced: ${u.reference} sums to ${u.sum} in coin ${u.coinId}`);
  for (const i of report.incomplete) lines.push(`  incomplete: ${i.reference} has ${i.postings} posting(s)`);
  for (const t of report.tooPrecise) lines.push(`  too precise: ${t.reference} posts ${t.amount} to ${t.account}`);
  lines.push(report.clean ? 'clean' : 'PROBLEMS FOUND');
  return lines.join('\n');
}
