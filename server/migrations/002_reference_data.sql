-- Reference tables that offers, trades and wallets point at. Prices and rates are exact decimals.

CREATE TABLE coins (
  id             serial PRIMARY KEY,
  label          text NOT NULL,
  ticker         text NOT NULL UNIQUE CHECK (ticker ~ '^[A-Z0-9]{2,10}$'),
  -- No stored amount of this coin may have more decimal places than this.
  decimal_places smallint NOT NULL CHECK (decimal_places BETWEEN 0 AND 18),
  usd_price      numeric NOT NULL CHECK (usd_price > 0),
  -- A path served by the web app (public/coins/*.svg); nothing is loaded from other hosts.
  image          text NOT NULL
);

CREATE TABLE coin_networks (
  id      serial PRIMARY KEY,
  coin_id integer NOT NULL REFERENCES coins (id) ON DELETE CASCADE,
  name    text NOT NULL,
  -- The key the web app sends as `network` (e.g. "erc20"); unique per coin, shared across coins.
  key     text NOT NULL CHECK (key ~ '^[a-z0-9_]+$'),
  image   text NOT NULL,
  UNIQUE (coin_id, key)
);

CREATE TABLE fiat_currencies (
  code     text PRIMARY KEY CHECK (code ~ '^[A-Z]{3}$'),
  name     text NOT NULL,
  -- Units of this currency per 1 USD, the same direction as an offer's rate.
  usd_rate numeric NOT NULL CHECK (usd_rate > 0)
);

CREATE TABLE payment_methods (
  id   serial PRIMARY KEY,
  name text NOT NULL UNIQUE
);
