import { z } from 'zod/mini';
import { apiNames, decimalString, thousands, writtenText } from './common.ts';
import { tradeFacts, tradeRole } from './trade.ts';

/** The longest chat message, after trimming (docs/rules.md "Chat"). */
export const CHAT_TEXT_MAX = 2000;
/** The most messages `messages` answers: the newest ones, oldest first. */
export const CHAT_HISTORY_LIMIT = 500;

export const chatMessageTooLong = `A message can be at most ${thousands(CHAT_TEXT_MAX)} characters`;
export const chatMessageEmpty = 'Please write a message';

/**
 * A chat message (docs/api.md "Chat calls"). `sender` null and `recipient` "all": a system message (opened, paid,
 * released, cancelled, disputed, expired); a trader's message names the partner as `recipient`.
 */
export const chatMessage = z.object({
  id: z.int(),
  sender: z.nullable(z.string()),
  recipient: z.string(),
  text: z.string(),
  /** ISO 8601. */
  created: z.string(),
  channel: z.string(),
  /** An addition: true on a moderator's message, whose `sender` is then "Moderator" (never a username). */
  from_moderator: z.optional(z.boolean()),
}).register(apiNames, { id: 'ChatMessage' });
export type ChatMessage = z.infer<typeof chatMessage>;
export const chatMessages = z.array(chatMessage).register(apiNames, { id: 'ChatMessages' });

/** Text as the trader typed it: trimmed, 1–2,000 characters. */
export const chatText = writtenText({ max: CHAT_TEXT_MAX, tooLong: chatMessageTooLong, notText: chatMessageEmpty, empty: chatMessageEmpty });

/** POST /api/market/chat/{channel}/ */
export const chatRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('messages') }),
  z.object({ type: z.literal('send_message'), message_type: z.literal('text'), text: chatText }),
  z.object({ type: z.literal('typing') }),
  z.object({ type: z.literal('summary') }),
]).register(apiNames, { id: 'ChatRequest' });
export type ChatRequest = z.infer<typeof chatRequest>;

/**
 * The `summary` answer (an addition): the trade's terms as its chat header shows them, from the caller's side.
 * All of it is frozen when the trade opens; its facts (paid, disputed, finished) are the conversation's.
 */
export const tradeSummary = z.object({
  channel: z.string(),
  /** The caller's role in the trade. */
  role: tradeRole,
  coin__ticker: z.string(),
  coin__decimal_places: z.int(),
  /** What the buyer receives, after the fee, to the coin's places. */
  amount_crypto: decimalString,
  /** What the seller put in escrow (the buyer's amount and the fee), to the coin's places. */
  escrow_crypto: decimalString,
  /** The fiat amount the buyer pays, 2 places. */
  trading_amount: decimalString,
  currency__code: z.string(),
  /** The offer's rate when the trade opened: fiat per 1 USD. */
  rate: decimalString,
  payment_method: z.string(),
  /** When the trade opened (ISO 8601). */
  created: z.string(),
  /** The end of the payment window (ISO 8601): a trade still unpaid then is cancelled. */
  pay_by: z.string(),
}).register(apiNames, { id: 'TradeSummary' });
export type TradeSummary = z.infer<typeof tradeSummary>;
/** POST /api/market/chat/{channel}/read/: the caller has read the conversation (docs/api.md "Chat calls"). */
export const conversationReadRequest = z.object({
  type: z.literal('read'),
  /**
   * An addition: the id of the newest message the caller's screen has shown (a ChatMessage `id`); the mark goes up to
   * it (never past the conversation's newest message). Without it, up to the newest message there is.
   */
  up_to: z.optional(z.int().check(z.nonnegative())),
}).register(apiNames, { id: 'ConversationReadRequest' });
export type ConversationReadRequest = z.infer<typeof conversationReadRequest>;
/**
 * The id of the message up to which the conversation now counts as read by the caller (0: none): the one asked for or
 * the newest, whichever is older, or an earlier mark's if that reached further (a mark never goes back).
 */
export const conversationRead = z.object({ read_up_to: z.int() }).register(apiNames, { id: 'ConversationRead' });
export type ConversationRead = z.infer<typeof conversationRead>;

/** The typing answer: whether the notice went out (false: dropped by the 500 ms throttle). */
export const typingResponse = z.object({ sent: z.boolean() }).register(apiNames, { id: 'Typing' });

