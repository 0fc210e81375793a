-- Each party's unread count of a conversation is kept with their read mark (036) instead of counted at every read
-- (bench/README.md "Unread counts kept, not counted"): the count scanned every message after the mark, twice per
-- message sent (both parties' counts), so a conversation one side had not opened for a while made each new
-- message dearer. Now a trader's message adds one to its recipient's count, a moderator's to both parties', a
-- system message to nobody's (what `unread` counts: docs/api.md "Chat calls"), and a read mark counts again what
-- is left after it (server/src/chat/chat.repository.ts `send`, `insertModeratorMessage`, `markRead`).
--
-- A party with no row has nothing unread: a message to someone without a row writes one (mark 0, which is no
-- mark). Written so that running it again recounts every row from the marks (tests/server/
-- conversation-reads-backfill.test.ts replays it).

ALTER TABLE conversation_reads ADD COLUMN IF NOT EXISTS unread integer NOT NULL DEFAULT 0 CHECK (unread >= 0);

-- A row for every party who was written a message and has none yet.
INSERT INTO conversation_reads (trade_id, user_id, last_read_id)
SELECT t.id, party.user_id, 0
FROM trades t
CROSS JOIN LATERAL (VALUES (t.buyer_id), (t.seller_id)) AS party (user_id)
WHERE EXISTS (SELECT FROM chat_messages m WHERE m.trade_id = t.id AND m.sender_id <> party.user_id)
ON CONFLICT (trade_id, user_id) DO NOTHING;

-- Every count, from its mark: the messages others wrote after it (a system message's sender_id is NULL).
UPDATE conversation_reads r
SET unread = (SELECT count(*) FROM chat_messages m WHERE m.trade_id = r.trade_id AND m.sender_id <> r.user_id AND m.id > r.last_read_id);

-- 036's function: unused since the counts were written into each statement (commit 7ab14cb), and now read from here.
DROP FUNCTION IF EXISTS unread_messages(bigint, bigint);
