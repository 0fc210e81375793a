import { CHAT_HISTORY_LIMIT, type ChatMessage } from '../../../contracts/chat.ts';
import type { DisputeDetail, DisputeSummary } from '../../../contracts/moderation.ts';
import type { DisputeOutcome } from '../../../contracts/trade.ts';
import { messageOut, resolutionOf, type ChatService } from '../chat/chat.ts';
import type { Db } from '../infra/db/db.ts';
import { fixed } from '../ledger/money.ts';
import { formatFiat, formatRate } from '../offers/offers.ts';
import { chatRepository } from '../chat/chat.repository.ts';
import { moderationRepository, type DisputeRow } from './moderation.repository.ts';
import { refuse } from '../sentences.ts';
import { isTradeChannel } from '../trades/channels.ts';
import type { TradesService } from '../trades/trades.ts';
import type { StaffMember } from '../audit/audit.repository.ts';

/**
 * The most disputes one list answers, oldest first: a desk with more settles the oldest before it sees the
 * newest, which is the order they are taken in anyway.
 */
export const DISPUTE_LIST_LIMIT = 500;

export interface ModerationDeps {
  db: Db;
  /** PAYMENT_WINDOW_MINUTES: the window every trade opens with (the desk shows when it ran out). */
  paymentWindowMinutes: number;
  trades: TradesService;
  chat: ChatService;
}

const summaryOf = (row: DisputeRow): DisputeSummary => ({
  channel: row.channel,
  buyer: row.buyer,
  seller: row.seller,
  coin__ticker: row.ticker,
  coin__image: row.image,
  trading_amount_crypto: fixed(row.trading_amount_crypto, row.decimal_places),
  trading_amount: formatFiat(row.trading_amount),
  currency__code: row.currency_code,
  disputed_by: row.disputed_by ?? '',
  disputed_at: row.disputed_at.toISOString(),
  reason: row.dispute_reason ?? '',
});

/**
 * The dispute desk (docs/rules.md "Disputes"; POST /api/market/moderation/): the disputed trades, one trade's facts
 * and chat (its newest CHAT_HISTORY_LIMIT messages), a moderator's message into it, and the settlement. Only
 * moderators reach it: the route refuses everyone else before anything is read. A trade that was never disputed
 * does not exist here.
 */
export function moderationService(deps: ModerationDeps) {
  const { db } = deps;
  return {
    async list(): Promise<DisputeSummary[]> {
      return (await moderationRepository(db).openDisputes(DISPUTE_LIST_LIMIT)).map(summaryOf);
    },

    async get(channel: string): Promise<DisputeDetail> {
      const row = isTradeChannel(channel) ? await moderationRepository(db).disputed(channel) : undefined;
      if (!row) throw refuse.tradeNotFound();
      // Capped as the traders' own `messages` call is: a chat flooded with thousands of lines costs the desk one
      // bounded read, and the newest lines, where a dispute is argued, are the ones kept.
      const messages = await chatRepository(db).messages(row.id, CHAT_HISTORY_LIMIT);
      const paymentDue = new Date(row.created_at.getTime() + deps.paymentWindowMinutes * 60_000);
      return {
        ...summaryOf(row),
        status: row.status,
        buyer_paid: row.buyer_paid,
        dispute_raised: row.dispute_raised,
        coin__decimal_places: row.decimal_places,
        payment_method: row.payment_method,
        rate: formatRate(row.rate),
        fee_crypto: fixed(row.fee_crypto, row.decimal_places),
        amount_crypto: fixed(row.amount_crypto, row.decimal_places),
        created: row.created_at.toISOString(),
        payment_window_minutes: deps.paymentWindowMinutes,
        payment_due: paymentDue.toISOString(),
        paid_at: row.paid_at?.toISOString() ?? null,
        payer_account: row.payer_account,
        resolution: resolutionOf(row),
        messages: messages.map((message) => messageOut(message, row.channel)),
      };
    },

    message(moderator: StaffMember, channel: string, text: string): Promise<ChatMessage> {
      return deps.chat.sendAsModerator(moderator, channel, text);
    },

    resolve(moderator: StaffMember, channel: string, outcome: DisputeOutcome, resolution: string): Promise<string> {
      return deps.trades.resolve(moderator, channel, outcome, resolution);
    },
  };
}

export type ModerationService = ReturnType<typeof moderationService>;
