-- Internal transfers (contract.md "Wallets"): a withdrawal to another trader's deposit address settles in the
-- ledger at once (`transfer:<withdrawal id>`) and gives the recipient a completed `internal` deposit. That
-- deposit never touched a chain, so it has no txid and no output, which 015's CHECK
-- `trans_type = 'withdrawal' OR (txid IS NOT NULL AND vout IS NOT NULL)` refuses.
--
-- That CHECK was left unnamed, so its name is whatever PostgreSQL generated: it is found by the columns it
-- reads (trans_type, txid, vout: no other CHECK of the table reads exactly these), and exactly one must match.
DO $$
DECLARE
  found text[];
BEGIN
  SELECT array_agg(c.conname) INTO found
  FROM pg_constraint c
  WHERE c.conrelid = 'wallet_transactions'::regclass AND c.contype = 'c'
    AND (SELECT array_agg(a.attname::text ORDER BY a.attname)
         FROM pg_attribute a WHERE a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)) = ARRAY['trans_type', 'txid', 'vout'];
  IF coalesce(array_length(found, 1), 0) <> 1 THEN
    RAISE EXCEPTION 'expected one CHECK of wallet_transactions on (trans_type, txid, vout), found %', coalesce(found::text, 'none');
  END IF;
  EXECUTE format('ALTER TABLE wallet_transactions DROP CONSTRAINT %I', found[1]);
END
$$;

-- A deposit from the chain names its transaction and output; an internal one names neither (its
-- credit_reference, `transfer:<id>`, ties it to the sender's withdrawal instead).
ALTER TABLE wallet_transactions ADD CONSTRAINT wallet_transactions_deposit_origin_check
  CHECK (trans_type = 'withdrawal'
         OR (scope = 'external' AND txid IS NOT NULL AND vout IS NOT NULL)
         OR (scope = 'internal' AND txid IS NULL AND vout IS NULL));
