-- The postings check of 007, written so that its plan cannot depend on how fresh the statistics are.
--
-- 007 summed the postings of the statement's entries with `WHERE p.entry_id IN (SELECT … FROM new_postings)`.
-- On a young or fast-growing ledger, before autoanalyze has seen ledger_postings grow, PostgreSQL may plan
-- that as a merge join over the whole of ledger_postings_by_entry: every posting insert then read every
-- posting ever made (bench/trades.ts measured ~14,000 rows read per insert after 27,000 postings, and a
-- trade costing three times the database CPU it costs once the table is analysed). Looking each entry up
-- by itself (LATERAL, equality on the indexed column) reads only that entry's postings, whatever the
-- planner believes about the table's size.
CREATE OR REPLACE FUNCTION ledger_check_postings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (
    SELECT 1
    FROM (SELECT DISTINCT entry_id FROM new_postings) n
    CROSS JOIN LATERAL (
      SELECT p.coin_id FROM ledger_postings p WHERE p.entry_id = n.entry_id GROUP BY p.coin_id HAVING sum(p.amount) <> 0
    ) unbalanced
  ) THEN
    RAISE EXCEPTION 'a ledger entry does not sum to zero per coin' USING ERRCODE = 'check_violation';
  END IF;
  IF EXISTS (
    SELECT 1 FROM new_postings n JOIN coins c ON c.id = n.coin_id WHERE n.amount <> round(n.amount, c.decimal_places)
  ) THEN
    RAISE EXCEPTION 'a ledger posting has more decimal places than its coin' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
