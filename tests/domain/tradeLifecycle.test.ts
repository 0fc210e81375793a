import { createActor } from 'xstate';
import type { TradeAction, TradeFacts, TradeRole } from '../../contracts/trade.ts';
import { tradeLifecycleMachine } from '../../domain/tradeLifecycle/tradeLifecycle.machine.ts';
import {
  applyAction,
  availableActions,
  canExpire,
  canResolve,
  canTakeAction,
  eventFor,
  factsAfter,
  factsOf,
  isFinished,
  laterFacts,
  snapshotOf,
  stageOf,
} from '../../domain/tradeLifecycle/tradeLifecycle.ts';
import { TRADE_FACTS, acceptedByTheRules, chatActionsByTheRules, isFinishedByTheRules, laterByTheRules } from '../support/tradeRules.ts';

const unpaid: TradeFacts = { status: 'pending', buyer_paid: false, dispute_raised: false };
const paid: TradeFacts = { status: 'pending', buyer_paid: true, dispute_raised: false };
const disputed: TradeFacts = { status: 'pending', buyer_paid: true, dispute_raised: true };
const completed: TradeFacts = { status: 'completed', buyer_paid: true, dispute_raised: false };
const cancelled: TradeFacts = { status: 'cancelled', buyer_paid: false, dispute_raised: false };

