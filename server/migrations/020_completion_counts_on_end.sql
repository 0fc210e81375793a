-- The completion rate counts a trade only once it has ended, and only against the party who failed it
-- (docs/rules.md "Reputation"). Recounts `concluded` (migration 019) under that rule.
--
-- Under 019 a trade concluded for both parties when the buyer marked it paid. A review found anyone could
-- lower a seller's rate at the cost of one trade: mark paid without paying, the seller must dispute, a
-- moderator refunds, and the seller was charged a concluded trade that never completed. Now:
--   - completed (a release, or a moderator's release): concluded for both parties, as it is completed;
--   - refunded by a moderator (the buyer did not pay): concluded for the buyer alone;
--   - expired (the buyer never paid): concluded for the buyer alone, as under 019;
--   - cancelled before payment, marked paid, disputed and still open: for nobody.
-- So a trader's completed trades never exceed their concluded ones. `completed` (010) is unchanged.
--
-- Deploying: like 019, the recount below counts what exists when it runs, and code from before this
-- migration counts a trade at mark_paid and never at a refund. Stop every server process of the old
-- version first, or a trade marked paid or refunded meanwhile would be counted wrongly for good.

UPDATE trader_trade_counts SET concluded = 0 WHERE concluded <> 0;

INSERT INTO trader_trade_counts (user_id, slot, completed, concluded)
SELECT party, 0, 0, count(*)
FROM (
  SELECT buyer_id AS party FROM trades WHERE status = 'completed'
  UNION ALL
  SELECT seller_id FROM trades WHERE status = 'completed'
  UNION ALL
  -- Expired: cancelled by nobody (the payment window), never paid, never settled.
  SELECT buyer_id FROM trades
  WHERE status = 'cancelled' AND cancelled_by IS NULL AND paid_at IS NULL AND resolution IS NULL
  UNION ALL
  -- Refunded by a moderator: the buyer's payment was not found.
  SELECT buyer_id FROM trades WHERE resolution = 'refund'
) concluded
GROUP BY party
ON CONFLICT (user_id, slot) DO UPDATE SET concluded = trader_trade_counts.concluded + excluded.concluded;
