-- A trader's figures written once (docs/rules.md "Reputation"): migration 040's offer_list_page repeated the SQL of
-- server/src/reputation/trader-stats.repository.ts, so the two could drift apart. Both now read trader_figures.
--
-- trader_figures(user_id): one row, the columns of TraderFigures (trader-stats.repository.ts). Both sources are
-- counters kept in the statements that change them (the slots of trader_trade_counts, migrations 010, 019 and 024;
-- trader_ratings, 019 and 024), so a trader costs at most BALANCE_SLOTS slot rows and one totals row whatever their
-- history: no trade or rating is read. The arithmetic is numeric, never a float, and round() rounds half away from
-- zero. Exact: with a divisor below 2^31 a quotient that is not exactly on a half is at least 1/(200 · divisor) away
-- from one, far more than numeric's 16 places of division can blur.
--
-- Written so that PostgreSQL inlines it into the statement that calls it in FROM (a single SELECT in LANGUAGE sql,
-- returning a set, STABLE, not STRICT, no SET clause): the caller's plan reads the two tables by key as before, with
-- no function call per trader. ROWS 1: it always answers exactly one row.
CREATE FUNCTION trader_figures(p_user_id bigint)
RETURNS TABLE (trades_count integer, completion_rate text, rating text, ratings_count integer, rated_by integer)
LANGUAGE sql STABLE ROWS 1 AS $$
  SELECT counts.completed,
         CASE WHEN counts.concluded > 0 THEN round(counts.completed * 100::numeric / counts.concluded, 2)::text END,
         CASE WHEN r.raters > 0 THEN round(r.score_total::numeric / r.raters, 2)::text ELSE '0.00' END,
         coalesce(r.ratings, 0),
         coalesce(r.raters, 0)
  FROM (
    SELECT coalesce(sum(n.completed), 0)::integer AS completed, coalesce(sum(n.concluded), 0)::integer AS concluded
    FROM trader_trade_counts n WHERE n.user_id = p_user_id
  ) counts
  LEFT JOIN trader_ratings r ON r.user_id = p_user_id
$$;

-- The page of Browse Offers as migration 040 wrote it (see there for what it answers and why it is a function),
-- with the owner's figures from trader_figures: the same columns, the same values, the same JSON. Its plan joins by
-- nested loops over index scans only: it reads at most p_size + 1 offers and, for each, its owner and coin by key,
-- where the planner, counting on more rows, built a hash of the coins table at every call and read each owner's
-- counters through a bitmap, ~10% of the page's cost for nothing (bench/README.md "Browse Offers at 100,000 offers").
CREATE OR REPLACE FUNCTION offer_list_page(p_ids bigint[], p_size integer)
RETURNS TABLE (offers text, has_more boolean, next_cursor text)
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan SET enable_hashjoin = off SET enable_mergejoin = off SET enable_bitmapscan = off AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT coalesce(array_to_json(array_agg(item ORDER BY o.place) FILTER (WHERE o.place <= p_size))::text, '[]'),
         count(*) > p_size,
         CASE WHEN count(*) > p_size THEN
           min(to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '_' || o.id) FILTER (WHERE o.place = p_size)
         END
  FROM (
    SELECT o.*, row_number() OVER (ORDER BY o.created_at DESC, o.id DESC) AS place
    FROM offers o WHERE o.id = ANY (p_ids)
  ) o
  JOIN coins c ON c.id = o.coin_id
  CROSS JOIN LATERAL trader_figures(o.user_id) f
  CROSS JOIN LATERAL (
    SELECT o.id, o.offer_type, c.image AS coin__image, c.label AS coin__label, c.ticker AS coin__ticker,
           o.currency_code AS currency__code, round(o.rate, greatest(scale(trim_scale(o.rate)), 2))::text AS rate,
           o.min_amount::text AS min_amount, o.max_amount::text AS max_amount,
           (SELECT array_agg(pm.name ORDER BY array_position(o.payment_method_ids, pm.id))
            FROM payment_methods pm WHERE pm.id = ANY (o.payment_method_ids)) AS payment_methods,
           (SELECT u.username FROM users u WHERE u.id = o.user_id) AS user__username,
           f.rating AS user__rating, f.trades_count AS user__trades_count, f.ratings_count AS user__ratings_count,
           f.completion_rate AS user__completion_rate, f.rated_by AS user__rated_by,
           to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created,
           o.min_completed_trades, o.min_account_days, o.require_two_factor, o.max_open_trades
  ) item;
END
$$;
