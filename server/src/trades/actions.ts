import type { DisputeOutcome, TradeAction, TradeEventName, TradeFacts, TradeRole } from '../../../contracts/trade.ts';
import { canTakeAction, type TradeResolution } from '../../../domain/tradeLifecycle/tradeLifecycle.ts';
import type { PostingInput } from '../ledger/ledger.ts';
import type { NotificationDraft } from '../notifications/notify.ts';
import { tradeTexts } from '../notifications/texts.ts';
import { fixed, Money } from '../ledger/money.ts';
import type { Refusal } from '../refusals.ts';
import type { TradeTerms } from './trades.repository.ts';
import { refuse, sentences } from '../sentences.ts';

/** Everything that happens to a trade: the parties' actions, the payment window running out, a moderator's settlement. */
export type TradeChange = TradeAction | 'expire' | TradeResolution;

/** What the text of an action's system message may mention besides the trade itself. */
export interface SystemTextContext {
  /** Who acted, by username ("A moderator" for a settlement: the traders never learn which one). */
  actor: string;
  /** The dispute's reason, as written. */
  reason: string;
  /** What the buyer stated as the paying account when marking paid, trimmed; '' when not stated. */
  payerAccount: string;
  /** A moderator's written resolution, as written; '' for every other change. */
  resolution: string;
  paymentWindowMinutes: number;
}

/**
 * What a change adds to trader_trade_counts, on the trade's escrow slot, in one counter step: 1 to `completed`
 * (the trades count on offer cards) and/or to `concluded` (the completion rate's denominator, migrations 019 and
 * 020), for both parties or the buyer alone. A trade counts only once it has ended, and only against the party
 * who failed it (docs/rules.md "Reputation"), so completed never exceeds concluded.
 */
export interface TradeCount {
  completed: boolean;
  concluded: boolean;
  parties: 'both' | 'buyer';
}

/** A ledger movement: its unique reference and its postings. */
export interface Movement {
  reference: string;
  postings: PostingInput[];
}

/**
 * One row of the table below: what one change of a trade does once the lifecycle chart allowed it, and how it
 * is worded when the chart refuses it.
 */
export interface TradeChangeRule {
  /**
   * The realtime event published on the trade's channel. A settlement publishes what a release or a cancel does,
   * so both traders' chats follow it as they follow those.
   */
  event: TradeEventName;
  /** The system message written into the trade's chat. */
  systemText(trade: TradeTerms, context: SystemTextContext): string;

  /** The ledger movement the change makes, if any. */
  movement(trade: TradeTerms): Movement | undefined;
  /** The traders' counters the change adds to, if any: only a change that ends a trade counts (TradeCount). */
  counts: TradeCount | null;
  /** Who is told, and what (docs/rules.md "Notifications"); written in the change's own statement. */
  notify(trade: TradeTerms, context: SystemTextContext & { actorId: string | null }): NotificationDraft[];
}

/** A party's action also answers the party, and is worded when the chart refuses it. */
export interface PartyActionRule extends TradeChangeRule {
  /** The answer the acting party reads. */
  reply: string;
  /** For a caller of the wrong role (actions only one side may take), and for a pending, undisputed trade paid or not. */
  refused: { wrongRole?: () => Refusal; paid: () => Refusal; unpaid: () => Refusal };
}

const escrowOf = (trade: TradeTerms) => `${fixed(trade.trading_amount_crypto, trade.decimal_places)} ${trade.ticker}`;

/** Out of the escrow slot the open put it in. */
const fromEscrow = (trade: TradeTerms): PostingInput => ({
  account: { kind: 'escrow', userId: trade.seller_id, coinId: trade.coin_id },
  amount: new Money(trade.trading_amount_crypto).negated(),
  slot: trade.escrow_slot,
});

/** The party who did not act. */
const otherParty = (trade: TradeTerms, actorId: string | null) => (actorId === trade.buyer_id ? trade.seller_id : trade.buyer_id);

/** The escrow back to the seller's available balance (a cancelled or expired trade). */
const refund = (trade: TradeTerms): Movement => ({
  reference: `trade:${trade.id}:cancel`,
  postings: [fromEscrow(trade), { account: { kind: 'available', userId: trade.seller_id, coinId: trade.coin_id }, amount: trade.trading_amount_crypto }],
});

/** The escrow to the buyer, less the fee, which goes to the fee account's slot of the escrow's number. */
const release = (trade: TradeTerms): Movement => {
  const postings: PostingInput[] = [fromEscrow(trade), { account: { kind: 'available', userId: trade.buyer_id, coinId: trade.coin_id }, amount: trade.amount_crypto }];
  if (!new Money(trade.fee_crypto).isZero()) postings.push({ account: { kind: 'fees', coinId: trade.coin_id }, amount: trade.fee_crypto, slot: trade.escrow_slot });
  return { reference: `trade:${trade.id}:release`, postings };
};

