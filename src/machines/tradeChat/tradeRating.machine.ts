import { assign, setup } from 'xstate';
import type { TradeRatingRequest } from '../../services/trades.ts';
import type { Notice } from '../shared/notify.ts';
import { unboundPromise } from '../shared/unbound.ts';

export type TradeRatingInput = { channel: string; partner: string };

export type TradeRatingContext = {
  channel: string;
  /** Whom the stars are for ("Rate {partner}"). */
  partner: string;
  /** 1–5 once chosen. */
  score: number | null;
  comment: string;
};

/** What the conversation keeps once the server took the rating (its `my_rating`). */
export type TradeRatingOutput = { score: number; comment: string };

export type TradeRatingEvent =
  | { type: 'rating.score.change'; score: number }
  | { type: 'rating.comment.change'; value: string }
  | { type: 'rating.submit' };

/**
 * "Rate {partner}" on a completed trade (docs/rules.md "Reputation"): 1–5 stars and an optional comment, sent
 * once. Invoked by the conversation (tradeConversation.machine.ts) while the trader has not rated this trade.
 */
export const tradeRatingMachine = setup({
  types: {
    context: {} as TradeRatingContext,
    events: {} as TradeRatingEvent,
    input: {} as TradeRatingInput,
    output: {} as TradeRatingOutput,
  },
  actors: {
    /** Answers the sentence of the toast. */
    rate: unboundPromise<string, TradeRatingRequest>('rate'),
  },
  actions: {
    setScore: assign((_, params: { score: number }) => ({ score: params.score })),
    setComment: assign((_, params: { value: string }) => ({ comment: params.value })),
    notify: (_, _params: Notice) => {},
  },
  guards: {
    /** A score chosen and a comment of at most 500 characters (tradeChat.rules.ts, from the contract). */
    canSubmitRating: (): boolean => {
      throw new Error('canSubmitRating is bound in the route (tradeChat.actors.ts)');
    },
  },
}).createMachine({
  id: 'tradeRating',
  description: 'Stars and a comment for the partner of a completed trade; Submit stays disabled until a score is chosen.',
  context: ({ input }) => ({ channel: input.channel, partner: input.partner, score: null, comment: '' }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'rating.score.change': { actions: { type: 'setScore', params: ({ event }) => ({ score: event.score }) } },
        'rating.comment.change': { actions: { type: 'setComment', params: ({ event }) => ({ value: event.value }) } },
        'rating.submit': { guard: 'canSubmitRating', target: 'submitting' },
      },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        id: 'rate',
        src: 'rate',
        input: ({ context }) => ({
          channel: context.channel,
          score: context.score!,
          ...(context.comment.trim() ? { comment: context.comment.trim() } : {}),
        }),
        onDone: {
          target: 'rated',
          actions: { type: 'notify', params: ({ event }) => ({ title: 'Rating sent', description: event.output, type: 'success' }) },
        },
        onError: {
          target: 'editing',
          description: 'The refusal shows as a toast (already rated: 409); the stars and the comment stay.',
        },
      },
    },
    rated: {
      type: 'final',
      description: 'The conversation keeps the rating as its my_rating: "You rated {partner} N/5".',
    },
  },
  output: ({ context }) => ({ score: context.score!, comment: context.comment.trim() }),
});

export type TradeRatingLogic = typeof tradeRatingMachine;
