import type { Queryable } from '../infra/db/db.ts';

/** The instants the overview counts from: midnight UTC today, and 24 hours and 7 days before now. */
export interface OverviewTimes {
  today: Date;
  day: Date;
  week: Date;
}

export interface TraderCounts {
  total: number;
  suspended: number;
  active_24h: number;
  active_7d: number;
}

export interface TradeCounts {
  open: number;
  disputed: number;
  oldest_dispute: Date | null;
  opened_today: number;
  opened_week: number;
  completed_today: number;
  completed_week: number;
  cancelled_today: number;
  cancelled_week: number;
  disputed_today: number;
  disputed_week: number;
}

/** A coin's fee income: NUMERIC sums read as text (exact). */
export interface FeeIncomeRow {
  ticker: string;
  decimal_places: number;
  today: string;
  week: string;
  all_time: string;
}

export interface NetworkRow {
  network: string;
  name: string;
  last_round_at: Date | null;
  open_incidents: number;
}

/** One fee posting of the fee CSV. */
export interface FeePostingRow {
  id: string;
  at: Date;
  ticker: string;
  decimal_places: number;
  amount: string;
  reference: string;
  /** The trade's channel, when the entry names a trade. */
  channel: string | null;
}

/**
 * The operator's overview (operator/overview.ts) and the fee CSV: only reads. Each count reads a range of an
 * index (migrations 019, 031 and 034), not a whole table of trades or entries: docs/operators.md "The overview"
 * says what they cost.
 */
