import { z } from 'zod/mini';
import { apiNames, decimalString, writtenText } from './common.ts';
import { messages } from './messages.ts';
import { page, paginator } from './market.ts';
import { tradeStatus } from './user.ts';

const offerId = z.int({ error: 'offer must be an offer id' }).check(z.positive('offer must be an offer id'));
/** A fiat amount as typed: a decimal string with at most 2 places. */
const fiatAmount = z
  .string({ error: 'amount is required' })
  .check(z.trim(), z.regex(/^\d{1,15}(\.\d{1,2})?$/, 'amount must be a number with at most 2 decimals'));
/** An offer's rate as the list shows it: fiat per 1 USD, a positive decimal string. */
const offerRate = z
  .string({ error: 'rate is required' })
  .check(z.trim(), z.regex(/^\d{1,18}(\.\d{1,8})?$/, 'rate must be the offer rate you saw, like 1.00'));
const channel = z.string({ error: 'channel is required' }).check(z.minLength(1, 'channel is required'), z.maxLength(100));

/** The longest payer account a buyer may state when marking paid. */
export const PAYER_ACCOUNT_MAX = 120;
/** The longest rating comment. */
export const RATING_COMMENT_MAX = 500;

/**
 * Control characters (line breaks and tabs among them), the line and paragraph separators, the bidi
 * overrides and isolates, and double quotation marks. The paying account is quoted inside the system message
 * the seller trusts: a line break or a closing quote would let the buyer write words of the platform's own
 * ("…". Payment verified by Peerex, release now), and a bidi override would reorder the words around it.
 */
const PAYER_ACCOUNT_FORBIDDEN = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069"\u201C-\u201F\u00AB\u00BB\u2039\u203A\u301D-\u301F\uFF02]/u;

/** Trimmed; empty means not stated. One line of plain text. */
const payerAccount = writtenText({
  max: PAYER_ACCOUNT_MAX,
  tooLong: `The paying account can be at most ${PAYER_ACCOUNT_MAX} characters`,
  notText: 'payer_account must be text',
  refine: {
    test: (value) => !PAYER_ACCOUNT_FORBIDDEN.test(value),
    message: 'The paying account must be one line of plain text, without quotation marks or control characters',
  },
});
export const ratingScore = z
  .int({ error: 'Please choose a rating from 1 to 5' })
  .check(z.gte(1, 'Please choose a rating from 1 to 5'), z.lte(5, 'Please choose a rating from 1 to 5'));
/** Trimmed; empty means no comment. */
export const ratingComment = writtenText({
  max: RATING_COMMENT_MAX,
  tooLong: `A comment can be at most ${RATING_COMMENT_MAX} characters`,
  notText: 'comment must be text',
});

export const tradeType = z.enum(['buy', 'sell']);
/** A party of a trade: on a sell offer the owner sells to the taker, on a buy offer the owner buys from the taker. */
export const tradeRole = z.enum(['buyer', 'seller']);
export type TradeRole = z.infer<typeof tradeRole>;
/** A trade's place in its lifecycle, as stored and as conversations carry it. */
export const tradeFacts = z.object({ status: tradeStatus, buyer_paid: z.boolean(), dispute_raised: z.boolean() });
export type TradeFacts = z.infer<typeof tradeFacts>;

/**
 * The events on a trade's channel that change its facts, one per kind of change: a party's action publishes its
 * own (server/src/trades/actions.ts), and the same name is the kind of the notification it sends. Every client
 * follows each of them alike (the facts it carries), so a new one is added here and nowhere else on the web side.
 */
export const TRADE_EVENTS = ['payment_marked', 'coin_released', 'trade_cancelled', 'dispute_raised'] as const;
export type TradeEventName = (typeof TRADE_EVENTS)[number];

/** The `open` answer's header naming the new trade's chat channel (`info` stays the toast's sentence). */
export const TRADE_CHANNEL_HEADER = 'X-Trade-Channel';

export const tradeRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('preview'), offer: offerId, amount: fiatAmount, payment_method: z.string().check(z.maxLength(60)) }),
  /** `rate`: the offer's rate as the taker saw it; an offer whose rate has changed since is refused (409). */
  z.object({ type: z.literal('open'), offer: offerId, amount: fiatAmount, payment_method: z.string().check(z.maxLength(60)), rate: offerRate }),
  z.object({
    type: z.literal('history'),
    page,
    trade_type: z.optional(z.union([tradeType, z.literal('')])),
    filters: z._default(
      z.optional(
        z.object({
          status: z.optional(z.union([tradeStatus, z.literal('')])),
          offer__coin__id: z.optional(z.union([z.int(), z.string().check(z.regex(/^\d{0,9}$/, 'offer__coin__id must be a coin id'))])),
        }),
      ),
      {},
    ),
  }),
  z.object({ type: z.literal('cancel'), channel }),
  /** `payer_account` (an addition): who paid and from where ("J. Smith, Revolut"), shown to the seller and a moderator. */
  z.object({ type: z.literal('mark_paid'), channel, payer_account: z.optional(payerAccount) }),
  /**
   * `password`, or with two-factor on `code` (a current authenticator code): the second proof (docs/api.md "Trade
   * actions"), not needed while the session's confirmation window is open. Any text is taken: a wrong one is refused
   * as wrong (403), never as malformed.
   */
  z.object({
    type: z.literal('release_coin'),
    channel,
    password: z.optional(z.string({ error: 'password must be text' }).check(z.maxLength(128, messages.passwordTooLong))),
    code: z.optional(z.string({ error: 'code must be text' }).check(z.maxLength(20, 'code must be a 6-digit authenticator code'))),
  }),
  z.object({
    type: z.literal('raise_dispute'),
    channel,
    reason: z
      .string({ error: 'Please enter the reason for your dispute' })
      .check(
        z.refine((value) => value.trim().length > 0, 'Please enter the reason for your dispute'),
        z.maxLength(2000, 'The reason must be at most 2,000 characters'),
      ),
  }),
  /** After a completed trade, each party rates the other once (an addition; docs/api.md "Ratings"). */
  z.object({ type: z.literal('rate'), channel, score: ratingScore, comment: z.optional(ratingComment) }),
]).register(apiNames, { id: 'TradeRequest' });
export type TradeRequest = z.infer<typeof tradeRequest>;
/** What a taker asks for (`preview`): the offer, the fiat amount and the payment method. */
export type TradeAsk = Omit<Extract<TradeRequest, { type: 'preview' }>, 'type'>;
/** What opens a trade (`open`): the ask and the offer's rate as the taker saw it. */
export type TradeOpenAsk = Omit<Extract<TradeRequest, { type: 'open' }>, 'type'>;
/** The second proof a `release_coin` carries (either, both or neither given). */
export type ReleaseProof = Pick<Extract<TradeRequest, { type: 'release_coin' }>, 'password' | 'code'>;
/** What the `history` call asks for: a page, and the trade type and filters that are set. */
export type TradeHistoryAsk = Omit<Extract<TradeRequest, { type: 'history' }>, 'type'>;

