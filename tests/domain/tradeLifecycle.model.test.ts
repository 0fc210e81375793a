import { createActor, type AnyActorRef } from 'xstate';
import { createTestModel } from 'xstate/graph';
import type { TradeAction, TradeFacts, TradeRole } from '../../contracts/trade.ts';
import { tradeLifecycleMachine, type TradeLifecycleEvent, type TradeResolution } from '../../domain/tradeLifecycle/tradeLifecycle.machine.ts';
import {
  applyAction,
  availableActions,
  canExpire,
  canResolve,
  canTakeAction,
  factsOf,
  snapshotOf,
} from '../../domain/tradeLifecycle/tradeLifecycle.ts';
import { Coverage } from '../support/machines.ts';
import { TRADE_FACTS, acceptedByTheRules, byTheRules, chatActionsByTheRules, type TradeChange } from '../support/tradeRules.ts';

const roles: TradeRole[] = ['buyer', 'seller'];
/** Every party action the rules know (the oracle's), so a new one is walked as soon as the oracle has it. */
const actions = Object.keys(acceptedByTheRules) as TradeAction[];
const resolutions: TradeResolution[] = ['resolve_release', 'resolve_refund'];
/** Every event the chart can be sent: each action by each party, the payment window's sweep, and a moderator's two settlements. */
const allEvents: TradeLifecycleEvent[] = [
  ...actions.flatMap((action) => roles.map((role) => ({ type: `trade.${action}`, role }) as TradeLifecycleEvent)),
  { type: 'trade.expire' },
  ...resolutions.map((resolution) => ({ type: `trade.${resolution}` }) as TradeLifecycleEvent),
];
const isSideless = (change: TradeChange): change is 'expire' | TradeResolution =>
  change === 'expire' || change === 'resolve_release' || change === 'resolve_refund';

const opened: TradeFacts = TRADE_FACTS.awaitingPayment;

const actionOf = (event: TradeLifecycleEvent) => event.type.slice('trade.'.length) as TradeChange;
const roleOf = (event: TradeLifecycleEvent) => ('role' in event ? event.role : undefined);

/** Everything the helpers say about stored facts must agree with the oracle (tests/support/tradeRules.ts, written without the chart). */
function checkFacts(facts: TradeFacts) {
  expect(factsOf(snapshotOf(facts)), 'facts -> snapshot -> facts').toEqual(facts);
  for (const role of roles) {
    for (const action of actions) {
      expect(canTakeAction(facts, action, role), `${role} ${action} on ${JSON.stringify(facts)}`).toBe(byTheRules(facts, action, role) !== null);
      expect(applyAction(facts, action, role), `${role} ${action} on ${JSON.stringify(facts)}`).toEqual(byTheRules(facts, action, role));
    }
    expect(availableActions(facts, role), `${role}'s chat actions on ${JSON.stringify(facts)}`).toEqual(chatActionsByTheRules(facts, role));
  }
  expect(canExpire(facts)).toBe(byTheRules(facts, 'expire') !== null);
  expect(applyAction(facts, 'expire')).toEqual(byTheRules(facts, 'expire'));
  for (const resolution of resolutions) {
    expect(canResolve(facts, resolution), `${resolution} on ${JSON.stringify(facts)}`).toBe(byTheRules(facts, resolution) !== null);
    expect(applyAction(facts, resolution), `${resolution} on ${JSON.stringify(facts)}`).toEqual(byTheRules(facts, resolution));
  }
}

const model = createTestModel(tradeLifecycleMachine, { events: allEvents });
const shortest = model.getShortestPaths();
const simple = model.getSimplePaths();
const paths = [...shortest, ...simple];

/**
 * The system under test is a stored trade as the server keeps it: facts in a row, changed only through
 * applyAction. A real actor of the chart runs alongside; after each step both must agree with the
 * oracle, and the chart's snapshot must round-trip through the facts.
 */
