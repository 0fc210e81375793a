import type { ChatMessage, ConversationRead, TradeSummary } from '../../../contracts/chat.ts';
import { CHAT_HISTORY_LIMIT, realtimeEvents, tradeChannelName, userChannelName } from '../../../contracts/chat.ts';
import type { Conversation, DisputeResolution } from '../../../contracts/trade.ts';
import { MODERATOR_SENDER } from '../../../contracts/chat.ts';
import type { Db } from '../infra/db/db.ts';
import { retrying } from '../infra/db/retry.ts';
import { FIAT_PLACES, fixed } from '../ledger/money.ts';
import {
  chatRepository,
  type ChatMessageRow,
  type ChatTrade,
  type ConversationAdditionsRow,
  type ChatParties,
  type ConversationFacts,
  type RatingColumns,
} from './chat.repository.ts';
import { refuse } from '../sentences.ts';
import { isTradeChannel } from '../trades/channels.ts';
import { formatFiat, formatRate } from '../offers/offers.ts';
import type { Notified } from '../notifications/notify.ts';
import { tradeTexts } from '../notifications/texts.ts';
import type { AuditRecord, StaffMember } from '../audit/audit.repository.ts';

/** At most one typing notice per trader and conversation in this long (docs/rules.md "Chat"). */
export const TYPING_INTERVAL_MS = 500;
/** Typing stamps kept before the oldest are forgotten: bounds the memory a flood of conversations could take. */
const TYPING_STAMPS_KEPT = 10_000;
/** Channels whose parties this process keeps before the oldest are forgotten (and read again when next asked). */
const PARTIES_KEPT = 10_000;

export interface ChatDeps {
  db: Db;
  now: () => Date;
  /** PAYMENT_WINDOW_MINUTES: how long the buyer has to pay and mark it (the summary's `pay_by`). */
  paymentWindowMinutes: number;
  publish: (channel: string, event: string, data: unknown) => void;
  /** Which of these traders have a live realtime connection now (any process). */
  online: (usernames: readonly string[]) => Promise<Set<string>>;
  /** After the commit: the notification a message wrote for its offline recipient (never throws). */
  announce: (rows: readonly Notified[]) => Promise<void>;
}

/** A stored message as the API answers it; `from_moderator` only on a moderator's (its sender is then "Moderator"). */
export const messageOut = (row: Omit<ChatMessageRow, 'from_moderator'> & { from_moderator?: boolean }, channel: string): ChatMessage => ({
  id: Number(row.id),
  sender: row.sender,
  recipient: row.recipient,
  text: row.text,
  created: row.created_at.toISOString(),
  channel,
  ...(row.from_moderator ? { from_moderator: true } : {}),
});

/** A conversation's additions (payer account, dispute, settlement) from its row, and `my_rating` from the caller's own rating of this trade. */
/** A moderator's settlement as the API answers it (conversations, the dispute desk), or null while there is none. */
export const resolutionOf = (row: Pick<ConversationAdditionsRow, 'resolution' | 'resolution_text' | 'resolved_at'>): DisputeResolution | null =>
  row.resolution && row.resolution_text !== null && row.resolved_at
    ? { outcome: row.resolution, text: row.resolution_text, resolved_at: row.resolved_at.toISOString() }
    : null;

export const conversationAdditions = (
  row: ConversationAdditionsRow,
  myRating: RatingColumns,
): Pick<
  Conversation,
  'payer_account' | 'disputed_at' | 'resolution' | 'my_rating' | 'coin__ticker' | 'coin__decimal_places' | 'amount_crypto' | 'trading_amount' | 'currency__code'
> => ({
  payer_account: row.payer_account,
  disputed_at: row.disputed_at?.toISOString() ?? null,
  resolution: resolutionOf(row),
  my_rating: myRating.score === null ? null : { score: myRating.score, comment: myRating.comment ?? '' },
  coin__ticker: row.coin_ticker,
  coin__decimal_places: row.coin_decimal_places,
  amount_crypto: fixed(row.amount_crypto, row.coin_decimal_places),
  trading_amount: fixed(row.trading_amount, FIAT_PLACES),
  currency__code: row.currency_code,
});

