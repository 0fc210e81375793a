import { transition, type SnapshotFrom, type StateValue } from 'xstate';
import type { TradeAction, TradeFacts, TradeRole } from '../../contracts/trade.ts';
import { tradeLifecycleMachine, type TradeLifecycleEvent, type TradeResolution } from './tradeLifecycle.machine.ts';

export type { TradeResolution } from './tradeLifecycle.machine.ts';

type TradeSnapshot = SnapshotFrom<typeof tradeLifecycleMachine>;

function stateValueOf(facts: TradeFacts): StateValue {
  if (facts.status !== 'pending') return facts.status;
  if (facts.dispute_raised) return { pending: 'disputed' };
  return { pending: facts.buyer_paid ? 'paid' : 'awaitingPayment' };
}

/** The chart's snapshot for a stored trade. */
export function snapshotOf(facts: TradeFacts): TradeSnapshot {
  return tradeLifecycleMachine.resolveState({ value: stateValueOf(facts), context: undefined as never });
}

/** The stored facts for a snapshot of the chart. */
export function factsOf(snapshot: TradeSnapshot): TradeFacts {
  if (snapshot.matches('completed')) return { status: 'completed', buyer_paid: true, dispute_raised: false };
  if (snapshot.matches('cancelled')) return { status: 'cancelled', buyer_paid: false, dispute_raised: false };
  return {
    status: 'pending',
    buyer_paid: snapshot.matches({ pending: 'paid' }) || snapshot.matches({ pending: 'disputed' }),
    dispute_raised: snapshot.matches({ pending: 'disputed' }),
  };
}

export const eventFor = (action: TradeAction, role: TradeRole): TradeLifecycleEvent => ({ type: `trade.${action}`, role });

/** Whether `role` may take `action` on a trade in this state (docs/rules.md "Trades"). */
export function canTakeAction(facts: TradeFacts, action: TradeAction, role: TradeRole): boolean {
  return snapshotOf(facts).can(eventFor(action, role));
}

/** Whether a moderator may settle this trade with `resolution` (only a disputed trade). */
export function canResolve(facts: TradeFacts, resolution: TradeResolution): boolean {
  return snapshotOf(facts).can({ type: `trade.${resolution}` });
}

/** Whether the payment window may still cancel this trade. */
export function canExpire(facts: TradeFacts): boolean {
  return snapshotOf(facts).can({ type: 'trade.expire' });
}

/**
 * The facts after `action`, or null when the chart refuses it. The server writes exactly these,
 * conditioned on the facts it read, so two racing actions cannot both apply.
 */
export function applyAction(facts: TradeFacts, action: 'expire' | TradeResolution): TradeFacts | null;
export function applyAction(facts: TradeFacts, action: TradeAction, role: TradeRole): TradeFacts | null;
export function applyAction(facts: TradeFacts, action: TradeAction | 'expire' | TradeResolution, role?: TradeRole): TradeFacts | null {
  const snapshot = snapshotOf(facts);
  // The overloads make a party's action name its role; the sweep's expiry and a moderator's settlement come without one.
  const event: TradeLifecycleEvent =
    action === 'expire' || action === 'resolve_release' || action === 'resolve_refund'
      ? { type: `trade.${action}` }
      : eventFor(action, role as TradeRole);
  if (!snapshot.can(event)) return null;
  const [next] = transition(tradeLifecycleMachine, snapshot, event);
  return factsOf(next);
}

/**
 * The actions a party may take now, for the chat's buttons (docs/rules.md "Chat actions"); the chat screen
 * arrives with the realtime issue and reads this, so that the buttons and the server's refusals agree.
 */
export function availableActions(facts: TradeFacts, role: TradeRole): TradeAction[] {
  const actions: TradeAction[] = ['mark_paid', 'cancel', 'raise_dispute', 'release_coin'];
  return actions.filter((action) => canTakeAction(facts, action, role));
}
