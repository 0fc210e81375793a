import { setup } from 'xstate';
import type { TradeAction, TradeRole } from '../../contracts/trade.ts';

/** A moderator's settlement of a disputed trade (the dispute desk's "Release to buyer" and "Refund seller"). */
export type TradeResolution = 'resolve_release' | 'resolve_refund';

/**
 * Where each party action's button stands in the chat, left to right: giving up on the trade (cancel, dispute)
 * first, then the trader's own step. Kept with the chart so an action is added in one place (the compiler asks
 * for its place here).
 */
export const BUTTON_ORDER: Readonly<Record<TradeAction, number>> = { cancel: 0, raise_dispute: 1, mark_paid: 2, release_coin: 3 };

/**
 * Who asks: one of the two parties (for one of the actions of the contracts), the server's payment-window
 * sweep, or a moderator settling a dispute (the server lets only moderators send those).
 */
export type TradeLifecycleEvent =
  | { type: `trade.${TradeAction}`; role: TradeRole }
  | { type: 'trade.expire' }
  | { type: `trade.${TradeResolution}` };

/**
 * The life of one trade (docs/rules.md "Trades"): the one chart the server consults before it applies an
 * action, and that the chat follows (its buttons, its trade region: tradeChat.actors.ts binds it through
 * tradeLifecycle.ts). Pure logic: no actors, no delays — the payment window is enforced by the server's
 * sweep, which sends `trade.expire`.
 */
export const tradeLifecycleMachine = setup({
  types: { events: {} as TradeLifecycleEvent },
  guards: {
    isBuyer: (_, params: { role: TradeRole }) => params.role === 'buyer',
    isSeller: (_, params: { role: TradeRole }) => params.role === 'seller',
  },
}).createMachine({
  id: 'tradeLifecycle',
  description: 'A trade from open to completed or cancelled, with the buyer_paid and dispute_raised flags as states.',
  initial: 'pending',
  states: {
    pending: {
      description: "The seller's crypto is held in escrow.",
      initial: 'awaitingPayment',
      states: {
        awaitingPayment: {
          description: 'buyer_paid false: the buyer pays outside the platform, then marks it.',
          on: {
            'trade.mark_paid': {
              guard: { type: 'isBuyer', params: ({ event }) => ({ role: event.role }) },
              target: 'paid',
              description: 'Only the buyer marks the payment.',
            },
            'trade.cancel': {
              target: '#tradeLifecycle.cancelled',
              description: 'Either side, before payment is marked: escrow goes back to the seller.',
            },
            'trade.expire': {
              target: '#tradeLifecycle.cancelled',
              description: 'The payment window ran out unpaid: the server cancels, escrow back to the seller.',
            },
          },
        },
        paid: {
          description: 'buyer_paid true: the seller checks the payment and releases.',
          on: {
            'trade.release_coin': {
              guard: { type: 'isSeller', params: ({ event }) => ({ role: event.role }) },
              target: '#tradeLifecycle.completed',
              description: 'Escrow goes to the buyer less the fee; the fee to the platform.',
            },
            'trade.raise_dispute': {
              target: 'disputed',
              description: 'Either side, with a reason: the trade freezes.',
            },
          },
        },
        disputed: {
          description:
            'dispute_raised true: frozen for both parties; only a moderator moves it, after reading the facts and the chat.',
          on: {
            'trade.resolve_release': {
              target: '#tradeLifecycle.completed',
              description: 'A moderator finds the buyer paid: escrow goes to the buyer less the fee, as a release would.',
            },
            'trade.resolve_refund': {
              target: '#tradeLifecycle.cancelled',
              description: 'A moderator finds the payment did not arrive: escrow goes back to the seller.',
            },
          },
        },
      },
    },
    completed: { type: 'final', description: 'The buyer holds the crypto.' },
    cancelled: { type: 'final', description: 'The seller holds the crypto again.' },
  },
});
