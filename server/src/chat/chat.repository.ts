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

/**
 * A trade's parties and what its conversation shows of its terms (the coin, the amounts, the currency): all written
 * when it opens and never changed, so a process keeps them once read (chat.ts `partiesOf`).
 */
export interface ChatParties
  extends TradeParties,
    Pick<ConversationAdditionsRow, 'coin_ticker' | 'coin_decimal_places' | 'amount_crypto' | 'trading_amount' | 'currency_code'> {}

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
 * One party's unread messages in one trade's conversation, as SQL over two expressions (a column, a parameter): the
 * count kept with the party's read mark (conversation_reads, migrations 036 and 041), which every message written to
 * them adds one to (`send`, `insertModeratorMessage`; a system message counts for nobody) and each mark counts again
 * (`markRead`). No row: nothing was ever written to them. Read, not counted: counting scanned every message after the
 * mark, at each message and for both parties (bench/README.md "Unread counts kept, not counted").
 */
export const unreadMessages = (trade: string, reader: string) =>
  `coalesce((SELECT r.unread FROM conversation_reads r WHERE r.trade_id = ${trade} AND r.user_id = ${reader}), 0)`;

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
 * What of a trade a message may change or find changed, as a trader's send reads it: where it stands and the
 * parties' unread counts. The rest of its conversation entry is fixed at open (ChatParties); so, while it is
 * pending, is what is not here: no settlement (a settled trade is completed or cancelled: trades_resolution_whole,
 * migration 019) and no ratings (only of a completed trade: ratings.repository.ts).
 */
export type SentFacts = Pick<ConversationFacts, 'status' | 'buyer_paid' | 'dispute_raised' | 'payer_account' | 'disputed_at'> & UnreadCounts;

/**
 * What a trader's send answers: the trade as the statement read it, with both parties' unread counts, the message
 * counted, and, when the trade took the message, the message's id and time and whom it told.
 */
export interface SentMessage {
  facts: SentFacts;
  /** Undefined when the trade is no longer pending: `facts.status` says what it is. */
  stored?: { id: string; created_at: Date; notified: Notified[] };
}

/** `send`'s two statement texts, with and without the recipient's notification, once built. */
const sendTexts: { tell?: string; quiet?: string } = {};

