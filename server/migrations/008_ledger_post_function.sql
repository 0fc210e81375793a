-- The posting function: one journal entry, posted by one call inside whatever statement needs it.
--
-- server/src/ledger/ledger.ts (postEntry) used to do this in three round trips (lock the accounts, check
-- the balances in TypeScript, write). Every round trip is paid twice, by the server and by PostgreSQL, and
-- every one of them made while holding a busy seller's account rows lengthens the queue behind those rows.
-- Inside the database the whole movement is part of one statement, so a trade action is one statement in
-- autocommit: its row locks are held from the moment it takes them to its COMMIT and no longer.
--
-- ledger_post(reference, at, user ids, coin ids, kinds, amounts): one posting per array position (user id
-- NULL for a platform account). In order:
--   1. creates any account that does not exist yet;
--   2. claims the reference (unique; a duplicate in flight waits here for the original to commit): when it
--      is taken, the same movement answers the existing entry and moves nothing (a retried request), a
--      different one is refused (SQLSTATE LE002, a bug);
--   3. locks the entry's accounts in id order (SELECT … ORDER BY id FOR UPDATE), the one order every
--      entry takes them in, so two entries never wait for each other in a cycle; under READ COMMITTED each
--      lock returns the row as its previous holder committed it;
--   4. refuses a movement that would take an account other than the platform's deposits below zero
--      (SQLSTATE LE001; DETAIL the account key, HINT "<balance> <change>");
--   5. writes the postings and moves the cached balances.
-- The caller's code checks first that the postings are non-zero and sum to zero per coin; the postings
-- trigger (007) checks it again, with the coin's places; the CHECK on ledger_accounts stands behind step 4.
CREATE FUNCTION ledger_post(
  p_reference text,
  p_at        timestamptz,
  p_user_ids  bigint[],
  p_coin_ids  integer[],
  p_kinds     text[],
  p_amounts   numeric[]
) RETURNS TABLE (entry_id bigint, created boolean)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_keys  text[];
  v_entry bigint;
  v_short record;
BEGIN
  IF cardinality(p_amounts) < 2
     OR cardinality(p_user_ids) <> cardinality(p_amounts)
     OR cardinality(p_coin_ids) <> cardinality(p_amounts)
     OR cardinality(p_kinds) <> cardinality(p_amounts) THEN
    RAISE EXCEPTION 'ledger entry % needs two or more postings, each with an account', p_reference USING ERRCODE = 'LE002';
  END IF;

  -- The keys as ledger_accounts.key spells them (its generated column).
  SELECT array_agg(DISTINCT coalesce(t.u::text, 'platform') || ':' || t.c::text || ':' || t.k)
  INTO v_keys
  FROM unnest(p_user_ids, p_coin_ids, p_kinds) AS t (u, c, k);

  IF (SELECT count(*) FROM ledger_accounts WHERE key = ANY (v_keys)) < cardinality(v_keys) THEN
    INSERT INTO ledger_accounts (user_id, coin_id, kind)
    SELECT DISTINCT t.u, t.c, t.k FROM unnest(p_user_ids, p_coin_ids, p_kinds) AS t (u, c, k)
    ON CONFLICT (key) DO NOTHING;
  END IF;

  INSERT INTO ledger_entries (reference, created_at) VALUES (p_reference, p_at)
  ON CONFLICT (reference) DO NOTHING
  RETURNING id INTO v_entry;

  IF v_entry IS NULL THEN
    SELECT e.id INTO v_entry FROM ledger_entries e WHERE e.reference = p_reference;
    -- The same net change per account as the entry already made, or it is not a retry of it.
    IF EXISTS (
      SELECT 1
      FROM (
        SELECT a.key, sum(p.amount) AS change
        FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id
        WHERE p.entry_id = v_entry GROUP BY a.key
      ) made
      FULL JOIN (
        SELECT coalesce(t.u::text, 'platform') || ':' || t.c::text || ':' || t.k AS key, sum(t.amount) AS change
        FROM unnest(p_user_ids, p_coin_ids, p_kinds, p_amounts) AS t (u, c, k, amount) GROUP BY 1
      ) wanted ON wanted.key = made.key
      WHERE made.change IS DISTINCT FROM wanted.change
    ) THEN
      RAISE EXCEPTION 'reference % was already used for a different movement', p_reference USING ERRCODE = 'LE002';
    END IF;
    RETURN QUERY SELECT v_entry, false;
    RETURN;
  END IF;

  -- Taken as late as possible: from here to COMMIT every other entry on these accounts waits.
  PERFORM 1 FROM ledger_accounts WHERE key = ANY (v_keys) ORDER BY id FOR UPDATE;

  SELECT a.key, a.balance, d.change INTO v_short
  FROM (
    SELECT coalesce(t.u::text, 'platform') || ':' || t.c::text || ':' || t.k AS key, sum(t.amount) AS change
    FROM unnest(p_user_ids, p_coin_ids, p_kinds, p_amounts) AS t (u, c, k, amount) GROUP BY 1
  ) d
  JOIN ledger_accounts a ON a.key = d.key
  WHERE a.kind <> 'deposits' AND a.balance + d.change < 0
  ORDER BY a.id
  LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'account % holds %, cannot apply %', v_short.key, v_short.balance, v_short.change
      USING ERRCODE = 'LE001', DETAIL = v_short.key, HINT = v_short.balance::text || ' ' || v_short.change::text;
  END IF;

  INSERT INTO ledger_postings (entry_id, account_id, coin_id, amount)
  SELECT v_entry, a.id, a.coin_id, t.amount
  FROM unnest(p_user_ids, p_coin_ids, p_kinds, p_amounts) WITH ORDINALITY AS t (u, c, k, amount, position)
  JOIN ledger_accounts a ON a.key = coalesce(t.u::text, 'platform') || ':' || t.c::text || ':' || t.k
  ORDER BY t.position;

  UPDATE ledger_accounts a SET balance = a.balance + d.change
  FROM (
    SELECT coalesce(t.u::text, 'platform') || ':' || t.c::text || ':' || t.k AS key, sum(t.amount) AS change
    FROM unnest(p_user_ids, p_coin_ids, p_kinds, p_amounts) AS t (u, c, k, amount) GROUP BY 1
  ) d
  WHERE a.key = d.key AND d.change <> 0;

  RETURN QUERY SELECT v_entry, true;
END $$;
