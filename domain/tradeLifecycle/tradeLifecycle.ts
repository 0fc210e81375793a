import { transition, type AnyStateNode, type SnapshotFrom, type StateValue } from 'xstate';
import type { TradeAction, TradeFacts, TradeRole } from '../../contracts/trade.ts';
import { BUTTON_ORDER, tradeLifecycleMachine, type TradeLifecycleEvent, type TradeResolution } from './tradeLifecycle.machine.ts';

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

/** Every party action, in the order the chat shows its buttons (the chart's BUTTON_ORDER). */
const TRADE_ACTIONS = (Object.keys(BUTTON_ORDER) as TradeAction[]).sort((a, b) => BUTTON_ORDER[a] - BUTTON_ORDER[b]);

/**
 * The actions a party may take now, in the order the chat shows its buttons (docs/rules.md "Chat actions"): the
 * chat reads this, and the server refuses by the same chart, so a button and a refusal always agree.
 */
export function availableActions(facts: TradeFacts, role: TradeRole): TradeAction[] {
  return TRADE_ACTIONS.filter((action) => canTakeAction(facts, action, role));
}

/** The chart's state for a trade, by the name of its innermost state: what the chat's trade region follows. */
export type TradeStage = 'awaitingPayment' | 'paid' | 'disputed' | 'completed' | 'cancelled';

/** Which state of the chart stored facts are in. */
export function stageOf(facts: TradeFacts): TradeStage {
  const { value } = snapshotOf(facts);
  return (typeof value === 'string' ? value : Object.values(value)[0]) as TradeStage;
}

/**
 * Whether the trade has reached one of the chart's final states (completed, cancelled): nothing more can happen
 * to it. The chat's list shows the others as its open trades.
 */
export function isFinished(facts: TradeFacts): boolean {
  return snapshotOf(facts).status === 'done';
}

/** Every state of the chart, compound ones included. */
const nodesOf = (node: AnyStateNode): AnyStateNode[] => [node, ...Object.values(node.states).flatMap(nodesOf)];
const NODES = nodesOf(tradeLifecycleMachine.root);

/** The stored facts of a state of the chart (its innermost state, as its transitions target). */
const factsAt = (node: AnyStateNode): TradeFacts => {
  const value = node.path.reduceRight<StateValue | null>((inner, key) => (inner === null ? key : { [key]: inner }), null);
  return factsOf(tradeLifecycleMachine.resolveState({ value: value!, context: undefined as never }));
};

/**
 * The facts once the server has accepted `action`, whatever the client knew when it asked: the target of the
 * action's one transition in the chart, so a client shows the outcome at once without restating it.
 */
export function factsAfter(action: TradeAction): TradeFacts {
  const target = NODES.flatMap((node) => node.transitions.get(`trade.${action}`) ?? [])
    .map((transition) => transition.target?.[0])
    .find((node) => node !== undefined);
  if (!target) throw new Error(`the lifecycle chart has no transition for ${action}`);
  return factsAt(target);
}

/** The states the chart can lead to from `stage` by any transition (whoever sends it), `stage` included. */
function reachableFrom(stage: TradeStage): Set<TradeStage> {
  const reached = new Set<TradeStage>([stage]);
  const queue = [stage];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const node = NODES.find((candidate) => candidate.key === next && Object.keys(candidate.states).length === 0)!;
    const chain: AnyStateNode[] = [];
    for (let ancestor: AnyStateNode | undefined = node; ancestor; ancestor = ancestor.parent) chain.push(ancestor);
    for (const transition of chain.flatMap((ancestor) => [...ancestor.transitions.values()].flat())) {
      for (const target of transition.target ?? []) {
        const targetStage = stageOf(factsAt(target));
        if (!reached.has(targetStage)) {
          reached.add(targetStage);
          queue.push(targetStage);
        }
      }
    }
  }
  return reached;
}

/**
 * What a client keeps when it hears `heard` after knowing `known`: `heard` if the chart can lead there, else
 * `known`. A trade only moves forward, so a late or stale report (a reload begun before a change) never
 * moves it back.
 */
export function laterFacts(known: TradeFacts, heard: TradeFacts): TradeFacts {
  const { status, buyer_paid, dispute_raised } = reachableFrom(stageOf(known)).has(stageOf(heard)) ? heard : known;
  return { status, buyer_paid, dispute_raised };
}
