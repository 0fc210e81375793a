/**
 * The trade lifecycle as docs/rules.md states it ("Trades", "Disputes", "Chat actions"), written here by hand
 * and never read from domain/tradeLifecycle: the one oracle the domain chart's model test, the chat's model
 * test and the server's random trading sessions check against, so that a wrong chart fails all three.
 */
import type { TradeAction, TradeFacts, TradeRole } from '../../contracts/trade.ts';

/** The stored facts in each state of a trade. */
export const TRADE_FACTS = {
  awaitingPayment: { status: 'pending', buyer_paid: false, dispute_raised: false },
  paid: { status: 'pending', buyer_paid: true, dispute_raised: false },
  disputed: { status: 'pending', buyer_paid: true, dispute_raised: true },
  completed: { status: 'completed', buyer_paid: true, dispute_raised: false },
  cancelled: { status: 'cancelled', buyer_paid: false, dispute_raised: false },
} as const satisfies Record<string, TradeFacts>;

/** What can happen to a trade: a party's action, the payment window running out, a moderator's settlement. */
export type TradeChange = TradeAction | 'expire' | 'resolve_release' | 'resolve_refund';

/**
 * The facts after `change` (by `role`, for a party's action), or null when the rules refuse it. mark_paid: the
 * buyer, unpaid. release_coin: the seller, paid. cancel and expiry: unpaid. raise_dispute: either party, paid.
 * A disputed trade takes only a moderator's settlement, and only a disputed trade takes one; a completed or
 * cancelled trade takes nothing.
 */
export function byTheRules(facts: TradeFacts, change: TradeChange, role?: TradeRole): TradeFacts | null {
  if (facts.status !== 'pending') return null;
  if (change === 'resolve_release') return facts.dispute_raised ? TRADE_FACTS.completed : null;
  if (change === 'resolve_refund') return facts.dispute_raised ? TRADE_FACTS.cancelled : null;
  if (facts.dispute_raised) return null;
  switch (change) {
    case 'mark_paid':
      return role === 'buyer' && !facts.buyer_paid ? TRADE_FACTS.paid : null;
    case 'release_coin':
      return role === 'seller' && facts.buyer_paid ? TRADE_FACTS.completed : null;
    case 'cancel':
    case 'expire':
      return facts.buyer_paid ? null : TRADE_FACTS.cancelled;
    case 'raise_dispute':
      return facts.buyer_paid ? TRADE_FACTS.disputed : null;
  }
}

/** A finished trade: completed or cancelled, after which it takes nothing more. The chat's "Open" list shows the others. */
export const isFinishedByTheRules = (facts: TradeFacts): boolean => facts.status !== 'pending';

/**
 * The facts once the server has accepted `action`, whatever the client knew when it asked: each action has one
 * outcome (mark_paid: paid; raise_dispute: disputed; release_coin: completed; cancel: cancelled).
 */
export const acceptedByTheRules: Record<TradeAction, TradeFacts> = {
  mark_paid: TRADE_FACTS.paid,
  raise_dispute: TRADE_FACTS.disputed,
  release_coin: TRADE_FACTS.completed,
  cancel: TRADE_FACTS.cancelled,
};

/** The chat's buttons by trade state and role (docs/rules.md "Chat actions"), in the screen's order. */
export function chatActionsByTheRules(facts: TradeFacts, role: TradeRole): TradeAction[] {
  if (facts.status !== 'pending' || facts.dispute_raised) return [];
  if (!facts.buyer_paid) return role === 'buyer' ? ['cancel', 'mark_paid'] : ['cancel'];
  return role === 'seller' ? ['raise_dispute', 'release_coin'] : ['raise_dispute'];
}

/** The chat's labels for those buttons, the exact texts the screen shows (docs/rules.md "Chat actions"). */
export const CHAT_BUTTON_LABELS: Record<TradeAction, string> = {
  cancel: 'Cancel Trade',
  mark_paid: 'Mark Paid',
  raise_dispute: 'Raise Dispute',
  release_coin: 'Release Crypto',
};

/** The chat's buttons as a trader of `role` reads them, in the screen's order. */
export const buttonLabelsByTheRules = (facts: TradeFacts, role: TradeRole): string[] =>
  chatActionsByTheRules(facts, role).map((action) => CHAT_BUTTON_LABELS[action]);

/** This trader's role in a conversation whose partner has `partnerType`. */
export const roleAgainst = (partnerType: TradeRole): TradeRole => (partnerType === 'seller' ? 'buyer' : 'seller');

/**
 * A trade only moves forward (pending → paid → disputed, or to completed / cancelled for good): what a client
 * keeps when it hears `heard` after knowing `known`, so a late or stale report never moves a trade back.
 */
export function laterByTheRules(known: TradeFacts, heard: TradeFacts): TradeFacts {
  if (known.status !== 'pending') return known;
  if (heard.status !== 'pending') return heard;
  return { status: 'pending', buyer_paid: known.buyer_paid || heard.buyer_paid, dispute_raised: known.dispute_raised || heard.dispute_raised };
}
