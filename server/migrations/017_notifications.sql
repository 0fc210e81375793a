-- Notifications and web push (issue 12, contract.md "Notifications and web push", realtime.md 5–7).

-- What the bell lists: one row per notification, written in the same transaction (or statement) as the
-- event that caused it, so a rolled-back event leaves none and a committed one always has its own.
CREATE TABLE notifications (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id     bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- What made it (server/src/notifications/notify.ts NOTIFICATION_KINDS): for tests and future filters.
  kind        text NOT NULL CHECK (kind ~ '^[a-z_]+$'),
  title       text NOT NULL CHECK (length(title) BETWEEN 1 AND 120),
  body        text NOT NULL CHECK (length(body) <= 500),
  -- The page it points to, a path of the web app (`/chat?channel=…`, `/wallets/transactions`), or null.
  link        text CHECK (link IS NULL OR link LIKE '/%'),
  -- Unread ("fresh" in the spec): set false by open_one / open_all.
  fresh       boolean NOT NULL DEFAULT true,
  created_at  timestamptz NOT NULL
);
-- The list (newest 50 of a user) and the unread count.
CREATE INDEX notifications_user_newest ON notifications (user_id, id DESC);
CREATE INDEX notifications_user_fresh ON notifications (user_id) WHERE fresh;

-- The durable outbox of web pushes: written with the notification, in the same transaction, and emptied
-- by the push worker (packages/push-service/worker.ts), which survives restarts because its queue is this table.
-- A row is one Beams-style publish: to users (usernames, Beams user ids) or to interests, with the `web`
-- body of realtime.md 5.5. The built-in service expands it into `push_deliveries`; hosted Beams gets it
-- whole through @pusher/push-notifications-server.
CREATE TABLE push_publishes (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- The publish id the payload's `data.pusher.publishId` carries.
  publish_id      text NOT NULL UNIQUE,
  users           text[] NOT NULL DEFAULT '{}',
  interests       text[] NOT NULL DEFAULT '{}',
  web             jsonb NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  created_at      timestamptz NOT NULL,
  CHECK (cardinality(users) > 0 OR cardinality(interests) > 0)
);
CREATE INDEX push_publishes_due ON push_publishes (next_attempt_at);

-- A browser registered through the Beams-compatible device API (realtime.md 5.2), spec section 3
-- "Push device state". The subscription is the browser's PushSubscription.toJSON(), kept as parts.
CREATE TABLE push_devices (
  id           text PRIMARY KEY,
  instance_id  text NOT NULL,
  -- The base64 token the SDK sent (it compares it with the live subscription).
  token        text NOT NULL,
  endpoint     text NOT NULL,
  p256dh       text NOT NULL,
  auth         text NOT NULL,
  -- Bound once by PUT …/user with a Beams JWT; never changed to another user.
  user_id      bigint REFERENCES users (id) ON DELETE CASCADE,
  sdk_version  text,
  user_agent   text,
  created_at   timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL
);
CREATE INDEX push_devices_user ON push_devices (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE push_device_interests (
  device_id text NOT NULL REFERENCES push_devices (id) ON DELETE CASCADE,
  interest  text NOT NULL CHECK (interest ~ '^[A-Za-z0-9_=@,.-]{1,164}$'),
  PRIMARY KEY (device_id, interest)
);
CREATE INDEX push_device_interests_interest ON push_device_interests (interest);

-- One encrypted push to one device, retried with backoff until the push service takes it (2xx), says the
-- subscription is gone (404/410: the device is deleted, and these rows with it), or the attempts run out.
CREATE TABLE push_deliveries (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  device_id       text NOT NULL REFERENCES push_devices (id) ON DELETE CASCADE,
  -- The realtime.md 6.4 payload, before encryption (at most 3993 bytes as JSON).
  payload         jsonb NOT NULL,
  ttl_seconds     integer NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  last_error      text,
  created_at      timestamptz NOT NULL
);
CREATE INDEX push_deliveries_due ON push_deliveries (next_attempt_at);
