-- Browse Offers from the database: no page reads more offers than it shows, and its JSON is written here
-- (bench/README.md "Browse Offers at 100,000 offers"; server/src/offers/offers.repository.ts `listPage`).

-- 1. The pick. A page's offers are picked from an index in the list's order (003). A filter the index does not
-- lead with is checked on each entry the pick passes over: with the checked columns in the index itself
-- (INCLUDE), the check is made on the index entry and the offers it turns down are never read from the table
-- (an index-only scan); so are the entries a page number skips. Covered: the newest-first order, which every
-- filter without an index of its own walks (the default list, a type, payment methods, a trader search matching
-- many traders); the market a trader usually browses, one coin for one currency, narrowed further by type,
-- methods or trader; and a few traders' offers, read owner by owner, with whatever else was chosen. The other
-- indexes of 003 lead with the one column they filter on, so what they pass over always matches.
CREATE INDEX offers_live_newest_covering ON offers (created_at DESC, id DESC)
  INCLUDE (offer_type, user_id, payment_method_ids) WHERE is_active;
DROP INDEX offers_live_newest;

CREATE INDEX offers_live_by_coin_currency_covering ON offers (coin_id, currency_code, created_at DESC, id DESC)
  INCLUDE (offer_type, user_id, payment_method_ids) WHERE is_active;
DROP INDEX offers_live_by_coin_currency;

CREATE INDEX offers_live_by_user_covering ON offers (user_id, created_at DESC, id DESC)
  INCLUDE (offer_type, coin_id, currency_code, payment_method_ids) WHERE is_active;
DROP INDEX offers_live_by_user;

-- 2. The page. offer_list_page(ids, size): the offers `ids` names (the pick's, at most size + 1, any order),
-- newest first, of which the first `size` are shown and one more says that another page follows. One row:
--   offers       the shown offers as a JSON array of the contract's list items (contracts/market.ts
--                `offerListItem`: its keys in its order, each value as the contract writes it), which the server
--                sends on as it is (tests/server/offers.test.ts holds it to the contract byte for byte);
--   has_more     another offer follows the page;
--   next_cursor  where the next page starts when one does: the last shown offer's created_at to the microsecond,
--                ISO 8601 in UTC, '_', its id (server/src/offers/offers.ts `cursorOf` reads it back).
-- Each part of an offer is read for the page's offers alone: the owner's name, the coin, the payment method names
-- in the owner's order, and the owner's figures from their counters (the same as server/src/reputation/
-- trader-stats.repository.ts TRADER_FIGURES: a change there is a change here).
--
-- Why a function: PostgreSQL plans a statement as a whole, and planning this part costs more than running it
-- (~0.3 ms against ~0.2 ms at 12 offers). Its plan never depends on the values, while the pick's does (a payment
-- method only some offers accept is best found through offers_live_payment_methods, a common one by walking the
-- newest offers): inside a function the page's statement is planned once per connection (plan_cache_mode, here
-- only), and the statement that calls it plans only the pick, for its values where they matter.
-- A rate: at least 2 places, and every further place the owner set (offers.ts formatRate). Amounts are
-- numeric(20,2), whose text has exactly the 2 places formatFiat gives. `created` as JavaScript's toISOString
-- writes it: milliseconds, cut as a Date cuts microseconds.
CREATE FUNCTION offer_list_page(p_ids bigint[], p_size integer)
RETURNS TABLE (offers text, has_more boolean, next_cursor text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
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
  CROSS JOIN LATERAL (
    SELECT counts.completed AS trades_count,
           CASE WHEN counts.concluded > 0 THEN round(counts.completed * 100::numeric / counts.concluded, 2)::text END AS completion_rate,
           CASE WHEN r.raters > 0 THEN round(r.score_total::numeric / r.raters, 2)::text ELSE '0.00' END AS rating,
           coalesce(r.ratings, 0) AS ratings_count,
           coalesce(r.raters, 0) AS rated_by
    FROM (
      SELECT coalesce(sum(n.completed), 0)::integer AS completed, coalesce(sum(n.concluded), 0)::integer AS concluded
      FROM trader_trade_counts n WHERE n.user_id = o.user_id
    ) counts
    LEFT JOIN trader_ratings r ON r.user_id = o.user_id
  ) f
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
