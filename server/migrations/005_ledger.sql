-- The double-entry ledger (server-rules.md "Money"). Every movement of a coin is one journal entry whose
-- postings sum to zero per coin; a balance is the sum of its account's postings. Accounts keep that sum
-- in a cached column, written in the same transaction as the postings (server/src/ledger/ledger.ts) and
-- checked against them by `npm run ledger:check`.

CREATE TABLE ledger_accounts (
  id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  coin_id  integer NOT NULL REFERENCES coins (id),
  -- NULL for the platform's own accounts.
  user_id  bigint REFERENCES users (id),
  -- A trader holds `available` (spendable) and `escrow` (locked in open trades) per coin. The platform
  -- holds `fees` (taken on release), `deposits` (the outside world's side of a deposit) and `withdrawals`
  -- (coins that left the platform) per coin.
  kind     text NOT NULL CHECK (kind IN ('available', 'escrow', 'fees', 'deposits', 'withdrawals')),
  -- The cached sum of this account's postings. Never more places than the coin has (checked per posting).
  balance  numeric NOT NULL DEFAULT 0,
  CHECK ((user_id IS NOT NULL) = (kind IN ('available', 'escrow'))),
  -- The floor no interleaving can break: a transaction that would take an account below zero fails at
  -- its UPDATE, whatever the application checked before. `deposits` alone goes negative: it stands for
  -- money that came from outside (its balance is minus everything ever deposited).
  CONSTRAINT ledger_accounts_not_negative CHECK (kind = 'deposits' OR balance >= 0),
  -- One account per owner, coin and kind, named by one text key (`<user id>:<coin id>:<kind>`, the
  -- platform's as `platform:<coin id>:<kind>`): the posting function finds and locks the accounts of an
  -- entry with one `key = ANY(…) ORDER BY id FOR UPDATE`, and creates a missing one with ON CONFLICT (key).
  key      text GENERATED ALWAYS AS (coalesce(user_id::text, 'platform') || ':' || coin_id::text || ':' || kind) STORED
           CONSTRAINT ledger_accounts_key UNIQUE,
  -- Lets postings name (account, coin) together, so a posting's coin is always its account's coin.
  UNIQUE (id, coin_id)
);

CREATE TABLE ledger_entries (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- What moved and why: `trade:<id>:open`, `trade:<id>:release`, `trade:<id>:cancel`, `deposit:<txid>`.
  -- Unique, so a retried or duplicated request finds its entry instead of moving money a second time.
  reference  text NOT NULL UNIQUE CHECK (reference ~ '^[a-z_]+:[A-Za-z0-9_.:-]{1,200}$'),
  created_at timestamptz NOT NULL
);

CREATE TABLE ledger_postings (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  entry_id   bigint NOT NULL REFERENCES ledger_entries (id),
  account_id bigint NOT NULL,
  coin_id    integer NOT NULL,
  -- Signed: positive adds to the account, negative takes from it.
  amount     numeric NOT NULL CHECK (amount <> 0),
  FOREIGN KEY (account_id, coin_id) REFERENCES ledger_accounts (id, coin_id)
);
CREATE INDEX ledger_postings_by_entry ON ledger_postings (entry_id);
CREATE INDEX ledger_postings_by_account ON ledger_postings (account_id);

-- The database's own check that every entry balances, at COMMIT (deferred: the postings of one entry
-- arrive together, but a row-level trigger sees them one by one). It also refuses an amount with more
-- places than its coin has. The application checks both before it writes (ledger.ts); this catches any
-- other writer, and any bug there.
CREATE FUNCTION ledger_check_entry() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM ledger_postings WHERE entry_id = NEW.entry_id GROUP BY coin_id HAVING sum(amount) <> 0
  ) THEN
    RAISE EXCEPTION 'ledger entry % does not sum to zero per coin', NEW.entry_id USING ERRCODE = 'check_violation';
  END IF;
  IF EXISTS (
    SELECT 1 FROM coins c WHERE c.id = NEW.coin_id AND NEW.amount <> round(NEW.amount, c.decimal_places)
  ) THEN
    RAISE EXCEPTION 'ledger posting % has more decimal places than its coin', NEW.id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER ledger_postings_balanced
  AFTER INSERT ON ledger_postings
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION ledger_check_entry();

-- The journal is append-only: a mistake is corrected by a new entry, never by editing history.
CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END $$;

CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_postings_append_only BEFORE UPDATE OR DELETE ON ledger_postings
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
