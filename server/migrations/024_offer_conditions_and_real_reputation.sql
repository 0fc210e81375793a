-- Offers the owner guards, and reputation from real trades only (docs/rules.md "Offers", "Trades", "Reputation").
--
-- 1. Counterparty conditions an offer's owner may set, and the offer's own cap of pending trades: a fresh account
--    could open trades at the maximum on anyone's offer and mark them paid, freezing the seller's coins until a
--    moderator settled each dispute; one taker could fill a buy offer's owner's own MAX_OPEN_TRADES.
-- 2. Each pending trade takes one of its offer's numbered places (as 014 gives it one of its buyer's), so however
--    many opens race, an offer never holds more pending trades than its max_open_trades. A buyer's places are now
--    taken only by trades the buyer opened as the taker: a trade someone opens on your buy offer is bounded by the
--    offer, not by your own MAX_OPEN_TRADES.
-- 3. A trade counts toward reputation (completed and concluded trades, ratings) only when it was worth at least
--    REPUTATION_MIN_TRADE_USD when it opened, decided at open and kept on the trade (counts_for_reputation); and one
--    counterparty counts once in a trader's average, with their latest rating. The counters are recounted below
--    under these rules, as 020 recounted `concluded`.
--
-- Deploying: like 014 and 020, stop every server process of the old version first. They open trades without an
-- offer place or counts_for_reputation, which the constraints below refuse, and they count trades and ratings
-- under the old rules, which the recount below could not see. The recount judges the trades that exist by the
-- default minimum, 10 USD (a migration cannot read the environment); a different REPUTATION_MIN_TRADE_USD applies
-- to trades opened from then on.

ALTER TABLE offers
  ADD COLUMN min_completed_trades integer NOT NULL DEFAULT 0 CHECK (min_completed_trades BETWEEN 0 AND 100000),
  ADD COLUMN min_account_days     integer NOT NULL DEFAULT 0 CHECK (min_account_days BETWEEN 0 AND 3650),
  ADD COLUMN require_two_factor   boolean NOT NULL DEFAULT false,
  ADD COLUMN max_open_trades      smallint NOT NULL DEFAULT 3 CHECK (max_open_trades BETWEEN 1 AND 20);

ALTER TABLE trades
  ADD COLUMN offer_place smallint CHECK (offer_place >= 0),
  ADD COLUMN counts_for_reputation boolean;

-- What each trade was worth at its frozen price: the escrow (the fee included) at the coin's USD price then.
UPDATE trades SET counts_for_reputation = trading_amount_crypto * coin_usd_price >= 10;
ALTER TABLE trades ALTER COLUMN counts_for_reputation SET NOT NULL;

-- Trades pending now take their offer's places in the order they were opened. An offer may hold more than its cap
-- (3 unless its owner raises it); those trades stay, and the offer takes no new one until it is under its cap again.
UPDATE trades AS t SET offer_place = placed.place
FROM (
  SELECT id, row_number() OVER (PARTITION BY offer_id ORDER BY created_at, id) - 1 AS place
  FROM trades WHERE status = 'pending'
) AS placed
WHERE t.id = placed.id;

-- A trade opened on a buy offer was opened by its seller: it leaves its buyer's (the owner's) places. Every pending
-- trade holds an offer place from now on, and a buyer's place only when the buyer opened it.
ALTER TABLE trades DROP CONSTRAINT trades_pending_have_a_place;
UPDATE trades AS t SET buyer_place = NULL
FROM offers o
WHERE o.id = t.offer_id AND o.offer_type = 'buy' AND t.buyer_place IS NOT NULL;

ALTER TABLE trades ADD CONSTRAINT trades_pending_have_an_offer_place CHECK (status <> 'pending' OR offer_place IS NOT NULL);
CREATE UNIQUE INDEX trades_offer_places ON trades (offer_id, offer_place) WHERE status = 'pending';

-- Completed and concluded trades, recounted into slot 0 (as 020 did) with only the trades that count.
UPDATE trader_trade_counts SET completed = 0, concluded = 0 WHERE completed <> 0 OR concluded <> 0;

INSERT INTO trader_trade_counts (user_id, slot, completed, concluded)
SELECT party, 0, sum(completed), sum(concluded)
FROM (
  SELECT buyer_id AS party, 1 AS completed, 1 AS concluded FROM trades WHERE status = 'completed' AND counts_for_reputation
  UNION ALL
  SELECT seller_id, 1, 1 FROM trades WHERE status = 'completed' AND counts_for_reputation
  UNION ALL
  -- Expired: cancelled by nobody (the payment window), never paid, never settled.
  SELECT buyer_id, 0, 1 FROM trades
  WHERE status = 'cancelled' AND cancelled_by IS NULL AND paid_at IS NULL AND resolution IS NULL AND counts_for_reputation
  UNION ALL
  -- Refunded by a moderator: the buyer's payment was not found.
  SELECT buyer_id, 0, 1 FROM trades WHERE resolution = 'refund' AND counts_for_reputation
) counted
GROUP BY party
ON CONFLICT (user_id, slot) DO UPDATE SET completed = excluded.completed, concluded = excluded.concluded;

-- Each rater's latest rating of each trader: what the average is over. `previous_score` is the score the latest
-- rating replaced (null for a rater's first), kept so that the statement replacing it takes it out of the totals
-- without reading the rater's history (reputation/ratings.repository.ts).
CREATE TABLE trader_raters (
  ratee_id       bigint NOT NULL REFERENCES users (id),
  rater_id       bigint NOT NULL REFERENCES users (id),
  trade_id       bigint NOT NULL,
  score          smallint NOT NULL CHECK (score BETWEEN 1 AND 5),
  previous_score smallint CHECK (previous_score BETWEEN 1 AND 5),
  rated_at       timestamptz NOT NULL,
  PRIMARY KEY (ratee_id, rater_id),
  FOREIGN KEY (trade_id, rater_id) REFERENCES trade_ratings (trade_id, rater_id)
);
-- A profile's ratings: each rater's latest, newest first.
CREATE INDEX trader_raters_newest ON trader_raters (ratee_id, rated_at DESC, trade_id DESC);

INSERT INTO trader_raters (ratee_id, rater_id, trade_id, score, rated_at)
SELECT DISTINCT ON (r.ratee_id, r.rater_id) r.ratee_id, r.rater_id, r.trade_id, r.score, r.created_at
FROM trade_ratings r JOIN trades t ON t.id = r.trade_id
WHERE t.counts_for_reputation
ORDER BY r.ratee_id, r.rater_id, r.created_at DESC, r.trade_id DESC;

-- The totals: score_total now sums each rater's latest score, `raters` counts them (the average is
-- score_total / raters), and `ratings` counts every rating of a trade that counts.
ALTER TABLE trader_ratings ADD COLUMN raters integer NOT NULL DEFAULT 0 CHECK (raters >= 0);
DELETE FROM trader_ratings;
INSERT INTO trader_ratings (user_id, score_total, ratings, raters)
SELECT latest.ratee_id, latest.score_total, given.ratings, latest.raters
FROM (SELECT ratee_id, sum(score) AS score_total, count(*) AS raters FROM trader_raters GROUP BY ratee_id) latest
JOIN (
  SELECT r.ratee_id, count(*) AS ratings
  FROM trade_ratings r JOIN trades t ON t.id = r.trade_id
  WHERE t.counts_for_reputation
  GROUP BY r.ratee_id
) given ON given.ratee_id = latest.ratee_id;