/** Each party's list entry for one conversation, with their own unread count. */
function conversationsOf(facts: ConversationFacts, online: Set<string>): Array<{ username: string; conversation: Conversation }> {
  const entry = (partner: string, partnerType: 'buyer' | 'seller', myRating: RatingColumns, unread: number): Conversation => ({
    channel: facts.channel,
    partner,
    partner_type: partnerType,
    last_message: facts.last_message ?? '',
    status: facts.status,
    buyer_paid: facts.buyer_paid,
    dispute_raised: facts.dispute_raised,
    online: online.has(partner),
    ...conversationAdditions(facts, myRating),
    unread,
  });
  return [
    {
      username: facts.buyer,
      conversation: entry(facts.seller, 'seller', { score: facts.buyer_rating_score, comment: facts.buyer_rating_comment }, facts.buyer_unread),
    },
    {
      username: facts.seller,
      conversation: entry(facts.buyer, 'buyer', { score: facts.seller_rating_score, comment: facts.seller_rating_comment }, facts.seller_unread),
    },
  ];
}

/**
 * The chat of a trade (docs/rules.md "Chat"): only its buyer and seller read or write it; anyone else is
 * told it does not exist, exactly as for a channel that does not, so nobody can learn which channels exist.
 */
export function chatService(deps: ChatDeps) {
  const { db } = deps;
  const typedAt = new Map<string, number>();
  // A trade's parties and terms are written when it opens and never change (nor do usernames, and trades are
  // never deleted), so once read they hold for as long as the process lives: a message or a read mark then asks
  // the database nothing about who may write, nor a message what its conversation entry shows of the trade.
  // Whether the caller may ask at all (a session, not suspended) is the session lookup's, on every call; only
  // trades that exist are kept, and at most PARTIES_KEPT of them.
  const partiesKept = new Map<string, ChatParties>();

  /** The trade on `channel` and its parties, read once per process (see partiesKept); undefined for no trade. */
  async function partiesOf(channel: string): Promise<ChatParties | undefined> {
    const kept = partiesKept.get(channel);
    if (kept) return kept;
    const parties = isTradeChannel(channel) ? await chatRepository(db).partiesByChannel(channel) : undefined;
    if (parties) {
      partiesKept.set(channel, parties);
      if (partiesKept.size > PARTIES_KEPT) partiesKept.delete(partiesKept.keys().next().value as string);
    }
    return parties;
  }

  /** The trade on `channel` and its parties if `user` is one of them; for anyone else refused as no trade at all. */
  async function partiesFor(user: { id: string }, channel: string): Promise<ChatParties> {
    const parties = await partiesOf(channel);
    if (!parties || (parties.buyer_id !== user.id && parties.seller_id !== user.id)) throw refuse.tradeNotFound();
    return parties;
  }

  /** The trade on `channel` if `user` is one of its parties; undefined for anyone else, as for no trade at all. */
  async function tradeOfParty(user: { id: string }, channel: string): Promise<ChatTrade | undefined> {
    const trade = isTradeChannel(channel) ? await chatRepository(db).tradeByChannel(channel) : undefined;
    return trade && (trade.buyer_id === user.id || trade.seller_id === user.id) ? trade : undefined;
  }

  async function partyTrade(user: { id: string }, channel: string): Promise<ChatTrade> {
    const trade = await tradeOfParty(user, channel);
    if (!trade) throw refuse.tradeNotFound();
    return trade;
  }

  /** Each party's list entry, published on their own channel. */
  async function publishConversations(facts: ConversationFacts, known?: Set<string>): Promise<void> {
    const online = known ?? (await deps.online([facts.buyer, facts.seller]));
    for (const { username, conversation } of conversationsOf(facts, online)) {
      deps.publish(userChannelName(username), realtimeEvents.conversation, conversation);
    }
  }

  return {
    /** `messages`: the newest 500, oldest first. */
    async messages(user: { id: string }, channel: string): Promise<ChatMessage[]> {
      const trade = await partiesFor(user, channel);
      const rows = await chatRepository(db).messages(trade.id, CHAT_HISTORY_LIMIT);
      return rows.map((row) => messageOut(row, channel));
    },

    /**
     * `summary`: the trade's terms for its chat header, from the caller's side: their role, the coin and its
     * amount, the fiat total, the rate and the payment method as the trade froze them, and when the payment
     * window ends (the sweep cancels an unpaid trade then: trades.ts `sweep`).
     */
    async summary(user: { id: string }, channel: string): Promise<TradeSummary> {
      const row = isTradeChannel(channel) ? await chatRepository(db).tradeSummary(channel) : undefined;
      if (!row || (row.buyer_id !== user.id && row.seller_id !== user.id)) throw refuse.tradeNotFound();
      return {
        channel: row.channel,
        role: row.buyer_id === user.id ? 'buyer' : 'seller',
        coin__ticker: row.ticker,
        coin__decimal_places: row.decimal_places,
        amount_crypto: fixed(row.amount_crypto, row.decimal_places),
        escrow_crypto: fixed(row.trading_amount_crypto, row.decimal_places),
        trading_amount: formatFiat(row.trading_amount),
        currency__code: row.currency_code,
        rate: formatRate(row.rate),
        payment_method: row.payment_method,
        created: row.created_at.toISOString(),
        pay_by: new Date(row.created_at.getTime() + deps.paymentWindowMinutes * 60_000).toISOString(),
      };
    },

    /**
     * `send_message`: stored, then published as `new_message`, and both lists move it up. One statement
     * (chatRepository `send`) checks and stores it and answers what of the trade may have changed since it opened;
     * the rest, and the parties, which the recipient's notification needs before it, are this process's once read
     * (partiesOf).
     */
    async send(user: { id: string; username: string }, channel: string, text: string): Promise<ChatMessage> {
      const parties = await partiesFor(user, channel);
      const senderIsBuyer = parties.buyer_id === user.id;
      const recipient = senderIsBuyer ? parties.seller : parties.buyer;
      const recipientId = senderIsBuyer ? parties.seller_id : parties.buyer_id;
      // Asked once, before the message: whether the recipient is told by the bell, and the lists' `online`.
      const online = await deps.online([parties.buyer, parties.seller]);
      const tell = online.has(recipient) ? undefined : tradeTexts.chatMessage(channel, recipientId, user.username, text);
      const sent = await retrying(() =>
        chatRepository(db).send({ tradeId: parties.id, senderId: user.id, recipientId, recipient, text, at: deps.now(), tell }),
      );
      if (!sent) throw refuse.tradeNotFound();
      const { stored, facts } = sent;
      if (!stored) throw refuse.chatClosed(facts.status);
      const message = messageOut({ id: stored.id, sender: user.username, recipient, text, created_at: stored.created_at }, channel);
      deps.publish(tradeChannelName(channel), realtimeEvents.newMessage, message);
      // The lists' entry is the trade as the statement read it, with this message as its last and the unread
      // counts it answered. It took the message, so the trade was pending: not settled, nobody rated (SentFacts).
      // An action racing it publishes its own entry, and the web app never moves a trade back.
      await publishConversations(
        {
          ...parties,
          ...facts,
          resolution: null,
          resolution_text: null,
          resolved_at: null,
          buyer_rating_score: null,
          buyer_rating_comment: null,
          seller_rating_score: null,
          seller_rating_comment: null,
          last_message: text,
        },
        online,
      );
      await deps.announce(stored.notified);
      return message;
    },

    /**
     * market/chat/{channel}/read/: the caller has read the conversation up to `upTo`, the newest message their screen
     * showed (without it, up to the newest message there is), so its entry in their list counts only what came
     * after. Only their own side: the partner's count is the partner's to clear. A mark that moved publishes the
     * caller's own entry, with its new count, on the caller's own channel only, so their other tabs and devices
     * agree; the partner hears nothing of it.
     */
    async markRead(user: { id: string }, channel: string, upTo?: number): Promise<ConversationRead> {
      const trade = await partiesFor(user, channel);
      const { read_up_to, changed } = await retrying(() => db.transaction((tx) => chatRepository(tx).markRead(trade.id, user.id, upTo)));
      if (changed) {
        const facts = await chatRepository(db).conversation(channel);
        const me = trade.buyer_id === user.id ? trade.buyer : trade.seller;
        const partner = trade.buyer_id === user.id ? trade.seller : trade.buyer;
        const own = facts && conversationsOf(facts, await deps.online([partner])).find((entry) => entry.username === me);
        if (own) deps.publish(userChannelName(me), realtimeEvents.conversation, own.conversation);
      }
      return { read_up_to: Number(read_up_to) };
    },

    /** `typing`: tells the partner, at most once per 500 ms per trader and conversation; extra notices are dropped. */
    async typing(user: { id: string; username: string }, channel: string): Promise<{ sent: boolean }> {
      const trade = await partyTrade(user, channel);
      if (trade.status !== 'pending') return { sent: false };
      const key = `${user.id}:${channel}`;
      const now = deps.now().getTime();
      const last = typedAt.get(key);
      if (last !== undefined && now - last < TYPING_INTERVAL_MS) return { sent: false };
      typedAt.delete(key);
      typedAt.set(key, now);
      if (typedAt.size > TYPING_STAMPS_KEPT) typedAt.delete(typedAt.keys().next().value as string);
      deps.publish(tradeChannelName(channel), realtimeEvents.typing, { username: user.username });
      return { sent: true };
    },

    /**
     * A moderator's message into a disputed trade's chat (the dispute desk's `message`): stored as the moderator's
     * but shown to both traders as from "Moderator", published as `new_message` on the trade's channel, and both
     * lists move it up. A channel that does not exist or was never disputed is not found, as for anyone else's
     * trade; a settled one takes no more messages (409). A moderator who is one of its parties is refused (403):
     * their counterparty would read the platform's neutral voice taking their side. The message is written in the
     * audit log (`dispute_message`) by the statement that stores it.
     */
    async sendAsModerator(moderator: StaffMember, channel: string, text: string): Promise<ChatMessage> {
      const trade = isTradeChannel(channel) ? await chatRepository(db).tradeByChannel(channel) : undefined;
      if (!trade || trade.disputed_at === null) throw refuse.tradeNotFound();
      if (trade.buyer_id === moderator.id || trade.seller_id === moderator.id) throw refuse.ownTradeModeration();
      const at = deps.now();
      const audit: AuditRecord = { actor: moderator, action: 'dispute_message', target: channel, after: { text }, at };
      const stored = await retrying(() => chatRepository(db).insertModeratorMessage({ tradeId: trade.id, moderatorId: moderator.id, text, at }, audit));
      if (!stored) throw refuse.disputeAlreadySettled();
      const message = messageOut({ id: stored.id, sender: MODERATOR_SENDER, recipient: 'all', text, created_at: stored.created_at, from_moderator: true }, channel);
      deps.publish(tradeChannelName(channel), realtimeEvents.newMessage, message);
      await publishConversations({ ...trade, last_message: text, buyer_unread: stored.buyer_unread, seller_unread: stored.seller_unread });
      return message;
    },

    /**
     * Tells both parties' conversation lists (`conversation` on `private-user-<username>`) that this
     * conversation opened or changed. After the change committed; a failure here only costs liveness.
     */
    async announce(channel: string): Promise<void> {
      const facts = await chatRepository(db).conversation(channel);
      if (facts) await publishConversations(facts);
    },

    /** `announce` for a caller whose statement answered the conversation's facts as it committed them (a trade's change). */
    announceFacts: (facts: ConversationFacts) => publishConversations(facts),

    /**
     * Whether `user` may listen on the trade's channel: its parties, and a moderator once it was disputed (open or
     * settled: the desk follows the chat live); a moderator sees nothing of a trade never disputed.
     */
    async mayListen(user: { id: string; moderator: boolean }, channel: string): Promise<boolean> {
      const trade = isTradeChannel(channel) ? await chatRepository(db).tradeByChannel(channel) : undefined;
      if (!trade) return false;
      return trade.buyer_id === user.id || trade.seller_id === user.id || (user.moderator && trade.disputed_at !== null);
    },
  };
}

export type ChatService = ReturnType<typeof chatService>;
