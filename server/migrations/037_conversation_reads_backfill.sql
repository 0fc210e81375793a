-- Migration 036 started every conversation with no read mark, so on a database that had trades before it every
-- message a trader was ever written counted as unread, finished trades' included (where no new message can come,
-- so only opening each one cleared it). What was there before the unread counts existed counts as read: both
-- parties of every trade with messages, up to its newest message. A mark written since 036 ran is kept.
INSERT INTO conversation_reads (trade_id, user_id, last_read_id)
SELECT t.id, party.user_id, newest.id
FROM trades t
CROSS JOIN LATERAL (VALUES (t.buyer_id), (t.seller_id)) AS party (user_id)
JOIN LATERAL (SELECT max(m.id) AS id FROM chat_messages m WHERE m.trade_id = t.id) AS newest ON newest.id IS NOT NULL
ON CONFLICT (trade_id, user_id) DO NOTHING;
