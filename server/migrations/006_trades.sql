-- Trades (server-rules.md "Trades") and their conversations. A trade freezes at open everything its
-- money depends on (coin, rate, USD price, amounts, fee), so later edits of the offer or price ticks
-- change nothing about it. Its place in the lifecycle chart (src/machines/tradeLifecycle) is the three
-- facts status, buyer_paid and dispute_raised; every action changes them with a compare-and-set on the
-- facts it read, so of two racing actions exactly one applies.

CREATE TABLE trades (
  id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  offer_id              bigint NOT NULL REFERENCES offers (id),
  -- Sell offer: the owner sells to the taker. Buy offer: the owner buys from the taker.
  buyer_id              bigint NOT NULL REFERENCES users (id),
  seller_id             bigint NOT NULL REFERENCES users (id),
  coin_id               integer NOT NULL REFERENCES coins (id),
  currency_code         text NOT NULL REFERENCES fiat_currencies (code),
  -- Frozen at open: fiat per 1 USD (the offer's rate) and USD per coin (the price then).
  rate                  numeric NOT NULL CHECK (rate > 0),
  coin_usd_price        numeric NOT NULL CHECK (coin_usd_price > 0),
  -- Fiat, 2 places: what the taker asked for, the fee's share and the buyer's share.
  trading_amount        numeric(20, 2) NOT NULL CHECK (trading_amount > 0),
  fee_local             numeric(20, 2) NOT NULL CHECK (fee_local >= 0),
  amount_local          numeric(20, 2) NOT NULL CHECK (amount_local > 0),
  -- Crypto, at most the coin's places: the escrow, the platform's fee and what the buyer receives.
  trading_amount_crypto numeric NOT NULL CHECK (trading_amount_crypto > 0),
  fee_crypto            numeric NOT NULL CHECK (fee_crypto >= 0),
  amount_crypto         numeric NOT NULL CHECK (amount_crypto > 0),
  payment_method        text NOT NULL,
  -- The chat and realtime channel: 128 random bits, base64url. Actions are addressed by it.
  channel               text NOT NULL UNIQUE CHECK (channel ~ '^[A-Za-z0-9_-]{22}$'),
  status                text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed', 'cancelled')),
  buyer_paid            boolean NOT NULL DEFAULT false,
  dispute_raised        boolean NOT NULL DEFAULT false,
  dispute_reason        text CHECK (char_length(dispute_reason) BETWEEN 1 AND 2000),
  disputed_by           bigint REFERENCES users (id),
  -- Who cancelled (NULL: the payment window ran out).
  cancelled_by          bigint REFERENCES users (id),
  created_at            timestamptz NOT NULL,
  paid_at               timestamptz,
  closed_at             timestamptz,
  CHECK (buyer_id <> seller_id),
  -- The fee rounding identity of server-rules.md: fee + buyer's share = the whole, in crypto and in fiat.
  CHECK (fee_crypto + amount_crypto = trading_amount_crypto),
  CHECK (fee_local + amount_local = trading_amount),
  -- The chart's facts that can never hold together.
  CHECK (NOT dispute_raised OR buyer_paid),
  CHECK (status <> 'completed' OR (buyer_paid AND NOT dispute_raised)),
  CHECK (status <> 'cancelled' OR (NOT buyer_paid AND NOT dispute_raised))
);

-- A trader's trades newest first, as buyer and as seller (history, overview, conversations).
CREATE INDEX trades_by_buyer ON trades (buyer_id, created_at DESC, id DESC);
CREATE INDEX trades_by_seller ON trades (seller_id, created_at DESC, id DESC);
-- The payment-window sweep reads only the trades it may expire, oldest first.
CREATE INDEX trades_awaiting_payment ON trades (created_at, id) WHERE status = 'pending' AND NOT buyer_paid;

-- One conversation per trade, opened with it. It exists apart from the trade so that chat traffic
-- (issue 5) writes here and never contends with the trade row an action is updating.
CREATE TABLE conversations (
  trade_id         bigint PRIMARY KEY REFERENCES trades (id),
  -- The time of the newest message: the conversation list's order.
  last_message_at  timestamptz NOT NULL
);

CREATE TABLE chat_messages (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  trade_id        bigint NOT NULL REFERENCES conversations (trade_id),
  -- NULL: a system message (an action, the payment window).
  sender_id       bigint REFERENCES users (id),
  -- "all", or the one username the message is for.
  recipient       text NOT NULL DEFAULT 'all',
  -- Stored as written, rendered as text (server-rules.md "Abuse").
  text            text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 4000),
  created_at      timestamptz NOT NULL
);
CREATE INDEX chat_messages_by_trade ON chat_messages (trade_id, id DESC);
