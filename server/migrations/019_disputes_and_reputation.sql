-- Disputes that end, and reputation (issue 13; docs/rules.md "Disputes" and "Reputation").
--
-- Deploying: like 010, the backfills below count what exists when they run, and code from before this
-- migration marks trades paid and expires them without counting. Stop every server process of the old
-- version first, or a trade concluded meanwhile would be missing from its traders' completion rates for good.

-- Moderators settle disputes. The role is granted and taken back only from the command line
-- (`npm run user:role -- <username> moderator|trader`), never through the API.
ALTER TABLE users ADD COLUMN role text NOT NULL DEFAULT 'trader' CHECK (role IN ('trader', 'moderator'));

ALTER TABLE trades
  -- What the buyer stated when marking paid ("J. Smith, Revolut"): the seller checks it against the money
  -- that arrived (a different name is the mark of third-party fraud), and so does a moderator.
  ADD COLUMN payer_account   text CHECK (char_length(payer_account) BETWEEN 1 AND 120),
  -- When the dispute was raised: the desk's order and the wait both traders see.
  ADD COLUMN disputed_at     timestamptz,
  -- A moderator's settlement: the coins went to the buyer (release) or back to the seller (refund), why,
  -- by whom and when. The trade's facts then read completed or cancelled, as the lifecycle chart says.
  ADD COLUMN resolution      text CHECK (resolution IN ('release', 'refund')),
  ADD COLUMN resolution_text text CHECK (char_length(resolution_text) BETWEEN 1 AND 2000),
  ADD COLUMN resolved_by     bigint REFERENCES users (id),
  ADD COLUMN resolved_at     timestamptz,
  ADD CONSTRAINT trades_resolution_whole CHECK (
    (resolution IS NULL AND resolution_text IS NULL AND resolved_by IS NULL AND resolved_at IS NULL)
    OR (resolution IS NOT NULL AND resolution_text IS NOT NULL AND resolved_by IS NOT NULL AND resolved_at IS NOT NULL
        AND status = CASE resolution WHEN 'release' THEN 'completed' ELSE 'cancelled' END)
  );

-- Disputes raised before this migration have no time of their own; the payment is the closest fact kept.
UPDATE trades SET disputed_at = coalesce(paid_at, created_at) WHERE dispute_raised;
ALTER TABLE trades ADD CONSTRAINT trades_disputed_when CHECK (NOT dispute_raised OR disputed_at IS NOT NULL);

-- The desk's list: the open disputes, oldest first.
CREATE INDEX trades_open_disputes ON trades (disputed_at, id) WHERE dispute_raised;

-- A moderator's chat message: shown to the traders as from "Moderator", whoever wrote it.
ALTER TABLE chat_messages ADD COLUMN from_moderator boolean NOT NULL DEFAULT false;

-- After a completed trade each party may rate the other once.
CREATE TABLE trade_ratings (
  trade_id    bigint NOT NULL REFERENCES trades (id),
  rater_id    bigint NOT NULL REFERENCES users (id),
  ratee_id    bigint NOT NULL REFERENCES users (id),
  score       smallint NOT NULL CHECK (score BETWEEN 1 AND 5),
  -- Stored as written (trimmed), rendered as text; '' when none.
  comment     text NOT NULL DEFAULT '' CHECK (char_length(comment) <= 500),
  created_at  timestamptz NOT NULL,
  PRIMARY KEY (trade_id, rater_id),
  CHECK (rater_id <> ratee_id)
);
-- A profile's newest comments.
CREATE INDEX trade_ratings_by_ratee ON trade_ratings (ratee_id, created_at DESC, trade_id DESC);

-- Each trader's ratings, summed as they are given (in the rating's own statement), so that a page of offers
-- reads one row per trader rather than all of their ratings. The average is score_total / ratings.
CREATE TABLE trader_ratings (
  user_id      bigint PRIMARY KEY REFERENCES users (id),
  score_total  bigint NOT NULL CHECK (score_total >= 0),
  ratings      integer NOT NULL CHECK (ratings >= 0)
);

-- The completion rate's denominator, beside the completed count of 010 and on the same slots: a trade
-- counts once for a trader when it reaches payment (both parties, at mark_paid) or when its payment window
-- runs out with them as the buyer who did not pay (the sweep). The rate is completed / concluded.
ALTER TABLE trader_trade_counts ADD COLUMN concluded integer NOT NULL DEFAULT 0 CHECK (concluded >= 0);

INSERT INTO trader_trade_counts (user_id, slot, completed, concluded)
SELECT party, 0, 0, count(*)
FROM (
  SELECT buyer_id AS party FROM trades WHERE paid_at IS NOT NULL
  UNION ALL
  SELECT seller_id FROM trades WHERE paid_at IS NOT NULL
  UNION ALL
  -- Expired: cancelled by nobody (the payment window), never paid.
  SELECT buyer_id FROM trades WHERE status = 'cancelled' AND cancelled_by IS NULL AND paid_at IS NULL
) concluded
GROUP BY party
ON CONFLICT (user_id, slot) DO UPDATE SET concluded = trader_trade_counts.concluded + excluded.concluded;
