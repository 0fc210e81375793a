-- The cached balances move out of ledger_accounts into slots (ledger_balances), so that a busy seller's
-- escrow and a coin's fee account are no longer single rows that every trade must lock.
--
-- Why: a row lock is held until its transaction's COMMIT has flushed, so every movement that touches a
-- row waits for the one before it. With one cached balance per account, each trade locked its seller's
-- escrow row twice (open and release) and the platform's fee row once (release): a popular offer's trades,
-- and all releases of a coin, ran one at a time. bench/trades.ts measured it. What stays serial, by
-- design, is the seller's `available` row, once per open (and once per cancel): that is the check that a
-- seller cannot promise more than they hold.
--
-- Deploying: this migration replaces ledger_post and drops ledger_accounts.balance, which the code before
-- it uses. Stop every server process of the old version before starting the new one (no rolling restart
-- across this migration). It runs in one transaction; on a large ledger the new foreign key of
-- ledger_postings is checked against every posting while the table is locked.
--
-- What does not change: an account is still one per owner, coin and kind (server-rules.md "Money": per
-- user and coin an `available` and an `escrow` account), and its balance is the sum of its postings. Its
-- cached balance is now the sum of its slots. Only `escrow` and `fees` balances are split: a trade's escrow
-- goes into one slot at open and leaves the same slot at release or cancel (trades.escrow_slot), and its
-- fee lands in the fee account's slot of the same number. `available` (what a trader may spend) stays one
-- slot, so the check that a trader cannot spend more than they have sees the whole balance under one lock.
-- Every slot is checked >= 0, which is stricter than the account being >= 0: a release can only take from
-- its slot what the open put there.

-- Lets a balance slot name its account's coin and kind together (its FK below), so the not-negative and
-- one-slot rules can be checked on the slot row itself.
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_identity UNIQUE (id, coin_id, kind);

CREATE TABLE ledger_balances (
  account_id bigint NOT NULL,
  slot       smallint NOT NULL CHECK (slot BETWEEN 0 AND 63),
  coin_id    integer NOT NULL,
  kind       text NOT NULL,
  -- The cached sum of this slot's postings.
  balance    numeric NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, slot),
  -- The target of the postings' FK: a posting's coin is always its account's coin.
  UNIQUE (account_id, slot, coin_id),
  FOREIGN KEY (account_id, coin_id, kind) REFERENCES ledger_accounts (id, coin_id, kind),
  CONSTRAINT ledger_balances_one_slot CHECK (kind IN ('escrow', 'fees') OR slot = 0),
  -- The floor no interleaving can break (it was ledger_accounts_not_negative).
  CONSTRAINT ledger_balances_not_negative CHECK (kind = 'deposits' OR balance >= 0)
);

INSERT INTO ledger_balances (account_id, slot, coin_id, kind, balance)
SELECT id, 0, coin_id, kind, balance FROM ledger_accounts;

ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_not_negative;
ALTER TABLE ledger_accounts DROP COLUMN balance;

-- A posting names the slot it moved. Its FK now points at the slot row, which the posting function holds
-- locked already, rather than at the account row: a key-share lock on an account row that every
-- concurrent trade of a seller takes would itself be a point where they all meet.
ALTER TABLE ledger_postings ADD COLUMN slot smallint NOT NULL DEFAULT 0;
ALTER TABLE ledger_postings DROP CONSTRAINT ledger_postings_account_id_coin_id_fkey;
ALTER TABLE ledger_postings ADD CONSTRAINT ledger_postings_balance
  FOREIGN KEY (account_id, slot, coin_id) REFERENCES ledger_balances (account_id, slot, coin_id);

-- Balances per account, for reads (wallets, overview, previews) and the audit.
CREATE VIEW ledger_account_balances AS
SELECT a.id, a.key, a.user_id, a.coin_id, a.kind, coalesce(sum(b.balance), 0) AS balance
FROM ledger_accounts a LEFT JOIN ledger_balances b ON b.account_id = a.id
GROUP BY a.id, a.key, a.user_id, a.coin_id, a.kind;

