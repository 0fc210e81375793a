-- Wallets (issue 11, contract.md "Wallets"): deposit addresses derived from one extended public key per
-- network, the chain the deposits and withdrawals travel on, and the history a trader reads.

-- Network keys as contract.md pins them: a key names the chain (its address format and derivation), so
-- USDT on Ethereum shares `ethereum` with ETH and uses the same deposit address.
UPDATE coin_networks SET key = 'ethereum' WHERE key = 'erc20';
UPDATE coin_networks SET key = 'tron' WHERE key = 'trc20';

-- The network fee a withdrawal of this coin on this network pays, in the coin (config: an operator
-- changes the row). It is deducted from the amount withdrawn: the recipient receives amount − fee.
ALTER TABLE coin_networks ADD COLUMN withdrawal_fee numeric NOT NULL DEFAULT 0 CHECK (withdrawal_fee >= 0);
UPDATE coin_networks AS n SET withdrawal_fee = f.fee
FROM coins AS c, (VALUES ('BTC', 'bitcoin', 0.00005), ('ETH', 'ethereum', 0.0008), ('USDT', 'ethereum', 3),
                         ('USDT', 'tron', 1), ('LTC', 'litecoin', 0.001)) AS f (ticker, key, fee)
WHERE c.id = n.coin_id AND c.ticker = f.ticker AND n.key = f.key;

-- A trader's own deposit address per network: BIP-32 child `derivation_index` of the network's external
-- chain (…/0/index under WALLET_XPUB_<NETWORK>). Allocated once, never shared, never reused.
CREATE TABLE deposit_addresses (
  user_id          bigint NOT NULL REFERENCES users (id),
  network          text NOT NULL CHECK (network ~ '^[a-z0-9_]+$'),
  derivation_index integer NOT NULL CHECK (derivation_index >= 0),
  -- As the network writes it (EIP-55 checksummed on ethereum), so it can be compared as text.
  address          text NOT NULL,
  created_at       timestamptz NOT NULL,
  PRIMARY KEY (user_id, network),
  UNIQUE (network, derivation_index),
  UNIQUE (network, address)
);

-- A user's deposit or withdrawal, as the history shows it. Amounts are the coin's (NUMERIC, at most its
-- places), USD values are frozen at arrival (deposits) or at the preview (withdrawals), with 2 places.
CREATE TABLE wallet_transactions (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id         bigint NOT NULL REFERENCES users (id),
  coin_id         integer NOT NULL REFERENCES coins (id),
  network         text NOT NULL,
  trans_type      text NOT NULL CHECK (trans_type IN ('deposit', 'withdrawal')),
  status          text NOT NULL CHECK (status IN ('pending', 'completed', 'cancelled')),
  -- `external`: on the chain. `internal`: between two Peerex users (a withdrawal to another trader's deposit
  -- address settles in the ledger at once, with no network fee and nothing on the chain).
  scope           text NOT NULL CHECK (scope IN ('external', 'internal')),
  -- A deposit: what arrived. A withdrawal: what left the balance (the recipient receives amount − fee).
  amount_crypto   numeric NOT NULL CHECK (amount_crypto > 0),
  amount_usd      numeric NOT NULL CHECK (amount_usd >= 0),
  fee_crypto      numeric NOT NULL DEFAULT 0 CHECK (fee_crypto >= 0),
  fee_usd         numeric NOT NULL DEFAULT 0 CHECK (fee_usd >= 0),
  -- A deposit: the user's deposit address (null for the demo's starting balances, which no address
  -- received). A withdrawal: the recipient.
  address         text,
  -- Null while a withdrawal waits to be broadcast, and for internal transfers.
  txid            text,
  -- A deposit's output (or token transfer's log index) within its transaction.
  vout            integer,
  -- The ledger entry that credits a deposit (`deposit:<network>:<txid>:<vout>`): it exists exactly when the
  -- deposit is completed (`npm run ledger:check` checks both ways). Null for withdrawals, whose entries are
  -- `withdrawal:<id>:hold`, then `withdrawal:<id>:sent` or `withdrawal:<id>:refund`.
  credit_reference text UNIQUE,
  -- A withdrawal: how many times its broadcast failed for a reason worth retrying, and the last reason.
  broadcast_attempts integer NOT NULL DEFAULT 0,
  broadcast_error text,
  created_at      timestamptz NOT NULL,
  completed_at    timestamptz,
  CHECK (amount_crypto > fee_crypto OR trans_type = 'deposit'),
  CHECK ((trans_type = 'deposit') = (credit_reference IS NOT NULL)),
  CHECK (trans_type = 'withdrawal' OR (txid IS NOT NULL AND vout IS NOT NULL)),
  UNIQUE (network, txid, vout)
);
CREATE INDEX wallet_transactions_by_user ON wallet_transactions (user_id, created_at DESC, id DESC);
-- What the chain watcher works through: deposits waiting for confirmations, withdrawals waiting for their
-- broadcast or their confirmation.
CREATE INDEX wallet_transactions_pending ON wallet_transactions (network, trans_type) WHERE status = 'pending';

