-- The EVM hot wallet (server/src/chain/evm/hot-wallet.ts) pays each withdrawal exactly once across crashes: the
-- nonce is reserved and the signed transaction stored here, in one transaction, before its bytes are sent; a
-- retry sends those same bytes again. A transaction stuck under a low fee is replaced at the same nonce by a new
-- attempt, stored here before it is sent too. Amounts are exact: wei and token units as numeric(78,0) (any
-- uint256), the coin amount as the withdrawal asked it.

-- One row per hot wallet and network: the next nonce it hands out. A payment locks this row (FOR UPDATE) to
-- reserve its nonce, so two payments never sign the same nonce.
CREATE TABLE evm_hot_wallets (
  network    text NOT NULL,
  address    text NOT NULL,  -- EIP-55 checksummed
  next_nonce bigint NOT NULL CHECK (next_nonce >= 0),
  PRIMARY KEY (network, address)
);

-- One row per withdrawal paid: what it pays, at which nonce, and what the chain made of it.
CREATE TABLE evm_hot_wallet_payments (
  -- The withdrawal's broadcast reference (chain/adapter.ts BroadcastRequest): paid at most once.
  reference     text PRIMARY KEY,
  network       text NOT NULL,
  wallet        text NOT NULL,
  nonce         bigint NOT NULL CHECK (nonce >= 0),
  asset         text NOT NULL,
  -- The token's contract, or null for the network's own coin.
  token         text,
  recipient     text NOT NULL,
  amount        numeric NOT NULL CHECK (amount > 0),
  units         numeric(78, 0) NOT NULL CHECK (units > 0),
  created_at    timestamptz NOT NULL,
  -- The transaction id last answered to the caller (pay or tend): tend answers again when the current one differs.
  reported_hash text NOT NULL,
  -- The attempt the chain mined, while a block holds it (cleared if a re-organisation takes it away).
  mined_hash    text,
  mined_block   bigint,
  -- Set once the mined attempt is as deep as the network's confirmations: the payment is no longer tended.
  -- 'reverted': mined but reverted, nothing was paid; the operator must look at it.
  outcome       text CHECK (outcome IN ('paid', 'reverted')),
  settled_at    timestamptz,
  FOREIGN KEY (network, wallet) REFERENCES evm_hot_wallets (network, address),
  UNIQUE (network, wallet, nonce),
  CHECK ((outcome IS NULL) = (settled_at IS NULL)),
  CHECK (outcome IS NULL OR mined_hash IS NOT NULL)
);
CREATE INDEX evm_hot_wallet_payments_open ON evm_hot_wallet_payments (network, wallet, nonce) WHERE outcome IS NULL;

-- Each signed transaction of a payment: the first, then each replacement at the same nonce with higher fees.
CREATE TABLE evm_hot_wallet_attempts (
  hash                     text PRIMARY KEY,
  reference                text NOT NULL REFERENCES evm_hot_wallet_payments (reference),
  attempt                  integer NOT NULL CHECK (attempt >= 1),
  -- The signed transaction, hex: exactly the bytes sent, and sent again.
  raw                      text NOT NULL,
  gas                      numeric(78, 0) NOT NULL CHECK (gas > 0),
  max_fee_per_gas          numeric(78, 0) NOT NULL CHECK (max_fee_per_gas > 0),
  max_priority_fee_per_gas numeric(78, 0) NOT NULL CHECK (max_priority_fee_per_gas >= 0),
  created_at               timestamptz NOT NULL,
  UNIQUE (reference, attempt)
);