-- The slot a trade's escrow (and its fee) uses, chosen at open. Trades opened before this migration hold
-- their escrow in slot 0, where the INSERT above put every balance.
ALTER TABLE trades ADD COLUMN escrow_slot smallint NOT NULL DEFAULT 0 CHECK (escrow_slot BETWEEN 0 AND 63);

-- ledger_post, as in 008, with one more array: the slot of each posting. Also fewer statements inside it
-- (each costs the database a round through the executor): the accounts, their slots and whether any is
-- missing are found in one query, and the slots are locked and checked in one.
DROP FUNCTION ledger_post(text, timestamptz, bigint[], integer[], text[], numeric[]);

CREATE FUNCTION ledger_post(
  p_reference text,
  p_at        timestamptz,
  p_user_ids  bigint[],
  p_coin_ids  integer[],
  p_kinds     text[],
  p_amounts   numeric[],
  p_slots     smallint[]
) RETURNS TABLE (entry_id bigint, created boolean)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_entry          bigint;
  v_row            record;
  v_short          record;
  v_is_short       boolean := false;
  v_locked         integer;
  v_key            text;
  v_no_account     boolean;
  v_no_slot        boolean;
  -- The net change per (account, slot), in lock order.
  v_ids            bigint[];
  v_slots          smallint[];
  v_coins          integer[];
  v_kinds          text[];
  v_changes        numeric[];
