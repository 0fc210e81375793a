-- A hot-wallet payment whose nonce a transaction from outside the server took (chain/evm/hot-wallet.ts): it was
-- not paid, and only an operator can say whether to pay it again or refund it (docs/chains.md "Withdrawals").
ALTER TABLE chain_incidents DROP CONSTRAINT chain_incidents_kind_check;
ALTER TABLE chain_incidents ADD CONSTRAINT chain_incidents_kind_check
  CHECK (kind IN ('credited_deposit_reorganised', 'hot_wallet_short', 'withdrawal_reverted', 'withdrawal_nonce_taken', 'reorganisation_too_deep'));