export function overviewRepository(db: Queryable) {
  return {
    /** Traders (the role that trades): all, suspended, and those with a session used in the last 24 hours or 7 days. */
    traders: (times: OverviewTimes) =>
      db.one<TraderCounts>(
        `SELECT ((SELECT count(*) FROM users) - (SELECT count(*) FROM users WHERE role <> 'trader'))::int AS total,
                (SELECT count(*) FROM users WHERE suspended_at IS NOT NULL AND role = 'trader')::int AS suspended,
                active.day::int AS active_24h, active.week::int AS active_7d
         FROM (SELECT count(DISTINCT s.user_id) FILTER (WHERE s.last_used_at >= $1) AS day, count(DISTINCT s.user_id) AS week
               FROM sessions s
               WHERE s.last_used_at >= $2 AND NOT EXISTS (SELECT FROM users u WHERE u.id = s.user_id AND u.role <> 'trader')) active`,
        [times.day, times.week],
      ),

    /**
     * Trades pending and disputed now, the oldest dispute waiting, and those opened, completed, cancelled and
     * disputed since midnight and in the last 7 days (a dispute counts when it was raised, settled since or not).
     */
    trades: (times: OverviewTimes) =>
      db.one<TradeCounts>(
        `SELECT (SELECT count(*) FROM trades WHERE status = 'pending')::int AS open,
                disputes.waiting::int AS disputed, disputes.oldest AS oldest_dispute,
                opened.today::int AS opened_today, opened.week::int AS opened_week,
                closed.completed_today::int AS completed_today, closed.completed_week::int AS completed_week,
                closed.cancelled_today::int AS cancelled_today, closed.cancelled_week::int AS cancelled_week,
                raised.today::int AS disputed_today, raised.week::int AS disputed_week
         FROM (SELECT count(*) AS waiting, min(disputed_at) AS oldest FROM trades WHERE dispute_raised) disputes,
              (SELECT count(*) FILTER (WHERE created_at >= $1) AS today, count(*) AS week FROM trades WHERE created_at >= $2) opened,
              (SELECT count(*) FILTER (WHERE status = 'completed' AND closed_at >= $1) AS completed_today,
                      count(*) FILTER (WHERE status = 'completed') AS completed_week,
                      count(*) FILTER (WHERE status = 'cancelled' AND closed_at >= $1) AS cancelled_today,
                      count(*) FILTER (WHERE status = 'cancelled') AS cancelled_week
               FROM trades WHERE closed_at >= $2) closed,
              (SELECT count(*) FILTER (WHERE disputed_at >= $1) AS today, count(*) AS week FROM trades WHERE disputed_at >= $2) raised`,
        [times.today, times.week],
      ),

    /**
     * Per coin, what was posted into the platform's `fees` accounts since midnight and in the last 7 days (the
     * entries of that time), and all the fee accounts hold: every posting into them is a fee taken (trades/actions.ts),
     * and nothing leaves them, so their balance is all-time income (`npm run ledger:check` keeps balance and
     * postings equal).
     */
    feeIncome: (times: OverviewTimes) =>
      db.query<FeeIncomeRow>(
        `SELECT c.ticker, c.decimal_places,
                coalesce(recent.today, 0)::text AS today, coalesce(recent.week, 0)::text AS week,
                coalesce((SELECT sum(b.balance) FROM ledger_balances b WHERE b.coin_id = c.id AND b.kind = 'fees'), 0)::text AS all_time
         FROM coins c
         LEFT JOIN (SELECT p.coin_id, sum(p.amount) FILTER (WHERE e.created_at >= $1) AS today, sum(p.amount) AS week
                    FROM ledger_entries e,
                         -- OFFSET 0 keeps this a lookup per entry of the week (ledger_postings_by_entry), rather than
                         -- a join the planner may make by reading every posting the ledger ever wrote.
                         LATERAL (SELECT p.coin_id, p.amount FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id AND a.kind = 'fees'
                                  WHERE p.entry_id = e.id OFFSET 0) p
                    WHERE e.created_at >= $2
                    GROUP BY p.coin_id) recent ON recent.coin_id = c.id
         ORDER BY c.id`,
        [times.today, times.week],
      ),

    /**
     * Every network coins travel on (its first coin's name for it), when the watcher last finished a round there
     * (migration 034) and its chain incidents not yet settled.
     */
    networks: () =>
      db.query<NetworkRow>(
        `SELECT n.key AS network, n.name, r.finished_at AS last_round_at,
                (SELECT count(*) FROM chain_incidents i WHERE i.network = n.key AND i.resolved_at IS NULL)::int AS open_incidents
         FROM (SELECT DISTINCT ON (key) key, name FROM coin_networks ORDER BY key, id) n
         LEFT JOIN chain_watch_rounds r ON r.network = n.key
         ORDER BY n.key`,
      ),

    /** Web pushes not yet handed to a push service: publishes not yet expanded and deliveries not yet sent (migration 017). */
    pushQueue: () =>
      db.one<{ depth: number; oldest: Date | null }>(
        `SELECT ((SELECT count(*) FROM push_publishes) + (SELECT count(*) FROM push_deliveries))::int AS depth,
                least((SELECT min(created_at) FROM push_publishes), (SELECT min(created_at) FROM push_deliveries)) AS oldest`,
      ),

    /** Withdrawals waiting for an operator's review (docs/api.md "Operator: withdrawal review"). */
    reviewsWaiting: async () =>
      (await db.one<{ waiting: number }>(`SELECT count(*)::int AS waiting FROM wallet_transactions WHERE status = 'review'`)).waiting,

    /**
     * The fee CSV's rows: postings into the `fees` accounts, oldest first, after (`at`, posting id) `after`,
     * within [from, to), at most `limit`; the trade each names, by its channel.
     */
    feePostings: (range: { from?: Date; to?: Date }, after: { at: Date; id: string } | undefined, limit: number) =>
      db.query<FeePostingRow>(
        `SELECT p.id, e.created_at AS at, c.ticker, c.decimal_places, p.amount::text AS amount, e.reference, t.channel
         FROM ledger_entries e
         JOIN ledger_postings p ON p.entry_id = e.id
         JOIN ledger_accounts a ON a.id = p.account_id AND a.kind = 'fees'
         JOIN coins c ON c.id = p.coin_id
         LEFT JOIN trades t ON e.reference LIKE 'trade:%' AND t.id = CASE WHEN e.reference ~ '^trade:[0-9]{1,18}:' THEN split_part(e.reference, ':', 2)::bigint END
         WHERE ($1::timestamptz IS NULL OR e.created_at >= $1) AND ($2::timestamptz IS NULL OR e.created_at < $2)
           AND ($3::timestamptz IS NULL OR (e.created_at, p.id) > ($3, $4::bigint))
         ORDER BY e.created_at, p.id
         LIMIT $5`,
        [range.from ?? null, range.to ?? null, after?.at ?? null, after?.id ?? null, limit],
      ),
  };
}
