import { MODERATOR_SENDER } from '../../../contracts/chat.ts';
import { PREPARED, sqlParams, type Queryable } from '../infra/db/db.ts';
import { NOTIFIED_JSON, notificationSteps, notifiedOf, type NotificationDraft, type Notified } from '../notifications/notify.ts';
import type { DisputeOutcome, TradeFacts } from '../../../contracts/trade.ts';
import { auditStep, type AuditRecord } from '../audit/audit.repository.ts';

/**
 * What a conversation shows of a trade besides its facts: the paying account, the dispute, its settlement, and
 * which trade it is (its coin and amounts), so several trades with one partner tell themselves apart in the list.
 */
export interface ConversationAdditionsRow {
  payer_account: string | null;
  disputed_at: Date | null;
  resolution: DisputeOutcome | null;
  resolution_text: string | null;
  resolved_at: Date | null;
  coin_ticker: string;
  coin_decimal_places: number;
  /** numeric columns, read as text: exact. */
  amount_crypto: string;
  trading_amount: string;
  currency_code: string;
}
/** The columns of ConversationAdditionsRow, of the trade aliased `t` and its coin aliased `c` (CONVERSATION_COIN). */
export const CONVERSATION_ADDITIONS = `t.payer_account, t.disputed_at, t.resolution, t.resolution_text, t.resolved_at,
  c.ticker AS coin_ticker, c.decimal_places AS coin_decimal_places, t.amount_crypto, t.trading_amount, t.currency_code`;
/** The join CONVERSATION_ADDITIONS reads the trade's coin through. */
export const CONVERSATION_COIN = 'JOIN coins c ON c.id = t.coin_id';

/** A party's rating of the other for one trade (trade_ratings), as two nullable columns of a LEFT JOIN. */
export interface RatingColumns {
  score: number | null;
  comment: string | null;
}

/** A trade's row id, its chat channel and its two parties (ids and usernames): what every read of a trade carries. */
export interface TradeParties {
  id: string;
  channel: string;
  buyer_id: string;
  seller_id: string;
  buyer: string;
  seller: string;
}

/** A trade as its chat needs it: who the two parties are and where it stands, and what both lists show of it. */
export interface ChatTrade extends TradeParties, TradeFacts, ConversationAdditionsRow {
  /** Each party's rating of the other, for their own list entry's `my_rating`. */
  buyer_rating_score: number | null;
  buyer_rating_comment: string | null;
  seller_rating_score: number | null;
  seller_rating_comment: string | null;
}

export interface ChatMessageRow {
  id: string;
  /** A moderator's message reads "Moderator" (MODERATOR_SENDER) here, never the moderator's username. */
  sender: string | null;
  recipient: string;
  text: string;
  created_at: Date;
  from_moderator: boolean;
}

/** A trade with both parties and what each of them rated the other (ChatTrade's columns). */
const CHAT_TRADE = `t.id, t.channel, t.buyer_id, t.seller_id, b.username AS buyer, s.username AS seller,
  t.status, t.buyer_paid, t.dispute_raised, ${CONVERSATION_ADDITIONS},
  rb.score AS buyer_rating_score, rb.comment AS buyer_rating_comment, rs.score AS seller_rating_score, rs.comment AS seller_rating_comment`;
export const CHAT_TRADE_JOINS = `JOIN users b ON b.id = t.buyer_id JOIN users s ON s.id = t.seller_id ${CONVERSATION_COIN}
  LEFT JOIN trade_ratings rb ON rb.trade_id = t.id AND rb.rater_id = t.buyer_id
  LEFT JOIN trade_ratings rs ON rs.trade_id = t.id AND rs.rater_id = t.seller_id`;

/**
 * One party's unread messages in one trade's conversation, as SQL over two expressions (a column, a parameter):
 * the messages after the party's read mark (conversation_reads, migration 036) that others sent; a system message's
 * sender_id is NULL, so `<>` leaves those out with the reader's own. It reads chat_messages_by_trade from the mark on.
 * Written into each statement rather than called as migration 036's unread_messages: a SQL function with a FROM is
 * never inlined, so PostgreSQL parsed and planned it again at every call, twice in every trade change's statement,
 * where a subquery is planned once with the statement (bench/README.md "Planned once").
 */
