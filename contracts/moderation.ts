import { z } from 'zod/mini';
import { chatMessage, chatText } from './chat.ts';
import { apiNames, decimalString, thousands, writtenText } from './common.ts';
import { messageResponse } from './security.ts';
import { disputeOutcome, disputeResolution, tradeFacts } from './trade.ts';

/**
 * POST /api/market/moderation/ (moderators only: everyone else gets 403; docs/api.md "Moderation"). The
 * dispute desk: the disputed trades, one trade's facts and chat, a moderator's chat message, and the
 * resolution that moves the escrow.
 */

/** The longest written resolution. */
export const RESOLUTION_TEXT_MAX = 2000;

const channel = z.string({ error: 'channel is required' }).check(z.minLength(1, 'channel is required'), z.maxLength(100));
const resolutionText = writtenText({
  max: RESOLUTION_TEXT_MAX,
  tooLong: `A resolution can be at most ${thousands(RESOLUTION_TEXT_MAX)} characters`,
  notText: 'Please write the resolution',
  empty: 'Please write the resolution',
});

export const moderationRequest = z.discriminatedUnion('type', [
  /** The trades under dispute now, oldest dispute first. */
  z.object({ type: z.literal('list') }),
  /** One disputed (or settled) trade: its facts and its chat (the newest CHAT_HISTORY_LIMIT messages). */
  z.object({ type: z.literal('get'), channel }),
  /** A message into the trade's chat, shown to both traders as from "Moderator". */
  z.object({ type: z.literal('message'), channel, text: chatText }),
  /** Settle: `release` sends the escrow to the buyer (less the fee), `refund` back to the seller. */
  z.object({ type: z.literal('resolve'), channel, outcome: disputeOutcome, resolution: resolutionText }),
]).register(apiNames, { id: 'ModerationRequest' });
export type ModerationRequest = z.infer<typeof moderationRequest>;

/** One row of the desk's list. */
export const disputeSummary = z.object({
  channel: z.string(),
  buyer: z.string(),
  seller: z.string(),
  coin__ticker: z.string(),
  coin__image: z.string(),
  /** The escrow, in the coin, to its places. */
  trading_amount_crypto: decimalString,
  /** Fiat, 2 places, with its currency. */
  trading_amount: decimalString,
  currency__code: z.string(),
  /** Who raised it, by username. */
  disputed_by: z.string(),
  /** ISO 8601: the list is oldest first by this; the wait is counted from it. */
  disputed_at: z.string(),
  reason: z.string(),
});
export type DisputeSummary = z.infer<typeof disputeSummary>;
export const disputeList = z.array(disputeSummary).register(apiNames, { id: 'DisputeList' });

/** `get`: everything a moderator weighs. */
export const disputeDetail = z.object({
  ...disputeSummary.shape,
  ...tradeFacts.shape,
  coin__decimal_places: z.int(),
  payment_method: z.string(),
  /** Frozen at open: fiat per 1 USD. */
  rate: decimalString,
  fee_crypto: decimalString,
  /** What the buyer receives on release. */
  amount_crypto: decimalString,
  /** ISO 8601. */
  created: z.string(),
  /** The payment window the trade had, in minutes, and when it ran out (ISO 8601). */
  payment_window_minutes: z.int(),
  payment_due: z.string(),
  /** When the buyer marked paid (ISO 8601), or null. */
  paid_at: z.nullable(z.string()),
  /** What the buyer stated as the paying account, or null. */
  payer_account: z.nullable(z.string()),
  /** Set once settled. */
  resolution: z.nullable(disputeResolution),
  /** The newest CHAT_HISTORY_LIMIT (500) messages of the chat, oldest first, as the traders' own `messages` call. */
  messages: z.array(chatMessage),
}).register(apiNames, { id: 'DisputeDetail' });
export type DisputeDetail = z.infer<typeof disputeDetail>;

/** `message` answers the stored message (`from_moderator` true, `sender` "Moderator"), as the trade's channel carries it. */
export const moderationMessageResponse = chatMessage;
/** `resolve` answers the sentence the moderator's toast shows ("Dispute settled: …"). */
export const resolveResponse = messageResponse;