// ---- Realtime (docs/api.md "Realtime") ----------------------------------------------------------

/** The public channel of live prices. */
export const COIN_PRICE_CHANNEL = 'coin_price';
/** A trade's private channel, from the conversation's `channel`. */
export const tradeChannelName = (channel: string) => `private-${channel}`;
/** Moderators only: `dispute_raised` and `dispute_resolved`, each `{channel}`, so the dispute desk stays current. */
export const MODERATION_CHANNEL = 'private-moderation';
/** The sender a moderator's chat messages carry. */
export const MODERATOR_SENDER = 'Moderator';
/** A trader's own private channel. */
export const userChannelName = (username: string) => `private-user-${username}`;
export const USER_CHANNEL_PREFIX = 'private-user-';

/** Event names, by channel. */
export const realtimeEvents = {
  price: 'price',
  newMessage: 'new_message',
  typing: 'typing',
  paymentMarked: 'payment_marked',
  coinReleased: 'coin_released',
  tradeCancelled: 'trade_cancelled',
  disputeRaised: 'dispute_raised',
  conversation: 'conversation',
  notification: 'notification',
  unread: 'unread',
  wallet: 'wallet',
  disputeResolved: 'dispute_resolved',
} as const;

/** `private-moderation` → `dispute_raised` | `dispute_resolved`. */
export const moderationEvent = z.object({ channel: z.string() });


/** `coin_price` → `price`: USD per coin, a non-negative decimal string. */
export const priceEvent = z.object({ ticker: z.string(), price: z.string().check(z.trim(), z.regex(/^\d+(\.\d+)?$/)) });
export type PriceEvent = z.infer<typeof priceEvent>;
/** `private-<channel>` → `typing`. */
export const typingEvent = z.object({ username: z.string() });
/** `private-<channel>` → `payment_marked` | `coin_released` | `trade_cancelled` | `dispute_raised`. */
export const tradeEvent = z.object({ channel: z.string(), ...tradeFacts.shape, message: chatMessage });
export type TradeEvent = z.infer<typeof tradeEvent>;
/** `private-user-<username>` → `unread`. */
export const unreadEvent = z.object({ count: z.int() });
/**
 * `private-user-<username>` → `wallet`: a balance or a wallet history row of this trader changed (a deposit seen or
 * credited, a withdrawal held, sent, refunded or decided, a trade's escrow locked, released or returned). It says
 * nothing more: the screens that show them read them again.
 */
export const walletEvent = z.object({});
export type WalletEvent = z.infer<typeof walletEvent>;

// ---- Channel authorization and browser configuration ---------------------------------------------

/** POST /api/realtime/auth/ (form-encoded as pusher-js sends it, or JSON). */
export const realtimeAuthRequest = z.object({
  socket_id: z.string({ error: 'socket_id is required' }).check(z.regex(/^\d{1,20}\.\d{1,20}$/, 'socket_id must look like 123.456')),
  channel_name: z.string({ error: 'channel_name is required' }).check(z.minLength(1, 'channel_name is required'), z.maxLength(200)),
}).register(apiNames, { id: 'RealtimeAuthRequest' });
/** Not enveloped: pusher-js reads it as it is. */
export const realtimeAuthResponse = z.object({ auth: z.string(), channel_data: z.optional(z.string()) }).register(apiNames, { id: 'RealtimeAuth' });

/** GET /api/config: what the web app needs at boot, so one build serves every deployment. */
export const webAppConfig = z.object({
  realtime: z.object({
    key: z.string(),
    /** Set only for hosted Pusher. */
    cluster: z.nullable(z.string()),
    /** null: this page's origin (the built-in server at /app/{key}). */
    ws_host: z.nullable(z.string()),
    ws_port: z.nullable(z.int()),
    force_tls: z.boolean(),
  }),
  push: z.object({
    instance_id: z.string(),
    /** The built-in device API's base (`<origin>/push`); null: hosted Beams. */
    endpoint: z.nullable(z.string()),
  }),
  /**
   * The flow atlas (/flows): who may open it (everyone in development or with FLOW_ATLAS=on, else moderators
   * only) and whether the pages broadcast their charts' live states to it (development only).
   */
  flow_atlas: z.object({ open_to: z.enum(['everyone', 'moderators']), live: z.boolean() }),
}).register(apiNames, { id: 'WebAppConfig' });
export type WebAppConfig = z.infer<typeof webAppConfig>;
