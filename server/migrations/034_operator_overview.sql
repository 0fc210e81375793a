-- The operator's overview and the audit log's reading (docs/operators.md "The overview", "Audit log").

-- A suspended trader (docs/api.md "Operator: traders"): the overview counts them. The suspension's own migration
-- adds the column too; IF NOT EXISTS lets either come first.
ALTER TABLE users ADD COLUMN IF NOT EXISTS suspended_at timestamptz;

-- When the chain watcher last finished a round on each network (chain/watcher.ts): the overview's "last round".
-- One row per network, moved forward by every process's rounds (never back).
CREATE TABLE chain_watch_rounds (
  network     text PRIMARY KEY,
  finished_at timestamptz NOT NULL
);

-- The overview's counts read ranges of time, each through an index rather than the whole table, so the overview
-- costs the same with a hundred thousand trades as with ten (docs/operators.md "The overview").
-- Traders active in the last 24 hours or 7 days: the sessions used since, less the staff's (a handful of rows);
-- traders are all users less the staff, and the suspended ones a handful too.
CREATE INDEX sessions_by_last_use ON sessions (last_used_at);
CREATE INDEX users_staff ON users (id) WHERE role <> 'trader';
-- The suspension's migration makes this index too (032): whichever comes first.
CREATE INDEX IF NOT EXISTS users_suspended ON users (suspended_at) WHERE suspended_at IS NOT NULL;
-- Trades opened, ended and disputed since midnight and in the last 7 days.
CREATE INDEX trades_by_created ON trades (created_at);
CREATE INDEX trades_by_closed ON trades (closed_at) WHERE closed_at IS NOT NULL;
CREATE INDEX trades_by_disputed ON trades (disputed_at) WHERE disputed_at IS NOT NULL;
-- Fee income today and in 7 days: the ledger's entries of that time (and the fee CSV's range of days).
CREATE INDEX ledger_entries_by_time ON ledger_entries (created_at);
-- The audit log filtered by what was done, newest first.
CREATE INDEX audit_log_by_action ON audit_log (action, at DESC);
