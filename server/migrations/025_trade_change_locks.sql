-- A trade's change takes its row locks here, in one written order, before any other step of its statement
-- writes (server/src/ledger/README.md "Lock order"): the trade, its conversation, the traders' counters. The
-- ledger's balance slots come last, taken by ledger_post (009) in its own written order. Before this function
-- the statement (server/src/trades/trades.repository.ts `transition`) took them step by step, in an order that
-- rested on how PostgreSQL runs a WITH list, and the counters after the balance slots.
--
-- Deploying: nothing is dropped, so servers of the old version keep working beside the new one. Old servers
-- take a trade's counters after its balance slots and new ones before them: while both run, two releases
-- that share a trader and a slot may deadlock once; PostgreSQL aborts one and the server runs it again
-- (server/src/infra/db/retry.ts).

CREATE FUNCTION lock_trade_change(
  p_trade          bigint,
  -- The facts the change starts from: its compare-and-set.
  p_status         text,
  p_buyer_paid     boolean,
  p_dispute_raised boolean,
  -- Whose counters the change adds to on the trade's escrow slot: NULL (nobody), 'buyer' or 'both'
  -- (server/src/trades/actions.ts TradeCount), and what it adds to each.
  p_count          text,
  p_completed      boolean,
  p_concluded      boolean
) RETURNS TABLE (id bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_trade record;
BEGIN
  IF p_count IS NOT NULL AND p_count NOT IN ('buyer', 'both') THEN
    RAISE EXCEPTION 'trade %: no such counted parties: %', p_trade, p_count USING ERRCODE = 'invalid_parameter_value';
  END IF;

  -- 1. The trade, only while it still holds the `from` facts. Under READ COMMITTED a change that got there
  --    first is waited for and its row read again: it no longer matches, no row comes back, and nothing
  --    further is locked or written (the caller's steps all read this function's row).
  SELECT t.id, t.buyer_id, t.seller_id, t.escrow_slot INTO v_trade
  FROM trades t
  WHERE t.id = p_trade AND t.status = p_status AND t.buyer_paid = p_buyer_paid AND t.dispute_raised = p_dispute_raised
  FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;

  -- 2. Its conversation, which the change's message moves up the lists (a trader's chat message locks only it).
  PERFORM FROM conversations c WHERE c.trade_id = v_trade.id FOR NO KEY UPDATE;

  -- 3. The counters, in user id order. Added to here, not only locked: a counter row that does not exist yet
  --    cannot be locked apart from writing it, and the caller's later steps could not add to a row this
  --    function wrote (their statement's snapshot was taken before it).
  IF p_count IS NOT NULL THEN
    INSERT INTO trader_trade_counts AS n (user_id, slot, completed, concluded)
    SELECT party.user_id, v_trade.escrow_slot, p_completed::integer, p_concluded::integer
    FROM (VALUES (v_trade.buyer_id), (CASE WHEN p_count = 'both' THEN v_trade.seller_id END)) AS party (user_id)
    WHERE party.user_id IS NOT NULL
    ORDER BY party.user_id
    ON CONFLICT (user_id, slot) DO UPDATE SET completed = n.completed + excluded.completed, concluded = n.concluded + excluded.concluded;
  END IF;

  RETURN QUERY SELECT v_trade.id;
END $$;
