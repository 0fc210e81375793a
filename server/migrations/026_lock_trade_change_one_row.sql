-- lock_trade_change (025) returns the one trade it locked, or none; the planner's default guess for a function
-- that returns a set is 1000 rows, which made the trade change's `UPDATE trades … FROM locked` plan a join
-- fit for a thousand (a scan of trades, bench/README.md "Trade changes: the lock order as a function"). One row.
ALTER FUNCTION lock_trade_change(bigint, text, boolean, boolean, text, boolean, boolean) ROWS 1;
