-- Each trader's completed trades, counted as they complete, for the offer cards' trades count.
--
-- Browse Offers shows every listed trader's count on every page. Counting their trades then (as before this
-- migration) costs a read of every completed trade of each trader on the page, which grows with the
-- trader's history and is paid again on every page. A counter costs one row update per party when a trade
-- completes, in the same statement that completes it, so it is always exactly the number of completed trades.
--
-- Like the ledger's escrow balances (009), a trader's count is split over slots: a release adds 1 to the
-- slot of the trade's escrow_slot for both parties, so a busy seller's releases do not all wait for one row.
-- The count is the sum of the slots.
--
-- Deploying: the backfill below counts the trades completed when it runs, and code from before this
-- migration completes trades without counting them. Stop every server process of the old version first
-- (as for 009), or a trade completed meanwhile would be missing from its traders' counts for good.
CREATE TABLE trader_trade_counts (
  user_id   bigint NOT NULL REFERENCES users (id),
  slot      smallint NOT NULL CHECK (slot BETWEEN 0 AND 63),
  completed integer NOT NULL DEFAULT 0 CHECK (completed >= 0),
  PRIMARY KEY (user_id, slot)
);

INSERT INTO trader_trade_counts (user_id, slot, completed)
SELECT party, 0, count(*)
FROM (
  SELECT buyer_id AS party FROM trades WHERE status = 'completed'
  UNION ALL
  SELECT seller_id FROM trades WHERE status = 'completed'
) completed
GROUP BY party;