BEGIN
  IF cardinality(p_amounts) < 2
     OR cardinality(p_user_ids) <> cardinality(p_amounts)
     OR cardinality(p_coin_ids) <> cardinality(p_amounts)
     OR cardinality(p_kinds) <> cardinality(p_amounts)
     OR cardinality(p_slots) <> cardinality(p_amounts)
     OR array_position(p_slots, NULL) IS NOT NULL THEN
    RAISE EXCEPTION 'ledger entry % needs two or more postings, each with an account and a slot', p_reference USING ERRCODE = 'LE002';
  END IF;

  -- 1. The accounts (by ledger_accounts.key, its generated column) and their balance slots; any that do
  --    not exist yet are created (unlocked reads; a concurrent creator of the same row is waited for by
  --    ON CONFLICT, before this entry holds any lock), then looked up again.
  FOR attempt IN 1..3 LOOP
    SELECT array_agg(a.id ORDER BY a.id, d.slot), array_agg(d.slot ORDER BY a.id, d.slot),
           array_agg(a.coin_id ORDER BY a.id, d.slot), array_agg(a.kind ORDER BY a.id, d.slot),
           array_agg(d.change ORDER BY a.id, d.slot), bool_or(a.id IS NULL), bool_or(b.account_id IS NULL)
    INTO v_ids, v_slots, v_coins, v_kinds, v_changes, v_no_account, v_no_slot
    FROM (
      SELECT coalesce(t.u::text, 'platform') || ':' || t.c::text || ':' || t.k AS key, t.slot, sum(t.amount) AS change
      FROM unnest(p_user_ids, p_coin_ids, p_kinds, p_amounts, p_slots) AS t (u, c, k, amount, slot) GROUP BY 1, 2
    ) d
    LEFT JOIN ledger_accounts a ON a.key = d.key
    LEFT JOIN ledger_balances b ON b.account_id = a.id AND b.slot = d.slot;
    EXIT WHEN NOT v_no_account AND NOT v_no_slot;
    IF attempt = 3 THEN
      RAISE EXCEPTION 'ledger entry %: cannot create its accounts', p_reference USING ERRCODE = 'LE002';
    END IF;
    IF v_no_account THEN
      INSERT INTO ledger_accounts (user_id, coin_id, kind)
      SELECT DISTINCT t.u, t.c, t.k FROM unnest(p_user_ids, p_coin_ids, p_kinds) AS t (u, c, k)
      ON CONFLICT (key) DO NOTHING;
    ELSE
      INSERT INTO ledger_balances (account_id, slot, coin_id, kind)
      SELECT t.id, t.slot, t.coin, t.kind FROM unnest(v_ids, v_slots, v_coins, v_kinds) AS t (id, slot, coin, kind)
      ORDER BY t.id, t.slot
      -- No arbiter: the slot row has two unique keys (the primary key and the one the postings reference),
      -- and a concurrent creator of the same row may collide on either first.
      ON CONFLICT DO NOTHING;
    END IF;
  END LOOP;

  -- 2. Claims the reference (unique; a duplicate in flight waits here for the original to commit).
  INSERT INTO ledger_entries (reference, created_at) VALUES (p_reference, p_at)
  ON CONFLICT (reference) DO NOTHING
  RETURNING id INTO v_entry;

  IF v_entry IS NULL THEN
    SELECT e.id INTO v_entry FROM ledger_entries e WHERE e.reference = p_reference;
    -- The same net change per account and slot as the entry already made, or it is not a retry of it.
    IF EXISTS (
      SELECT 1
      FROM (
        SELECT p.account_id, p.slot, sum(p.amount) AS change
        FROM ledger_postings p WHERE p.entry_id = v_entry GROUP BY p.account_id, p.slot
      ) made
      FULL JOIN unnest(v_ids, v_slots, v_changes) AS wanted (account_id, slot, change)
        ON wanted.account_id = made.account_id AND wanted.slot = made.slot
      WHERE made.change IS DISTINCT FROM wanted.change
    ) THEN
      RAISE EXCEPTION 'reference % was already used for a different movement', p_reference USING ERRCODE = 'LE002';
    END IF;
    RETURN QUERY SELECT v_entry, false;
    RETURN;
  END IF;

  -- 3. Locks the slots, as late as possible: from here to COMMIT every other entry on these slots waits.
  --    One order for every entry (account id, then slot: how step 1 sorted the arrays), so two entries
  --    never wait for each other in a cycle; under READ COMMITTED each lock returns the row
  --    as its previous holder committed it. NO KEY UPDATE: the balance is no key, so the postings' FK checks
  --    (key share) need not wait for anyone. Each locked slot is checked as it comes: none but the
  --    platform's deposits may go below zero.
  --    Each slot is looked up by its key (LATERAL), in the arrays' order, which is the lock order: a join
  --    would leave the access path to statistics that lag behind a young ledger (see 011).
  v_locked := 0;
  FOR v_row IN
    SELECT b.account_id, b.slot, b.kind, b.balance, t.change
    FROM unnest(v_ids, v_slots, v_changes) WITH ORDINALITY AS t (id, slot, change, position)
    CROSS JOIN LATERAL (
      SELECT b.account_id, b.slot, b.kind, b.balance FROM ledger_balances b
      WHERE b.account_id = t.id AND b.slot = t.slot
      FOR NO KEY UPDATE
    ) b
    ORDER BY t.position
  LOOP
    v_locked := v_locked + 1;
    IF NOT v_is_short AND v_row.kind <> 'deposits' AND v_row.balance + v_row.change < 0 THEN
      v_short := v_row;
      v_is_short := true;
    END IF;
  END LOOP;
  IF v_locked <> cardinality(v_ids) THEN
    RAISE EXCEPTION 'ledger entry %: a balance slot vanished', p_reference USING ERRCODE = 'LE002';
  END IF;
  IF v_is_short THEN
    SELECT a.key INTO v_key FROM ledger_accounts a WHERE a.id = v_short.account_id;
    RAISE EXCEPTION 'account % (slot %) holds %, cannot apply %', v_key, v_short.slot, v_short.balance, v_short.change
      USING ERRCODE = 'LE001', DETAIL = v_key, HINT = v_short.balance::text || ' ' || v_short.change::text;
  END IF;

  -- 4. Writes the postings (in the caller's order) and moves the cached balances.
  INSERT INTO ledger_postings (entry_id, account_id, coin_id, amount, slot)
  SELECT v_entry, a.id, a.coin_id, t.amount, t.slot
  FROM unnest(p_user_ids, p_coin_ids, p_kinds, p_amounts, p_slots) WITH ORDINALITY AS t (u, c, k, amount, slot, position)
  JOIN ledger_accounts a ON a.key = coalesce(t.u::text, 'platform') || ':' || t.c::text || ':' || t.k
  ORDER BY t.position;

  UPDATE ledger_balances b SET balance = b.balance + t.change
  FROM unnest(v_ids, v_slots, v_changes) AS t (id, slot, change)
  WHERE b.account_id = t.id AND b.slot = t.slot AND t.change <> 0;

  RETURN QUERY SELECT v_entry, true;
END $$;