export function chatRepository(db: Queryable) {
  return {
    tradeByChannel: (channel: string) =>
      db.maybe<ChatTrade>(`SELECT ${CHAT_TRADE} FROM trades t ${CHAT_TRADE_JOINS} WHERE t.channel = $1`, [channel], PREPARED),

    /** The trade on `channel`, its two parties and its terms, which never change once it is open. */
    partiesByChannel: (channel: string) =>
      db.maybe<ChatParties>(
        `SELECT t.id, t.channel, t.buyer_id, t.seller_id, b.username AS buyer, s.username AS seller,
                c.ticker AS coin_ticker, c.decimal_places AS coin_decimal_places, t.amount_crypto, t.trading_amount, t.currency_code
         FROM trades t JOIN users b ON b.id = t.buyer_id JOIN users s ON s.id = t.seller_id ${CONVERSATION_COIN}
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
      // The message is unread by both parties: one more on each count (`counted`, both read rows in the order of
      // their user ids, after the conversation row as a trader's `send` locks them, so that neither waits on the
      // other in a cycle), which the answer reads back.
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
         ), counted AS (
           INSERT INTO conversation_reads AS r (trade_id, user_id, last_read_id, unread)
           SELECT message.trade_id, party.user_id, 0, 1
           FROM message CROSS JOIN disputed CROSS JOIN LATERAL (VALUES (disputed.buyer_id), (disputed.seller_id)) AS party (user_id)
           ORDER BY party.user_id
           ON CONFLICT (trade_id, user_id) DO UPDATE SET unread = r.unread + 1
           RETURNING r.user_id, r.unread
         ), ${auditStep(p, audit, 'message')}
         SELECT message.id, message.created_at,
                (SELECT counted.unread FROM counted WHERE counted.user_id = disputed.buyer_id) AS buyer_unread,
                (SELECT counted.unread FROM counted WHERE counted.user_id = disputed.seller_id) AS seller_unread
         FROM message JOIN touched ON touched.id = message.id CROSS JOIN disputed`,
        p.values,
      );
    },

    /**
     * A trader's message, in one statement: the check that the sender is a party of the trade, the message, the
     * conversation moved up the list, one more unread message for its recipient, and what the answer and the
     * announcements need, so nothing is read before or after it. The message is stored only while the trade is
     * pending (disputed included): a trade completed or cancelled a moment ago takes no more, and the answer then has
     * no `stored`, with the status that refused it. Undefined when the sender is not a party (or there is no such
     * trade). The trade row is only read, never locked, so chatting never waits on an action.
     *
     * `tell`, for a recipient who is offline, is their notification, written in the same statement unless they
     * still have an unread one for this conversation: a burst of messages makes one notification, not one each,
     * and the next comes once they opened it (two messages racing may both see none and both tell, which
     * costs a duplicate, never a lost one).
     *
     * The recipient's count is the one this statement wrote (`counted`); the sender's as the statement's snapshot
     * has it. The conversation row is locked before the recipient's read row (`touched` is read by the final
     * SELECT's join, `counted` by its select list), as a moderator's message does, so the two never wait on each
     * other in a cycle. Every value is compared with a key or a column, never chooses the plan, so one generic plan
     * serves all sends.
     */
    send: async (message: {
      tradeId: string;
      senderId: string;
      recipientId: string;
      recipient: string;
      text: string;
      at: Date;
      tell?: NotificationDraft;
    }): Promise<SentMessage | undefined> => {
      const p = sqlParams();
      const at = p.add(message.at);
      const tradeId = p.add(message.tradeId);
      const sender = p.add(message.senderId);
      const recipientId = p.add(message.recipientId);
      const steps = [
        `message AS (
           INSERT INTO chat_messages (trade_id, sender_id, recipient, text, created_at)
           SELECT id, ${sender}, ${p.add(message.recipient)}, ${p.add(message.text)}, ${at} FROM trades
           WHERE id = ${tradeId} AND status = 'pending' AND ${sender} IN (buyer_id, seller_id) AND ${recipientId} IN (buyer_id, seller_id)
             AND ${recipientId} <> ${sender}
           RETURNING id, trade_id, created_at
         )`,
        `touched AS (
           UPDATE conversations SET last_message_at = greatest(last_message_at, ${at})
           FROM message WHERE conversations.trade_id = message.trade_id
           RETURNING message.id, message.created_at
         )`,
        `counted AS (
           INSERT INTO conversation_reads AS r (trade_id, user_id, last_read_id, unread)
           SELECT trade_id, ${recipientId}, 0, 1 FROM message
           ON CONFLICT (trade_id, user_id) DO UPDATE SET unread = r.unread + 1
           RETURNING r.user_id, r.unread
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
      const unread = (party: string) =>
        `coalesce((SELECT counted.unread FROM counted WHERE counted.user_id = ${party}), ${unreadMessages('t.id', party)})`;
      const sql = `WITH ${steps.join(', ')}
         SELECT touched.id AS message_id, touched.created_at AS message_at, ${tell ? NOTIFIED_JSON : "'[]'::json"} AS notified,
                t.status, t.buyer_paid, t.dispute_raised, t.payer_account, t.disputed_at,
                ${unread('t.buyer_id')} AS buyer_unread, ${unread('t.seller_id')} AS seller_unread
         FROM trades t LEFT JOIN touched ON true
         WHERE t.id = ${tradeId} AND ${sender} IN (t.buyer_id, t.seller_id)`;
      // The same text at every call (the values are parameters): the first one's is kept and passed again, so the
      // driver finds its prepared statement by a string it has seen rather than comparing a new copy of it.
      const text = (sendTexts[tell ? 'tell' : 'quiet'] ??= sql);
      const row = await db.maybe<SentFacts & { message_id: string | null; message_at: Date | null; notified: unknown }>(text, p.values, PREPARED);
      if (!row) return undefined;
      const { message_id, message_at, notified, ...facts } = row;
      return {
        facts,
        ...(message_id !== null && message_at !== null ? { stored: { id: message_id, created_at: message_at, notified: notifiedOf(notified) } } : {}),
      };
    },

    /**
     * Marks the conversation read by `userId` up to `upTo` (the newest message their screen showed), or up to its
     * newest message when `upTo` is not given; never past the newest (`least`), and never back: a mark lower than
     * the stored one, or a late mark of an older read, changes nothing. Their unread count is counted again from the
     * mark. Answers the id the mark now stands at, and whether this call moved it (only then has the caller's count
     * changed, but for a message that lost the race below).
     *
     * Two statements, in the caller's transaction (`db` a transaction's): the first locks the reader's row (writing
     * it when there is none), so every message that already added to the count has committed and is in the second
     * statement's snapshot, which counts; a message coming later waits for this commit and adds its one after. A
     * message whose id is below the new mark but which committed after it was read (ids are taken before commits)
     * stays counted, one too many until the next mark: the reader had not seen it.
     */
    markRead: async (tradeId: string, userId: string, upTo?: number) => {
      const { last_read_id: before } = await db.one<{ last_read_id: string }>(
        `INSERT INTO conversation_reads AS r (trade_id, user_id, last_read_id) VALUES ($1, $2, 0)
         ON CONFLICT (trade_id, user_id) DO UPDATE SET last_read_id = r.last_read_id
         RETURNING r.last_read_id`,
        [tradeId, userId],
        PREPARED,
      );
      const { read_up_to } = await db.one<{ read_up_to: string }>(
        `WITH target AS (
           SELECT coalesce(CASE WHEN newest.id IS NULL THEN NULL ELSE least($3::bigint, newest.id) END, 0) AS id
           FROM (SELECT max(id) AS id FROM chat_messages WHERE trade_id = $1) newest
         )
         UPDATE conversation_reads r
         SET last_read_id = greatest(r.last_read_id, target.id),
             unread = (SELECT count(*) FROM chat_messages m
                       WHERE m.trade_id = $1 AND m.sender_id <> $2 AND m.id > greatest(r.last_read_id, target.id))
         FROM target WHERE r.trade_id = $1 AND r.user_id = $2
         RETURNING r.last_read_id AS read_up_to`,
        [tradeId, userId, upTo ?? null],
        PREPARED,
      );
      return { read_up_to, changed: BigInt(read_up_to) > BigInt(before) };
    },

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
