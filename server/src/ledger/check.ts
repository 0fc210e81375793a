import type { Db, Queryable } from '../infra/db/db.ts';

/**
 * The ledger's audit (`npm run ledger:check`): every cached balance slot (ledger_balances, migration 009)
 * recomputed from its postings and compared, every entry checked to sum to zero per coin. The database refuses most of these
 * already (CHECK, the deferred trigger); this is what proves it after the fact, on any copy of the data,
 * and what the money tests run when they are done. Its wallets section holds the wallets' history
 * (wallet_transactions, migration 015) against the ledger: what a trader reads there is what moved.
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
  wallets: WalletsReport;
  clean: boolean;
}

/**
 * The wallets against the ledger (migration 015's references): a deposit is credited (its credit_reference
 * posts its amount to the owner's available) exactly when it is completed; each user's `withdrawing` balance
 * of a coin is the sum of their pending external withdrawals (those waiting for review included); an external withdrawal has its `:hold`, and its
 * `:sent` exactly when completed or its `:refund` exactly when cancelled (each moving its amount in or out of
 * `withdrawing`); an internal one has its `transfer:<id>` taking its amount from the sender's available.
 */
export interface WalletsReport {
  deposits: { id: string; status: string; reference: string; problem: string }[];
  withdrawing: { userId: string; coinId: number; balance: string; pending: string }[];
  withdrawals: { id: string; scope: string; status: string; reference: string; problem: string }[];
}

const NO_WALLET_PROBLEMS: WalletsReport = { deposits: [], withdrawing: [], withdrawals: [] };
const walletProblems = (wallets: WalletsReport) => wallets.deposits.length + wallets.withdrawing.length + wallets.withdrawals.length;

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
  const wallets = await auditWallets(db);
  return {
    accounts: Number(counts?.accounts ?? 0),
    entries: Number(counts?.entries ?? 0),
    postings: Number(counts?.postings ?? 0),
    drift,
    negative,
    unbalanced,
    incomplete,
    tooPrecise,
    wallets,
    clean: drift.length + negative.length + unbalanced.length + incomplete.length + tooPrecise.length + walletProblems(wallets) === 0,
  };
}

/** What an entry posted to one user's account of a kind, in the coin of the wallet row `w` (null: nothing). */
const postedTo = (entry: string, kind: string) =>
  `(SELECT sum(p.amount) FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id
    WHERE p.entry_id = ${entry} AND a.user_id = w.user_id AND a.coin_id = w.coin_id AND a.kind = ${kind})`;

async function auditWallets(db: Queryable): Promise<WalletsReport> {
  // A database migrated before the wallets (the command never migrates) has nothing to hold against them.
  const tables = await db.one<{ found: string | null }>(`SELECT to_regclass('wallet_transactions')::text AS found`);
  if (!tables.found) return NO_WALLET_PROBLEMS;

  const deposits = await db.query<{ id: string; status: string; reference: string; amount: string; posted: boolean; credited: string | null }>(
    `SELECT w.id::text AS id, w.status, w.credit_reference AS reference, w.amount_crypto::text AS amount,
            e.id IS NOT NULL AS posted, ${postedTo('e.id', `'available'`)}::text AS credited
     FROM wallet_transactions w LEFT JOIN ledger_entries e ON e.reference = w.credit_reference
     WHERE w.trans_type = 'deposit'
       AND CASE WHEN w.status = 'completed' THEN ${postedTo('e.id', `'available'`)} IS DISTINCT FROM w.amount_crypto ELSE e.id IS NOT NULL END
     ORDER BY w.id`,
  );
  const withdrawing = await db.query<{ userId: string; coinId: number; balance: string; pending: string }>(
    `WITH held AS (
       SELECT a.user_id, a.coin_id, sum(p.amount) AS balance
       FROM ledger_accounts a JOIN ledger_postings p ON p.account_id = a.id
       WHERE a.kind = 'withdrawing' GROUP BY a.user_id, a.coin_id
     ), in_flight AS (
       SELECT user_id, coin_id, sum(amount_crypto) AS total
       FROM wallet_transactions WHERE trans_type = 'withdrawal' AND scope = 'external' AND status IN ('pending', 'review')
       GROUP BY user_id, coin_id
     )
     SELECT coalesce(h.user_id, f.user_id)::text AS "userId", coalesce(h.coin_id, f.coin_id) AS "coinId",
            coalesce(h.balance, 0)::text AS balance, coalesce(f.total, 0)::text AS pending
     FROM held h FULL JOIN in_flight f ON f.user_id = h.user_id AND f.coin_id = h.coin_id
     WHERE coalesce(h.balance, 0) <> coalesce(f.total, 0)
     ORDER BY 1, 2`,
  );
  // Every entry a withdrawal may have, whether its scope and status call for it, and what it should move.
  const withdrawals = await db.query<{ id: string; scope: string; status: string; reference: string; expected: boolean; posted: boolean; moved: string | null; amount: string }>(
    `SELECT w.id::text AS id, w.scope, w.status, x.reference, x.expected, e.id IS NOT NULL AS posted, m.moved::text AS moved,
            x.amount::text AS amount
     FROM wallet_transactions w
     CROSS JOIN LATERAL (VALUES
       ('withdrawal:' || w.id || ':hold', w.scope = 'external', 'withdrawing', w.amount_crypto),
       ('withdrawal:' || w.id || ':sent', w.scope = 'external' AND w.status = 'completed', 'withdrawing', -w.amount_crypto),
       ('withdrawal:' || w.id || ':refund', w.scope = 'external' AND w.status = 'cancelled', 'withdrawing', -w.amount_crypto),
       ('transfer:' || w.id, w.scope = 'internal', 'available', -w.amount_crypto)
     ) AS x (reference, expected, kind, amount)
     LEFT JOIN ledger_entries e ON e.reference = x.reference
     CROSS JOIN LATERAL (SELECT ${postedTo('e.id', 'x.kind')} AS moved) AS m
     WHERE w.trans_type = 'withdrawal'
       AND CASE WHEN x.expected THEN m.moved IS DISTINCT FROM x.amount ELSE e.id IS NOT NULL END
     ORDER BY w.id, x.reference`,
  );
  return {
    deposits: deposits.map((d) => ({
      id: d.id,
      status: d.status,
      reference: d.reference,
      problem:
        d.status !== 'completed'
          ? `is ${d.status} but credited`
          : d.posted
            ? `credits ${d.credited ?? 'nothing'} to its owner's available instead of ${d.amount}`
            : 'is completed but not credited',
    })),
    withdrawing,
    withdrawals: withdrawals.map((w) => ({
      id: w.id,
      scope: w.scope,
      status: w.status,
      reference: w.reference,
      problem: !w.expected
        ? `is ${w.scope} and ${w.status} but has this entry`
        : w.posted
          ? `moves ${w.moved ?? 'nothing'} instead of ${w.amount}`
          : 'is missing',
    })),
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
  for (const d of report.wallets.deposits) lines.push(`  deposit ${d.id} (${d.reference}) ${d.problem}`);
  for (const w of report.wallets.withdrawing) {
    lines.push(`  withdrawing: user ${w.userId} holds ${w.balance} of coin ${w.coinId}, their pending withdrawals sum to ${w.pending}`);
  }
  for (const w of report.wallets.withdrawals) lines.push(`  withdrawal ${w.id}: ${w.reference} ${w.problem}`);
  lines.push(report.clean ? 'clean' : 'PROBLEMS FOUND');
  return lines.join('\n');
}