/** A completion: a trade completed and concluded for both traders. */
const COMPLETED: TradeCount = { completed: true, concluded: true, parties: 'both' };

/**
 * A trade that ended because the buyer did not pay (the window ran out, or a moderator found no payment):
 * concluded without completing, on the buyer alone. The seller did nothing wrong.
 */
const BUYER_FAILED: TradeCount = { completed: false, concluded: true, parties: 'buyer' };

/** Every change of a trade, one entry each: its event, its chat text, its reply, its money, its counters, its refusals. */
export const TRADE_CHANGES: Record<TradeAction, PartyActionRule> & Record<'expire' | TradeResolution, TradeChangeRule> = {
  mark_paid: {
    event: 'payment_marked',
    systemText: (trade, { payerAccount }) =>
      payerAccount === ''
        ? `${trade.buyer} marked the payment as sent. ${trade.seller}, release the coin once it has arrived.`
        : `${trade.buyer} marked the payment as sent from the account "${payerAccount}". ${trade.seller}, release the coin once ` +
          `it has arrived, and only if it came from that account.`,
    reply: sentences.paymentMarked,
    movement: () => undefined,
    // Not yet: a payment claimed has not ended the trade, and counting it here let a buyer who never paid charge
    // the seller a concluded trade (mark paid, dispute, refund). The end counts it, against whoever failed.
    counts: null,
    notify: (trade, { payerAccount }) => [tradeTexts.paymentMarked(trade, payerAccount)],
    refused: { wrongRole: refuse.onlyBuyerMarksPaid, paid: refuse.paymentAlreadyMarked, unpaid: refuse.tradeChanged },
  },
  release_coin: {
    event: 'coin_released',
    systemText: (trade) =>
      `${trade.seller} released ${fixed(trade.amount_crypto, trade.decimal_places)} ${trade.ticker} to ${trade.buyer}. Trade completed.`,
    reply: sentences.coinReleased,
    movement: release,
    counts: COMPLETED,
    notify: (trade) => [tradeTexts.coinReleased(trade)],
    refused: { wrongRole: refuse.onlySellerReleases, paid: refuse.tradeChanged, unpaid: refuse.paymentNotMarked },
  },
  cancel: {
    event: 'trade_cancelled',
    systemText: (trade, { actor }) => `${actor} cancelled the trade. ${escrowOf(trade)} went back to ${trade.seller}.`,
    reply: sentences.tradeCancelled,
    movement: refund,
    // Only before payment, by either side: a trade called off, failed by nobody.
    counts: null,
    // Both parties but whoever cancelled: that is only ever the other one.
    notify: (trade, { actor, actorId }) => [tradeTexts.cancelled(trade, otherParty(trade, actorId), actor)],
    refused: { paid: refuse.cancelAfterPayment, unpaid: refuse.tradeChanged },
  },
  raise_dispute: {
    event: 'dispute_raised',
    systemText: (_trade, { actor, reason }) => `${actor} raised a dispute. The trade is frozen until a moderator settles it. Reason: ${reason}`,
    reply: sentences.disputeRaised,
    movement: () => undefined,
    counts: null,
    notify: (trade, { actor, actorId, reason }) => [tradeTexts.disputed(trade, otherParty(trade, actorId), actor, reason)],
    refused: { paid: refuse.tradeChanged, unpaid: refuse.disputeBeforePayment },
  },
  expire: {
    event: 'trade_cancelled',
    systemText: (trade, { paymentWindowMinutes }) =>
      `The ${paymentWindowMinutes}-minute payment window ran out, so the trade was cancelled. ${escrowOf(trade)} went back to ${trade.seller}.`,
    movement: refund,
    // The buyer let the window run out.
    counts: BUYER_FAILED,
    notify: (trade, { paymentWindowMinutes }) => [
      tradeTexts.expired(trade, trade.buyer_id, paymentWindowMinutes),
      tradeTexts.expired(trade, trade.seller_id, paymentWindowMinutes),
    ],
  },
  // A moderator's settlements (docs/rules.md "Disputes"): the very movements of a release and a cancel, under
  // the same references (trade:<id>:release, trade:<id>:cancel), so the escrow can never move twice.
  resolve_release: {
    event: 'coin_released',
    systemText: (trade, { resolution }) =>
      `A moderator settled the dispute: ${fixed(trade.amount_crypto, trade.decimal_places)} ${trade.ticker} were released to ${trade.buyer}. ` +
      `Trade completed. Resolution: ${resolution}`,
    movement: release,
    // As the seller's own release would have.
    counts: COMPLETED,
    notify: (trade, { resolution }) => [
      tradeTexts.disputeResolved(trade, trade.buyer_id, 'release', resolution),
      tradeTexts.disputeResolved(trade, trade.seller_id, 'release', resolution),
    ],
  },
  resolve_refund: {
    event: 'trade_cancelled',
    systemText: (trade, { resolution }) =>
      `A moderator settled the dispute: ${escrowOf(trade)} went back to ${trade.seller}. Trade cancelled. Resolution: ${resolution}`,
    movement: refund,
    // A moderator found the buyer did not pay: on the buyer alone, as an expiry.
    counts: BUYER_FAILED,
    notify: (trade, { resolution }) => [
      tradeTexts.disputeResolved(trade, trade.buyer_id, 'refund', resolution),
      tradeTexts.disputeResolved(trade, trade.seller_id, 'refund', resolution),
    ],
  },
};