export const unreadMessages = (trade: string, reader: string) =>
  `(SELECT count(*)::integer FROM chat_messages m
    WHERE m.trade_id = ${trade} AND m.sender_id <> ${reader}
      AND m.id > coalesce((SELECT r.last_read_id FROM conversation_reads r WHERE r.trade_id = ${trade} AND r.user_id = ${reader}), 0))`;

/**
 * A conversation's facts (ConversationFacts but its last message) of the trade row `t` joined by
 * CHAT_TRADE_JOINS: any relation with the trades table's columns, such as the RETURNING of the statement that
 * changed it, so that the statement answers what its announcement publishes.
 */
export const CONVERSATION_FACTS = `${CHAT_TRADE},
  ${unreadMessages('t.id', 't.buyer_id')} AS buyer_unread, ${unreadMessages('t.id', 't.seller_id')} AS seller_unread`;

/** A trade's terms as its chat header shows them (the `summary` call), with its two parties' ids to check the caller. */
export interface TradeSummaryRow {
  channel: string;
  buyer_id: string;
  seller_id: string;
  ticker: string;
  decimal_places: number;
  amount_crypto: string;
  trading_amount_crypto: string;
  trading_amount: string;
  currency_code: string;
  rate: string;
  payment_method: string;
  created_at: Date;
}

/** A message's sender as the traders see it: a moderator's by the one name they all carry. */
const SENDER = `CASE WHEN m.from_moderator THEN '${MODERATOR_SENDER}' ELSE u.username END`;

/** Each party's unread count of one conversation (`unreadMessages`). */
export interface UnreadCounts {
  buyer_unread: number;
  seller_unread: number;
}

/** Both parties' view of one conversation's list entry (the newest message is the same for both; the unread count is each one's own). */
export interface ConversationFacts extends ChatTrade, UnreadCounts {
  last_message: string | null;
}

/**
 * What a trader's send answers: the conversation both lists are told (the trade as the statement read it, both
 * parties' unread counts with the message counted, but not its last message: the caller has it) and, when the
 * trade took the message, the message's id and time and whom it told.
 */
export interface SentMessage {
  conversation: Omit<ConversationFacts, 'last_message'>;
  /** Undefined when the trade is no longer pending: `conversation.status` says what it is. */
  stored?: { id: string; created_at: Date; notified: Notified[] };
}

