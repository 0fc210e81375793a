import { PREPARED, sqlParams, type Queryable } from '../db/db.ts';
import { NOTIFIED_JSON, notificationSteps, notifiedOf, type NotificationDraft, type Notified } from '../notifications/notify.ts';
import type { TradeFacts } from '../../../contracts/trade.ts';

/** A trade as its chat needs it: who the two parties are and where it stands. */
export interface ChatTrade extends TradeFacts {
  id: string;
  channel: string;
  buyer_id: string;
  seller_id: string;
  buyer: string;
  seller: string;
}

export interface ChatMessageRow {
  id: string;
  sender: string | null;
  recipient: string;
  text: string;
  created_at: Date;
}

/** Both parties' view of one conversation's list entry (the newest message is the same for both). */
export interface ConversationFacts extends ChatTrade {
  last_message: string | null;
}

export function chatRepository(db: Queryable) {
  return {
    tradeByChannel: (channel: string) =>
      db.maybe<ChatTrade>(
        `SELECT t.id, t.channel, t.buyer_id, t.seller_id, b.username AS buyer, s.username AS seller,
                t.status, t.buyer_paid, t.dispute_raised
         FROM trades t JOIN users b ON b.id = t.buyer_id JOIN users s ON s.id = t.seller_id
         WHERE t.channel = $1`,
        [channel],
        PREPARED,
      ),

    /** The newest `limit` messages, oldest first. */
    messages: (tradeId: string, limit: number) =>
      db.query<ChatMessageRow>(
        `SELECT * FROM (
           SELECT m.id, u.username AS sender, m.recipient, m.text, m.created_at
           FROM chat_messages m LEFT JOIN users u ON u.id = m.sender_id
           WHERE m.trade_id = $1 ORDER BY m.id DESC LIMIT $2
         ) newest ORDER BY id`,
        [tradeId, limit],
        PREPARED,
      ),

    /**
     * Stores a trader's message and moves the conversation up the list, in one statement, only while the
     * trade is pending (disputed included). Undefined when it is not: a trade completed or cancelled a moment
     * ago takes no more messages. The trade row is only read, never locked, so chatting never waits on an action.
     *
     * `tell`, for a recipient who is offline, is their notification, written in the same statement unless they
     * still have an unread one for this conversation: a burst of messages makes one notification, not one each,
     * and the next comes once they opened it (two messages racing may both see none and both tell, which
     * costs a duplicate, never a lost one).
     */
    insertMessage: async (message: {
      tradeId: string;
      senderId: string;
      recipient: string;
      text: string;
      at: Date;
      tell?: NotificationDraft;
    }): Promise<{ id: string; created_at: Date; notified: Notified[] } | undefined> => {
      const p = sqlParams();
      const at = p.add(message.at);
      const steps = [
        `open_trade AS (
           SELECT id FROM trades WHERE id = ${p.add(message.tradeId)} AND status = 'pending'
         )`,
        `message AS (
           INSERT INTO chat_messages (trade_id, sender_id, recipient, text, created_at)
           SELECT id, ${p.add(message.senderId)}, ${p.add(message.recipient)}, ${p.add(message.text)}, ${at} FROM open_trade
           RETURNING id, trade_id, created_at
         )`,
        `touched AS (
           UPDATE conversations SET last_message_at = greatest(last_message_at, ${at})
           FROM message WHERE conversations.trade_id = message.trade_id
           RETURNING message.id
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
      const row = await db.maybe<{ id: string; created_at: Date; notified: unknown }>(
        `WITH ${steps.join(', ')}
         SELECT message.id, message.created_at, ${tell ? NOTIFIED_JSON : "'[]'::json"} AS notified
         FROM message JOIN touched ON touched.id = message.id`,
        p.values,
        PREPARED,
      );
      return row && { id: row.id, created_at: row.created_at, notified: notifiedOf(row.notified) };
    },

    /** One conversation's facts and newest message, for the `conversation` event to both parties. */
    conversation: (channel: string) =>
      db.maybe<ConversationFacts>(
        `SELECT t.id, t.channel, t.buyer_id, t.seller_id, b.username AS buyer, s.username AS seller,
                t.status, t.buyer_paid, t.dispute_raised,
                (SELECT m.text FROM chat_messages m WHERE m.trade_id = t.id ORDER BY m.id DESC LIMIT 1) AS last_message
         FROM trades t JOIN users b ON b.id = t.buyer_id JOIN users s ON s.id = t.seller_id
         WHERE t.channel = $1`,
        [channel],
        PREPARED,
      ),
  };
}