/** market/trade/ {type:"preview"}: fiat fields with 2 places, crypto with the coin's places. */
export const tradePreview = z.object({
  trading_amount: decimalString,
  trading_amount_crypto: decimalString,
  fee_local: decimalString,
  fee_crypto: decimalString,
  amount_local: decimalString,
  amount_crypto: decimalString,
}).register(apiNames, { id: 'TradePreview' });
export type TradePreview = z.infer<typeof tradePreview>;

export const tradeHistoryRow = z.object({
  id: z.int(),
  created: z.string(),
  trade_type: tradeType,
  partner: z.string(),
  offer__coin__image: z.string(),
  offer__coin__ticker: z.string(),
  offer__coin__decimal_places: z.int(),
  amount_crypto: decimalString,
  amount_usd: decimalString,
  fee_crypto: decimalString,
  fee_usd: decimalString,
  payment_method: z.string(),
  status: z.string(),
});
export type TradeHistoryRow = z.infer<typeof tradeHistoryRow>;
export const tradeHistory = z.object({ trades: z.array(tradeHistoryRow), paginator }).register(apiNames, { id: 'TradeHistory' });
export type TradeHistory = z.infer<typeof tradeHistory>;

/** A moderator's settlement of a dispute: the coins went to the buyer (`release`) or back to the seller (`refund`). */
export const disputeOutcome = z.enum(['release', 'refund']);
export type DisputeOutcome = z.infer<typeof disputeOutcome>;
export const disputeResolution = z.object({
  outcome: disputeOutcome,
  /** The moderator's written resolution, as written. */
  text: z.string(),
  /** ISO 8601. */
  resolved_at: z.string(),
});
export type DisputeResolution = z.infer<typeof disputeResolution>;

/** market/chat/ {type:"conversations"}, and `conversation` on `private-user-<username>`. */
export const conversation = z.object({
  channel: z.string(),
  partner: z.string(),
  partner_type: tradeRole,
  last_message: z.string(),
  ...tradeFacts.shape,
  /** Whether the partner has a live realtime connection right now (any server process). */
  online: z.boolean(),
  // Additions (docs/rules.md "Disputes", "Reputation"):
  /** What the buyer stated when marking paid ("J. Smith, Revolut"), or null. */
  payer_account: z.nullable(z.string()),
  /** When the dispute was raised (ISO 8601), or null: the chat shows "Under review" and the time waited. */
  disputed_at: z.nullable(z.string()),
  /** How a moderator settled the dispute, or null. */
  resolution: z.nullable(disputeResolution),
  /** The caller's rating of the partner for this trade, or null (not rated yet, or not rateable). */
  my_rating: z.nullable(z.object({ score: z.int(), comment: z.string() })),
  // Additions (docs/api.md "Chat calls"): which trade it is, so several with one partner tell themselves apart.
  coin__ticker: z.string(),
  coin__decimal_places: z.int(),
  /** What the buyer receives (after the fee), with exactly the coin's places. */
  amount_crypto: decimalString,
  /** The fiat amount the trade was opened for, 2 places, in `currency__code`. */
  trading_amount: decimalString,
  currency__code: z.string(),
  /** Messages written to the caller (the partner's, a moderator's) since they last read this conversation. */
  unread: z.int().check(z.gte(0)),
});
export type Conversation = z.infer<typeof conversation>;
export const conversationsRequest = z.object({
  type: z.literal('conversations'),
  search: z.optional(z.string().check(z.maxLength(30))),
}).register(apiNames, { id: 'ConversationsRequest' });
export const conversations = z.array(conversation).register(apiNames, { id: 'Conversations' });

export const tradeAction = z.enum(['cancel', 'mark_paid', 'release_coin', 'raise_dispute']);
export type TradeAction = z.infer<typeof tradeAction>;
/** A party's action as market/trade/ asks it: its `type`, the trade's `channel` and what the action says besides. */
export type TradeActionAsk = Extract<TradeRequest, { type: TradeAction }>;
