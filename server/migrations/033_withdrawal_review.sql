-- Withdrawal review, four eyes (docs/operators.md "Withdrawal review", docs/rules.md "Wallets"): an external
-- withdrawal worth WITHDRAWAL_REVIEW_USD or more when it is confirmed waits as `review` until an operator
-- approves it (back to `pending`: the chain watcher, which only picks up `pending`, sends it as any other) or
-- rejects it (`cancelled`, `cancel_reason` 'rejected', its amount back to the trader's available through
-- `withdrawal:<id>:refund`). While it waits its amount is held in `withdrawing` (`withdrawal:<id>:hold`), as
-- for any withdrawal in flight.

-- 015 wrote the status CHECK on the column, so PostgreSQL named it after the column.
ALTER TABLE wallet_transactions DROP CONSTRAINT wallet_transactions_status_check;
ALTER TABLE wallet_transactions ADD CONSTRAINT wallet_transactions_status_check
  CHECK (status IN ('pending', 'review', 'completed', 'cancelled'));
-- Only an external withdrawal not yet handed to the chain waits for review.
ALTER TABLE wallet_transactions ADD CONSTRAINT wallet_transactions_review_check
  CHECK (status <> 'review' OR (trans_type = 'withdrawal' AND scope = 'external' AND txid IS NULL));

-- 'rejected': an operator refused the withdrawal in review; its reason is review_reason.
ALTER TABLE wallet_transactions DROP CONSTRAINT wallet_transactions_cancel_reason_check;
ALTER TABLE wallet_transactions ADD CONSTRAINT wallet_transactions_cancel_reason_check
  CHECK (cancel_reason IN ('below_minimum', 'reorganised', 'rejected'));

-- The decision: who took it and when (null until then, and for withdrawals never reviewed), and a rejection's
-- reason as the operator wrote it. The worth the threshold was held against is amount_usd (015: the amount at
-- the preview's price, 2 places); the exact comparison uses withdrawal_previews.usd_price below.
ALTER TABLE wallet_transactions ADD COLUMN reviewed_by bigint REFERENCES users (id);
ALTER TABLE wallet_transactions ADD COLUMN reviewed_at timestamptz;
ALTER TABLE wallet_transactions ADD COLUMN review_reason text;
ALTER TABLE wallet_transactions ADD CONSTRAINT wallet_transactions_decision_check
  CHECK ((reviewed_by IS NULL) = (reviewed_at IS NULL)
         AND (review_reason IS NULL OR cancel_reason = 'rejected')
         AND (cancel_reason IS DISTINCT FROM 'rejected' OR (reviewed_by IS NOT NULL AND review_reason IS NOT NULL)));

-- The queue, oldest first.
CREATE INDEX wallet_transactions_review ON wallet_transactions (created_at, id) WHERE status = 'review';

-- The coin's USD price the preview used, so confirm holds amount × price against the threshold exactly (amount_usd
-- is rounded to cents). Null for a preview kept before this migration: amount_usd stands in for it.
ALTER TABLE withdrawal_previews ADD COLUMN usd_price numeric CHECK (usd_price >= 0);