async function run(path: (typeof paths)[number], coverage?: Coverage) {
  const actor: AnyActorRef = createActor(tradeLifecycleMachine, { inspect: coverage?.inspect }).start();
  let stored: TradeFacts = opened;
  let expected: TradeFacts = opened;
  const exec = ({ event }: { event: TradeLifecycleEvent }) => {
    const action = actionOf(event);
    const role = roleOf(event);
    expected = byTheRules(expected, action, role) ?? expected;
    stored = (isSideless(action) ? applyAction(stored, action) : applyAction(stored, action, role!)) ?? stored;
    actor.send(event);
  };
  const check = (snapshot: ReturnType<typeof snapshotOf>) => {
    expect(stored).toEqual(expected);
    expect(factsOf(snapshot), "the walk's snapshot as facts").toEqual(expected);
    expect(factsOf(actor.getSnapshot()), "the actor's snapshot as facts").toEqual(expected);
    expect(snapshotOf(expected).value, 'snapshot -> facts -> snapshot').toEqual(snapshot.value);
    expect(actor.getSnapshot().status).toBe(expected.status === 'pending' ? 'active' : 'done');
    checkFacts(expected);
    // Whatever the chart refuses here, the running actor ignores too (a final one takes no events at all).
    const refused = allEvents.filter((event) => byTheRules(expected, actionOf(event), roleOf(event)) === null);
    for (const event of expected.status === 'pending' ? refused : []) {
      const before = actor.getSnapshot();
      actor.send(event);
      expect(actor.getSnapshot().value, `refused ${JSON.stringify(event)}`).toEqual(before.value);
    }
  };
  await path.test({
    events: Object.fromEntries(allEvents.map((event) => [event.type, exec])),
    states: {
      '#tradeLifecycle.pending.awaitingPayment': (snapshot) => {
        check(snapshot);
        expect(expected).toEqual(opened);
      },
      '#tradeLifecycle.pending.paid': (snapshot) => {
        check(snapshot);
        expect(expected).toEqual({ status: 'pending', buyer_paid: true, dispute_raised: false });
      },
      '#tradeLifecycle.pending.disputed': (snapshot) => {
        check(snapshot);
        expect(expected).toEqual({ status: 'pending', buyer_paid: true, dispute_raised: true });
      },
      '#tradeLifecycle.completed': (snapshot) => {
        check(snapshot);
        expect(expected.status).toBe('completed');
      },
      '#tradeLifecycle.cancelled': (snapshot) => {
        check(snapshot);
        expect(expected.status).toBe('cancelled');
      },
    },
  });
  actor.stop();
}

const name = (path: (typeof paths)[number]) =>
  `${JSON.stringify(path.state.value)} ⇐ ${path.steps.map(({ event }) => ('role' in event ? `${event.role}:${event.type}` : event.type)).join(' → ') || '(start)'}`;

describe('tradeLifecycle: every path through the chart', () => {
  it('has paths through every state, simple paths included', () => {
    const seen = new Set(paths.flatMap((path) => path.steps.map((step) => JSON.stringify(step.state.value))));
    expect([...seen].sort()).toEqual(
      ['"cancelled"', '"completed"', '{"pending":"awaitingPayment"}', '{"pending":"disputed"}', '{"pending":"paid"}'].sort(),
    );
    expect(simple.length).toBeGreaterThan(shortest.length);
  });

  it.each(paths.map((path) => [name(path), path] as const))('%s', async (_, path) => {
    await run(path);
  });

  it('every event in every reachable state is decided as docs/rules.md "Trades" says', () => {
    const reachable = new Map(paths.map((path) => [JSON.stringify(path.state.value), path.state]));
    for (const snapshot of reachable.values()) {
      const facts = factsOf(snapshot);
      for (const event of allEvents) {
        const allowed = byTheRules(facts, actionOf(event), roleOf(event)) !== null;
        expect(snapshot.can(event), `${JSON.stringify(snapshot.value)} ${JSON.stringify(event)}`).toBe(allowed);
      }
      checkFacts(facts);
    }
  });


  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(tradeLifecycleMachine);
    for (const path of paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${shortest.length} shortest and ${simple.length} simple paths)`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices what the walk leaves out', async () => {
    const coverage = new Coverage(tradeLifecycleMachine);
    const leftOut = paths.filter((path) => !path.steps.some(({ event }) => event.type === 'trade.raise_dispute' || event.type === 'trade.expire'));
    for (const path of leftOut) await run(path, coverage);
    expect(coverage.missingStates()).toEqual(['tradeLifecycle.pending.disputed']);
    expect(coverage.missingTransitions()).toEqual([
      'tradeLifecycle.pending.awaitingPayment —trade.expire#0→ tradeLifecycle.cancelled',
      'tradeLifecycle.pending.paid —trade.raise_dispute#0→ tradeLifecycle.pending.disputed',
      'tradeLifecycle.pending.disputed —trade.resolve_release#0→ tradeLifecycle.completed',
      'tradeLifecycle.pending.disputed —trade.resolve_refund#0→ tradeLifecycle.cancelled',
    ]);
  });

  it('a moderator settles a dispute both ways, and only a dispute', async () => {
    const settled = paths.filter((path) => path.steps.some(({ event }) => event.type === 'trade.resolve_release' || event.type === 'trade.resolve_refund'));
    // Each settlement is the last step of a path that raised the dispute first.
    const ends = new Set(settled.map((path) => `${path.steps.at(-2)?.event.type} → ${path.steps.at(-1)?.event.type}`));
    expect([...ends].sort()).toEqual(['trade.raise_dispute → trade.resolve_refund', 'trade.raise_dispute → trade.resolve_release']);
    for (const path of settled) await run(path);
    const coverage = new Coverage(tradeLifecycleMachine);
    for (const path of paths.filter((path) => !settled.includes(path))) await run(path, coverage);
    expect(coverage.missingTransitions()).toEqual([
      'tradeLifecycle.pending.disputed —trade.resolve_release#0→ tradeLifecycle.completed',
      'tradeLifecycle.pending.disputed —trade.resolve_refund#0→ tradeLifecycle.cancelled',
    ]);
  });
});