export function chatRepository(db: Queryable) {
  return {
    tradeByChannel: (channel: string) =>
      db.maybe<ChatTrade>(`SELECT ${CHAT_TRADE} FROM trades t ${CHAT_TRADE_JOINS} WHERE t.channel = $1`, [channel], PREPARED),

    /** The trade on `channel` and its two parties, which never change once it is open. */
    partiesByChannel: (channel: string) =>
      db.maybe<TradeParties>(
        `SELECT t.id, t.channel, t.buyer_id, t.seller_id, b.username AS buyer, s.username AS seller
         FROM trades t JOIN users b ON b.id = t.buyer_id JOIN users s ON s.id = t.seller_id
         WHERE t.channel = $1`,
        [channel],
        PREPARED,
      ),

    /** The terms of the trade on `channel`, frozen at open, and the coin they are in. */
    tradeSummary: (channel: string) =>
      db.maybe<TradeSummaryRow>(
        `SELECT t.channel, t.buyer_id, t.seller_id, c.ticker, c.decimal_places, t.amount_crypto, t.trading_amount_crypto, t.trading_amount,
                t.currency_code, t.rate, t.payment_method, t.created_at
         FROM trades t JOIN coins c ON c.id = t.coin_id WHERE t.channel = $1`,
        [channel],
        PREPARED,
      ),

    /** The newest `limit` messages, oldest first. */
    messages: (tradeId: string, limit: number) =>
      db.query<ChatMessageRow>(
        `SELECT * FROM (
           SELECT m.id, ${SENDER} AS sender, m.recipient, m.text, m.created_at, m.from_moderator
           FROM chat_messages m LEFT JOIN users u ON u.id = m.sender_id
           WHERE m.trade_id = $1 ORDER BY m.id DESC LIMIT $2
         ) newest ORDER BY id`,
        [tradeId, limit],
        PREPARED,
      ),

    /**
     * Stores a moderator's message (from_moderator, to everyone) and moves the conversation up both lists, in one
     * statement, only while the trade is pending and disputed: a settled trade's chat is closed, and a moderator
     * has no business in one never disputed. Undefined when it is not so. `audit`, the moderator's entry in the
     * audit log (docs/operators.md "Audit log"), is written by the same statement, only with the message.
     */
    insertModeratorMessage: (message: { tradeId: string; moderatorId: string; text: string; at: Date }, audit: AuditRecord) => {
      const p = sqlParams();
      const [tradeId, moderatorId, text, at] = [p.add(message.tradeId), p.add(message.moderatorId), p.add(message.text), p.add(message.at)];
      // The unread counts are read in the statement's snapshot, which does not hold the message it inserts: + 1
      // for it, unread by both parties.
      return db.maybe<{ id: string; created_at: Date } & UnreadCounts>(
        `WITH disputed AS (
           SELECT id, buyer_id, seller_id FROM trades WHERE id = ${tradeId} AND status = 'pending' AND dispute_raised
         ), message AS (
           INSERT INTO chat_messages (trade_id, sender_id, recipient, text, created_at, from_moderator)
           SELECT id, ${moderatorId}, 'all', ${text}, ${at}, true FROM disputed
           RETURNING id, trade_id, created_at
         ), touched AS (
           UPDATE conversations SET last_message_at = greatest(last_message_at, ${at})
           FROM message WHERE conversations.trade_id = message.trade_id
           RETURNING message.id
         ), ${auditStep(p, audit, 'message')}
         SELECT message.id, message.created_at,
                ${unreadMessages('disputed.id', 'disputed.buyer_id')} + 1 AS buyer_unread,
                ${unreadMessages('disputed.id', 'disputed.seller_id')} + 1 AS seller_unread
         FROM message JOIN touched ON touched.id = message.id CROSS JOIN disputed`,
        p.values,
      );
    },

    /**
     * A trader's message, in one statement: the check that the sender is a party of the trade, the message, the
     * conversation moved up the list, and what the answer and the announcements need, so nothing is read before or
     * after it. The message is stored only while the trade is pending (disputed included): a trade completed or
     * cancelled a moment ago takes no more, and the answer then has no `stored`, with the status that refused it.
     * Undefined when the sender is not a party (or there is no such trade). The trade row is only read, never
     * locked, so chatting never waits on an action.
     *
     * `tell`, for a recipient who is offline, is their notification, written in the same statement unless they
     * still have an unread one for this conversation: a burst of messages makes one notification, not one each,
     * and the next comes once they opened it (two messages racing may both see none and both tell, which
     * costs a duplicate, never a lost one).
     *
     * The answered conversation is the trade as the statement read it (CHAT_TRADE, as CONVERSATION_FACTS for a
     * trade's change) with both parties' unread counts (`unreadMessages`). Those are read in the
     * statement's snapshot, which does not hold the message it inserts: the recipient's count is one more.
     * Every value is compared with a key or a column, never chooses the plan, so one generic plan serves all sends.
     */
    send: async (message: {
      tradeId: string;
      senderId: string;
      recipient: string;
      text: string;
      at: Date;
      tell?: NotificationDraft;
    }): Promise<SentMessage | undefined> => {
      const p = sqlParams();
      const at = p.add(message.at);
      const tradeId = p.add(message.tradeId);
      const sender = p.add(message.senderId);
      const steps = [
        `open_trade AS (
           SELECT id FROM trades WHERE id = ${tradeId} AND status = 'pending' AND ${sender} IN (buyer_id, seller_id)
         )`,
        `message AS (
           INSERT INTO chat_messages (trade_id, sender_id, recipient, text, created_at)
           SELECT id, ${sender}, ${p.add(message.recipient)}, ${p.add(message.text)}, ${at} FROM open_trade
           RETURNING id, trade_id, created_at
         )`,
        `touched AS (
           UPDATE conversations SET last_message_at = greatest(last_message_at, ${at})
           FROM message WHERE conversations.trade_id = message.trade_id
           RETURNING message.id, message.created_at
         )`,
      ];
      const { tell } = message;
      if (tell) {
        steps.push(`untold AS (
           SELECT touched.id FROM touched
           WHERE NOT EXISTS (SELECT FROM notifications WHERE user_id = ${p.add(tell.userId)} AND fresh
                               AND kind = ${p.add(tell.kind)} AND link = ${p.add(tell.link)})
         )`);
        steps.push(...notificationSteps(p, [tell], message.at, 'untold'));
      }
      const row = await db.maybe<Omit<ConversationFacts, 'last_message'> & { message_id: string | null; message_at: Date | null; notified: unknown }>(
        `WITH ${steps.join(', ')}
         SELECT touched.id AS message_id, touched.created_at AS message_at, ${tell ? NOTIFIED_JSON : "'[]'::json"} AS notified,
                ${CHAT_TRADE},
                ${unreadMessages('t.id', 't.buyer_id')} + CASE WHEN touched.id IS NOT NULL AND t.buyer_id <> ${sender} THEN 1 ELSE 0 END AS buyer_unread,
                ${unreadMessages('t.id', 't.seller_id')} + CASE WHEN touched.id IS NOT NULL AND t.seller_id <> ${sender} THEN 1 ELSE 0 END AS seller_unread
         FROM trades t ${CHAT_TRADE_JOINS} LEFT JOIN touched ON true
         WHERE t.id = ${tradeId} AND ${sender} IN (t.buyer_id, t.seller_id)`,
        p.values,
        PREPARED,
      );
      if (!row) return undefined;
      const { message_id, message_at, notified, ...conversation } = row;
      return {
        conversation,
        ...(message_id !== null && message_at !== null ? { stored: { id: message_id, created_at: message_at, notified: notifiedOf(notified) } } : {}),
      };
    },

    /**
     * Marks the conversation read by `userId` up to `upTo` (the newest message their screen showed), or up to its
     * newest message when `upTo` is not given; never past the newest (`least`), and never back: a mark lower than
     * the stored one, or a late mark of an older read, changes nothing. Answers the id the mark now stands at, and
     * whether this statement moved it (only then has the caller's count changed).
     */
    markRead: (tradeId: string, userId: string, upTo?: number) =>
      db.one<{ read_up_to: string; changed: boolean }>(
        `WITH target AS (
           SELECT CASE WHEN newest.id IS NULL THEN NULL ELSE least($3::bigint, newest.id) END AS id
           FROM (SELECT max(id) AS id FROM chat_messages WHERE trade_id = $1) newest
         ), stored AS (
           SELECT last_read_id FROM conversation_reads WHERE trade_id = $1 AND user_id = $2
         ), marked AS (
           INSERT INTO conversation_reads AS r (trade_id, user_id, last_read_id)
           SELECT $1, $2, target.id FROM target WHERE target.id > 0
           ON CONFLICT (trade_id, user_id) DO UPDATE SET last_read_id = excluded.last_read_id
           WHERE r.last_read_id < excluded.last_read_id
           RETURNING r.last_read_id
         )
         SELECT greatest(coalesce((SELECT last_read_id FROM stored), 0), coalesce(target.id, 0)) AS read_up_to,
                EXISTS (SELECT FROM marked) AS changed
         FROM target`,
        [tradeId, userId, upTo ?? null],
        PREPARED,
      ),

    /** One conversation's facts and newest message, for the `conversation` event to both parties. */
    conversation: (channel: string) =>
      db.maybe<ConversationFacts>(
        `SELECT ${CONVERSATION_FACTS},
                (SELECT m.text FROM chat_messages m WHERE m.trade_id = t.id ORDER BY m.id DESC LIMIT 1) AS last_message
         FROM trades t ${CHAT_TRADE_JOINS}
         WHERE t.channel = $1`,
        [channel],
        PREPARED,
      ),
  };
}
