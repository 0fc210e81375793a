-- Real chains (docs/chains.md): a deposit remembers the block that holds it, so a re-organisation that removes
-- that block drops it before it is credited; what the watcher cannot fix by itself is written down for the
-- operator as a chain incident.

-- The height of the block that held the deposit when it was last read (null on the simulated chain, whose
-- blocks are never re-organised, and for the rows written before this migration).
ALTER TABLE wallet_transactions ADD COLUMN block_number bigint CHECK (block_number >= 0);

-- Why a deposit was cancelled: worth less than the minimum when it arrived, or its block was re-organised away
-- before its confirmations (if the chain brings it back in a new block, the row turns pending again).
ALTER TABLE wallet_transactions ADD COLUMN cancel_reason text CHECK (cancel_reason IN ('below_minimum', 'reorganised'));
UPDATE wallet_transactions SET cancel_reason = 'below_minimum' WHERE trans_type = 'deposit' AND status = 'cancelled';

-- What an operator must look at: a credited deposit whose block was re-organised away, a withdrawal the hot
-- wallet cannot pay, a transaction the chain mined but reverted. One row per kind and subject (a deposit's
-- credit reference, a withdrawal's broadcast reference): reported once, however many rounds see it.
-- `npm run chain:reconcile` lists the open ones; an operator closes one by setting resolved_at.
CREATE TABLE chain_incidents (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  network     text NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('credited_deposit_reorganised', 'hot_wallet_short', 'withdrawal_reverted', 'reorganisation_too_deep')),
  subject     text NOT NULL,
  detail      text NOT NULL,
  created_at  timestamptz NOT NULL,
  resolved_at timestamptz,
  UNIQUE (kind, subject)
);
CREATE INDEX chain_incidents_open ON chain_incidents (network) WHERE resolved_at IS NULL;