describe('trade lifecycle chart (docs/rules.md "Trades")', () => {
  it('a trade opens pending and unpaid', () => {
    const actor = createActor(tradeLifecycleMachine).start();
    expect(actor.getSnapshot().value).toEqual({ pending: 'awaitingPayment' });
    expect(factsOf(actor.getSnapshot())).toEqual(unpaid);
  });

  it('the buyer marks paid, the seller releases: completed, and then nothing more', () => {
    const actor = createActor(tradeLifecycleMachine).start();
    actor.send({ type: 'trade.release_coin', role: 'seller' });
    expect(actor.getSnapshot().value, 'no release before payment').toEqual({ pending: 'awaitingPayment' });
    actor.send({ type: 'trade.mark_paid', role: 'seller' });
    expect(actor.getSnapshot().value, 'the seller cannot mark paid').toEqual({ pending: 'awaitingPayment' });
    actor.send({ type: 'trade.mark_paid', role: 'buyer' });
    expect(actor.getSnapshot().value).toEqual({ pending: 'paid' });
    actor.send({ type: 'trade.release_coin', role: 'buyer' });
    expect(actor.getSnapshot().value, 'the buyer cannot release').toEqual({ pending: 'paid' });
    actor.send({ type: 'trade.release_coin', role: 'seller' });
    expect(actor.getSnapshot().value).toBe('completed');
    expect(actor.getSnapshot().status).toBe('done');
  });

  it.each<[string, TradeFacts, TradeAction | 'expire', TradeRole | undefined, TradeFacts | null]>([
    ['the buyer marks an unpaid trade paid', unpaid, 'mark_paid', 'buyer', paid],
    ['the seller cannot mark paid', unpaid, 'mark_paid', 'seller', null],
    ['the buyer cannot mark paid twice', paid, 'mark_paid', 'buyer', null],
    ['the seller releases a paid trade', paid, 'release_coin', 'seller', completed],
    ['the buyer cannot release', paid, 'release_coin', 'buyer', null],
    ['the seller cannot release before payment', unpaid, 'release_coin', 'seller', null],
    ['the buyer cancels before payment', unpaid, 'cancel', 'buyer', cancelled],
    ['the seller cancels before payment', unpaid, 'cancel', 'seller', cancelled],
    ['nobody cancels once paid (buyer)', paid, 'cancel', 'buyer', null],
    ['nobody cancels once paid (seller)', paid, 'cancel', 'seller', null],
    ['the buyer disputes a paid trade', paid, 'raise_dispute', 'buyer', disputed],
    ['the seller disputes a paid trade', paid, 'raise_dispute', 'seller', disputed],
    ['no dispute before payment', unpaid, 'raise_dispute', 'buyer', null],
    ['the payment window cancels an unpaid trade', unpaid, 'expire', undefined, cancelled],
    ['the payment window leaves a paid trade alone', paid, 'expire', undefined, null],
    ['the payment window leaves a disputed trade alone', disputed, 'expire', undefined, null],
    ['a disputed trade is frozen: no release', disputed, 'release_coin', 'seller', null],
    ['a disputed trade is frozen: no second dispute', disputed, 'raise_dispute', 'buyer', null],
    ['a disputed trade is frozen: no cancel', disputed, 'cancel', 'seller', null],
    ['a completed trade takes nothing', completed, 'raise_dispute', 'buyer', null],
    ['a cancelled trade takes nothing', cancelled, 'mark_paid', 'buyer', null],
    ['a cancelled trade does not expire again', cancelled, 'expire', undefined, null],
  ])('%s', (_, facts, action, role, after) => {
    expect(action === 'expire' ? applyAction(facts, 'expire') : applyAction(facts, action, role!)).toEqual(after);
    if (action === 'expire') expect(canExpire(facts)).toBe(after !== null);
    else expect(canTakeAction(facts, action, role!)).toBe(after !== null);
  });

  it.each<[string, TradeFacts, 'resolve_release' | 'resolve_refund', TradeFacts | null]>([
    ['a moderator releases a disputed trade to the buyer', disputed, 'resolve_release', completed],
    ['a moderator refunds a disputed trade to the seller', disputed, 'resolve_refund', cancelled],
    ['no settlement of an undisputed paid trade (release)', paid, 'resolve_release', null],
    ['no settlement of an undisputed paid trade (refund)', paid, 'resolve_refund', null],
    ['no settlement of an unpaid trade', unpaid, 'resolve_refund', null],
    ['no second settlement of a released trade', completed, 'resolve_refund', null],
    ['no second settlement of a refunded trade', cancelled, 'resolve_release', null],
  ])('%s', (_, facts, resolution, after) => {
    expect(applyAction(facts, resolution)).toEqual(after);
    expect(canResolve(facts, resolution)).toBe(after !== null);
  });

  it('a settlement ends the trade: the actor is done and takes no more events', () => {
    for (const [resolution, end] of [['trade.resolve_release', 'completed'], ['trade.resolve_refund', 'cancelled']] as const) {
      const actor = createActor(tradeLifecycleMachine, { snapshot: snapshotOf(disputed) }).start();
      actor.send({ type: 'trade.expire' });
      actor.send({ type: 'trade.release_coin', role: 'seller' });
      expect(actor.getSnapshot().value, 'frozen for the parties and the sweep').toEqual({ pending: 'disputed' });
      actor.send({ type: resolution });
      expect(actor.getSnapshot().value).toBe(end);
      expect(actor.getSnapshot().status).toBe('done');
    }
  });

  it('applyAction leaves the facts it was given untouched', () => {
    const facts = { ...unpaid };
    applyAction(facts, 'mark_paid', 'buyer');
    expect(facts).toEqual(unpaid);
  });

  it('stored facts and chart snapshots map onto each other', () => {
    expect(snapshotOf(unpaid).value).toEqual({ pending: 'awaitingPayment' });
    expect(snapshotOf(paid).value).toEqual({ pending: 'paid' });
    expect(snapshotOf(disputed).value).toEqual({ pending: 'disputed' });
    expect(snapshotOf(completed).value).toBe('completed');
    expect(snapshotOf(cancelled).value).toBe('cancelled');
    for (const facts of [unpaid, paid, disputed, completed, cancelled]) expect(factsOf(snapshotOf(facts))).toEqual(facts);
  });

  it('eventFor names the chart event of an action by a party', () => {
    expect(eventFor('raise_dispute', 'seller')).toEqual({ type: 'trade.raise_dispute', role: 'seller' });
  });

  it.each(Object.entries(TRADE_FACTS))('the chat shows the buttons of %s in the screen\'s order', (_, facts) => {
    for (const role of ['buyer', 'seller'] as const) expect(availableActions(facts, role), role).toEqual(chatActionsByTheRules(facts, role));
  });

  it.each(Object.entries(TRADE_FACTS))('stageOf names the chart state %s', (stage, facts) => {
    expect(stageOf(facts)).toBe(stage);
  });

  it.each(Object.entries(TRADE_FACTS))('isFinished: %s is one of the chart\'s final states or not', (_, facts) => {
    expect(isFinished(facts)).toBe(isFinishedByTheRules(facts));
  });

  it.each(Object.entries(TRADE_FACTS))('laterFacts: after %s, only what the chart leads to is kept', (_, known) => {
    for (const heard of Object.values(TRADE_FACTS)) expect(laterFacts(known, heard), JSON.stringify(heard)).toEqual(laterByTheRules(known, heard));
  });

  it.each(Object.entries(acceptedByTheRules))('factsAfter %s: the target of its transition in the chart', (action, facts) => {
    expect(factsAfter(action as TradeAction)).toEqual(facts);
  });
});
