-- Web push urgency (RFC 8030 section 5.3): a push service may hold back a `normal` message on a phone saving
-- its battery, never a `high` one. Trade events are `high` (a payment window is running), the rest `normal`.
-- The worker decides it when it expands a publish (packages/push-service/worker.ts) and keeps it per delivery.
ALTER TABLE push_publishes ADD COLUMN urgency text NOT NULL DEFAULT 'normal' CHECK (urgency IN ('very-low', 'low', 'normal', 'high'));
ALTER TABLE push_deliveries ADD COLUMN urgency text NOT NULL DEFAULT 'normal' CHECK (urgency IN ('very-low', 'low', 'normal', 'high'));
-- Devices registered but never bound to a user are purged after a while (the device API is open to anyone).
CREATE INDEX push_devices_unbound ON push_devices (last_seen_at) WHERE user_id IS NULL;
