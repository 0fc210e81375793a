-- What each party of a trade has read of its conversation (docs/api.md "Chat calls"): the conversation list's
-- unread count is the messages written to them (the partner's, a moderator's; not the system's) after the
-- newest message they had when they last opened or read it.
--
-- A table of its own, not columns of `conversations`: a trade's change locks its conversation row
-- (lock_trade_change, 025) and every chat message moves it up the list, so marking read there would wait on
-- both; here it writes one row of the reader's own, which nothing else locks.

CREATE TABLE conversation_reads (
  trade_id      bigint NOT NULL REFERENCES conversations (trade_id),
  user_id       bigint NOT NULL REFERENCES users (id),
  -- The newest message of the conversation when it was last read: every message up to it has been seen.
  last_read_id  bigint NOT NULL,
  PRIMARY KEY (trade_id, user_id)
);

-- The unread count of one party of one trade, written once for the list, the live `conversation` events and
-- a sent message's answer to both parties. A message's sender_id is NULL for a system message, so `<>` leaves
-- those out with the reader's own. The count reads chat_messages_by_trade (006) from the last read message on.
CREATE FUNCTION unread_messages(p_trade bigint, p_reader bigint) RETURNS integer
LANGUAGE sql STABLE AS $$
  SELECT count(*)::integer
  FROM chat_messages m
  WHERE m.trade_id = p_trade
    AND m.sender_id <> p_reader
    AND m.id > coalesce((SELECT r.last_read_id FROM conversation_reads r WHERE r.trade_id = p_trade AND r.user_id = p_reader), 0)
$$;