/** The chart's settlement for the outcome the desk asks for. */
export const RESOLUTION_OF: Record<DisputeOutcome, TradeResolution> = { release: 'resolve_release', refund: 'resolve_refund' };
/** The outcome a settlement stores (trades.resolution), by the chart's event: RESOLUTION_OF read backwards. */
export const OUTCOME_OF = Object.fromEntries(
  Object.entries(RESOLUTION_OF).map(([outcome, resolution]) => [resolution, outcome]),
) as Record<TradeResolution, DisputeOutcome>;

/**
 * The one sentence for a party's action the chart refused. The chart decides; this only words it, from the
 * action's row. When the other party could take the action now, the caller has the wrong role; otherwise the
 * trade is in the wrong state, worded by the facts that make it so.
 */
export function refusalOf(facts: TradeFacts, action: TradeAction, role: TradeRole): Refusal {
  const words = TRADE_CHANGES[action].refused;
  const other: TradeRole = role === 'buyer' ? 'seller' : 'buyer';
  if (words.wrongRole && canTakeAction(facts, action, other)) return words.wrongRole();
  if (facts.status !== 'pending') return refuse.tradeNotPending();
  if (facts.dispute_raised) return refuse.tradeDisputed();
  return facts.buyer_paid ? words.paid() : words.unpaid();
}

/**
 * What the repository writes for one change, decided here: the compare-and-set of the facts, the system
 * message, and, as the change's row says, the ledger movement, the traders' counters and the notifications.
 */
export type TradeEffect =
  | {
      kind: 'setFacts';
      from: TradeFacts;
      to: TradeFacts;
      actorId: string | null;
      disputeReason: string | null;
      /** mark_paid's stated paying account; null when not stated (and for every other change). */
      payerAccount: string | null;
      /** A settlement's outcome and written resolution, stored with the moderator (actorId) and the time. */
      resolution: { outcome: DisputeOutcome; text: string } | null;
      at: Date;
    }
  | { kind: 'systemMessage'; text: string }
  | { kind: 'ledger'; movement: Movement }
  | { kind: 'count'; count: TradeCount }
  | { kind: 'notify'; drafts: NotificationDraft[] };

/** A stored trade's place in its lifecycle: its status and two flags, from a row that carries more. */
export const storedFacts = (trade: TradeFacts): TradeFacts => ({ status: trade.status, buyer_paid: trade.buyer_paid, dispute_raised: trade.dispute_raised });

export function effectsOf(trade: TradeTerms, change: TradeChange, to: TradeFacts, context: SystemTextContext & { actorId: string | null; at: Date }): TradeEffect[] {
  const rule = TRADE_CHANGES[change];
  const resolution = change === 'resolve_release' || change === 'resolve_refund' ? { outcome: OUTCOME_OF[change], text: context.resolution } : null;
  const effects: TradeEffect[] = [
    {
      kind: 'setFacts',
      from: storedFacts(trade),
      to,
      actorId: context.actorId,
      disputeReason: change === 'raise_dispute' ? context.reason : null,
      payerAccount: change === 'mark_paid' && context.payerAccount !== '' ? context.payerAccount : null,
      resolution,
      at: context.at,
    },
    { kind: 'systemMessage', text: rule.systemText(trade, context) },
  ];
  const movement = rule.movement(trade);
  if (movement) effects.push({ kind: 'ledger', movement });
  // A trade worth less than REPUTATION_MIN_TRADE_USD (decided at open) counts toward nothing (docs/rules.md "Reputation").
  if (rule.counts && trade.counts_for_reputation) effects.push({ kind: 'count', count: rule.counts });
  const drafts = rule.notify(trade, context);
  if (drafts.length > 0) effects.push({ kind: 'notify', drafts });
  return effects;
}
