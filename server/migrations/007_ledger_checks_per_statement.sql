-- The ledger's own checks, once per INSERT statement instead of once per posting row at commit.
--
-- postEntry writes all postings of an entry in one INSERT, so checking every entry that statement touched
-- right after it proves the same thing as the deferred per-row trigger of 005 did, with one trigger call
-- per entry instead of one per posting (each of which re-summed the whole entry). It is also stricter:
-- an entry's postings must arrive in one statement, and an unbalanced statement fails at once rather
-- than at COMMIT. A later statement adding postings to an old entry is checked the same way, because the
-- sum is taken over all the entry's postings, not only the new ones.

DROP TRIGGER ledger_postings_balanced ON ledger_postings;
DROP FUNCTION ledger_check_entry();

CREATE FUNCTION ledger_check_postings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM ledger_postings p
    WHERE p.entry_id IN (SELECT entry_id FROM new_postings)
    GROUP BY p.entry_id, p.coin_id HAVING sum(p.amount) <> 0
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

CREATE TRIGGER ledger_postings_balanced
  AFTER INSERT ON ledger_postings
  REFERENCING NEW TABLE AS new_postings
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_check_postings();

-- Every trade writes five postings; nothing reads them by account yet (the audit sums them all in one
-- pass). An account statement, when it comes, brings the index it needs.
DROP INDEX ledger_postings_by_account;
