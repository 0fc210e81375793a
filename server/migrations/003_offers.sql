-- Offers (server-rules.md "Offers") and the indexes that keep Browse Offers fast at 100,000 offers.

-- Trigram indexes make the trader search (username ILIKE '%text%') an index lookup instead of a scan of
-- every user. pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may create it, no
-- superuser needed. PGlite loads its build of it at start (infra/db/pglite.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE offers (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id            bigint NOT NULL REFERENCES users (id),
  offer_type         text NOT NULL CHECK (offer_type IN ('buy', 'sell')),
  coin_id            integer NOT NULL REFERENCES coins (id),
  currency_code      text NOT NULL REFERENCES fiat_currencies (code),
  -- Fiat units per 1 USD, like fiat_currencies.usd_rate; up to 8 places.
  rate               numeric(26, 8) NOT NULL CHECK (rate > 0),
  -- Fiat amounts: 2 places.
  min_amount         numeric(20, 2) NOT NULL CHECK (min_amount > 0),
  max_amount         numeric(20, 2) NOT NULL CHECK (max_amount >= min_amount),
  -- The accepted payment methods in the owner's order. An array rather than a join table: the list
  -- filter "accepts any of these" is one `&&` that a GIN index answers, each listed offer is one row
  -- with no aggregation, and an offer holds at most 5. The price is no foreign key per element: the
  -- server checks every id against payment_methods when it writes, and methods are never deleted.
  payment_method_ids integer[] NOT NULL CHECK (
    cardinality(payment_method_ids) BETWEEN 1 AND 5
    AND array_ndims(payment_method_ids) = 1
    AND array_position(payment_method_ids, NULL) IS NULL
  ),
  -- As the owner wrote it; NULL when there are none.
  terms              text CHECK (char_length(terms) BETWEEN 1 AND 2000),
  -- A paused offer (false) is not listed and cannot be traded.
  is_active          boolean NOT NULL DEFAULT true,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL
);

-- The list shows active offers newest first (created_at DESC, id DESC) in pages of 12. Every index below
-- is partial (WHERE is_active), so paused offers cost the list nothing, and each ends in the list's order,
-- so a filtered page is read straight off the index, 13 rows (one more tells whether a next page exists)
-- and no sort.
CREATE INDEX offers_live_newest ON offers (created_at DESC, id DESC) WHERE is_active;
-- A filter on one coin or one currency: the rows of that value, already in order.
CREATE INDEX offers_live_by_coin ON offers (coin_id, created_at DESC, id DESC) WHERE is_active;
CREATE INDEX offers_live_by_currency ON offers (currency_code, created_at DESC, id DESC) WHERE is_active;
-- The market a trader usually browses: one coin for one currency ("buy BTC with EUR"), possibly narrowed
-- further by type, method or trader. Without it that combination walks one of the two indexes above and
-- skips the other coins' or currencies' rows (4–7× more rows read for a page).
CREATE INDEX offers_live_by_coin_currency ON offers (coin_id, currency_code, created_at DESC, id DESC) WHERE is_active;
-- The trader search resolves to a few users first, then reads their offers in order. The same index
-- counts a user's active offers for the dashboard.
CREATE INDEX offers_live_by_user ON offers (user_id, created_at DESC, id DESC) WHERE is_active;
-- "Accepts any of these methods" when the methods chosen are rare (the common ones are found faster by
-- walking offers_live_newest and checking each row).
CREATE INDEX offers_live_payment_methods ON offers USING gin (payment_method_ids) WHERE is_active;
-- offer_type has no index of its own: it halves the rows at best, so walking the newest-first index and
-- skipping the other half is as fast as any index on it would be.

CREATE INDEX users_username_trigrams ON users USING gin (username gin_trgm_ops);