-- The withdrawal a user previewed: confirm_withdrawal executes this row and deletes it, in one statement,
-- so two racing confirms find one row between them. One per user; a new preview replaces the old one.
CREATE TABLE withdrawal_previews (
  user_id       bigint PRIMARY KEY REFERENCES users (id),
  coin_id       integer NOT NULL REFERENCES coins (id),
  network       text NOT NULL,
  recipient     text NOT NULL,
  scope         text NOT NULL CHECK (scope IN ('external', 'internal')),
  amount_crypto numeric NOT NULL CHECK (amount_crypto > 0),
  amount_usd    numeric NOT NULL CHECK (amount_usd >= 0),
  fee_crypto    numeric NOT NULL CHECK (fee_crypto >= 0),
  fee_usd       numeric NOT NULL CHECK (fee_usd >= 0),
  expires_at    timestamptz NOT NULL,
  CHECK (amount_crypto > fee_crypto)
);

-- When the account's credentials last changed (a password reset, two-factor turned on or off): withdrawals
-- wait 24 hours after it, so that whoever took over an account cannot empty it at once.
ALTER TABLE users ADD COLUMN credentials_changed_at timestamptz;

-- A withdrawal in flight: the amount has left the trader's `available` balance but not yet the platform
-- (`withdrawal:<id>:hold`); the chain's confirmation moves it to `withdrawals` (`…:sent`), a refused
-- broadcast back to `available` (`…:refund`). Still the trader's until then, like escrow.
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_kind_check
  CHECK (kind IN ('available', 'escrow', 'withdrawing', 'fees', 'deposits', 'withdrawals'));
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_owner_by_kind
  CHECK ((user_id IS NOT NULL) = (kind IN ('available', 'escrow', 'withdrawing')));

-- How far the chain watcher has read each network, in the chain adapter's own terms (a block height, an
-- indexer's cursor). Advanced with compare-and-set, so two server processes never move it backwards.
CREATE TABLE chain_cursors (
  network text PRIMARY KEY,
  cursor  text NOT NULL
);

-- CHAIN_SOURCE=simulated: a local chain per network, kept in the database so every server process and
-- every restart sees the same one. Blocks are heights; a transfer is mined when it has a block height,
-- and has (height − block_height + 1) confirmations.
CREATE TABLE simulated_chain_heights (
  network text PRIMARY KEY,
  height  integer NOT NULL CHECK (height >= 0)
);

CREATE TABLE simulated_chain_transfers (
  -- The order transfers reached the chain: the watcher's cursor.
  seq          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  network      text NOT NULL,
  txid         text NOT NULL,
  vout         integer NOT NULL CHECK (vout >= 0),
  -- The coin moved (its ticker): ETH or USDT on ethereum.
  asset        text NOT NULL,
  address      text NOT NULL,
  amount       numeric NOT NULL CHECK (amount > 0),
  -- The product's own broadcasts name their withdrawal, so broadcasting it again returns the same txid.
  reference    text UNIQUE,
  block_height integer CHECK (block_height >= 1),
  created_at   timestamptz NOT NULL,
  UNIQUE (network, txid, vout)
);

-- The demo traders' starting balances (seed.ts, ledger references `deposit:demo-<user>-<ticker>`) appear in
-- their history as completed deposits on the coin's first network. They never touched a chain, so their
-- txid is a digest of the reference: stable, unique, and shaped like the network's txids.
INSERT INTO wallet_transactions (user_id, coin_id, network, trans_type, status, scope, amount_crypto, amount_usd,
                                 txid, vout, credit_reference, created_at, completed_at)
SELECT p.user_id, p.coin_id, n.key, 'deposit', 'completed', 'external', p.amount, round(p.amount * c.usd_price, 2),
       CASE n.key WHEN 'ethereum' THEN '0x' ELSE '' END || encode(sha256(convert_to(e.reference, 'UTF8')), 'hex'),
       0, e.reference, e.created_at, e.created_at
FROM ledger_entries e
JOIN (SELECT po.entry_id, a.user_id, a.coin_id, po.amount
      FROM ledger_postings po JOIN ledger_accounts a ON a.id = po.account_id
      WHERE a.kind = 'available') AS p ON p.entry_id = e.id
JOIN coins c ON c.id = p.coin_id
JOIN LATERAL (SELECT key FROM coin_networks WHERE coin_id = c.id ORDER BY id LIMIT 1) AS n ON true
WHERE e.reference LIKE 'deposit:demo-%';
