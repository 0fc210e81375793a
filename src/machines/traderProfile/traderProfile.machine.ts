import { assign, setup } from 'xstate';
import type { OfferConditions, OfferListItem } from '../../../contracts/index.ts';
import type { TraderProfile, TraderStanding } from '../../../contracts/traders.ts';
import { standingRead } from '../shared/standing.ts';
import { unboundPromise, unboundRule } from '../shared/unbound.ts';

export type TraderProfileInput = { username: string };

export type TraderProfileContext = {
  username: string;
  /** The record as the last load brought it. */
  profile: TraderProfile | null;
  /**
   * The signed-in trader's own facts as offers' conditions weigh them (`market/traders/` standing), null until they
   * have loaded: which of this trader's offers they may take.
   */
  standing: TraderStanding | null;
};

export type TraderProfileEvent = { type: 'profile.retry' } | { type: 'offer.take'; offer: OfferListItem };

/** /traders/$username: one trader's public record (docs/api.md "Trader profiles"), and a way into each of their offers. */
export const traderProfileMachine = setup({
  types: {
    context: {} as TraderProfileContext,
    events: {} as TraderProfileEvent,
    input: {} as TraderProfileInput,
  },
  actors: {
    /** Answers null for a username nobody has. */
    loadProfile: unboundPromise<TraderProfile | null, { username: string }>('loadProfile'),
    loadStanding: unboundPromise<TraderStanding>('loadStanding'),
  },
  actions: {
    keepProfile: assign((_, params: { profile: TraderProfile }) => ({ profile: params.profile })),
    keepStanding: assign((_, params: { standing: TraderStanding }) => ({ standing: params.standing })),
    /** Opens that offer's Trade Preview dialog (bound in the route, where the dialog's actor lives, as on Browse Offers). */
    takeOffer: (_, _params: { offer: OfferListItem }) => {},
  },
  guards: {
    isFound: (_, params: { profile: TraderProfile | null }) => params.profile !== null,
    /** The trader meets the offer's conditions, or their standing is unknown and the server will say (shared/rules.ts). */
    canTake: unboundRule<{ offer: OfferConditions; standing: TraderStanding | null }>('canTake'),
  },
}).createMachine({
  id: 'traderProfile',
  description: "A trader's record: joined, trades, completion rate, rating with the latest comments, active offers, each opening its own Trade Preview.",
  context: ({ input }) => ({ username: input.username, profile: null, standing: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadProfile',
        src: 'loadProfile',
        input: ({ context }) => ({ username: context.username }),
        onDone: [
          {
            guard: { type: 'isFound', params: ({ event }) => ({ profile: event.output }) },
            target: 'loaded',
            actions: { type: 'keepProfile', params: ({ event }) => ({ profile: event.output! }) },
          },
          { target: 'notFound', description: 'Nobody has that username (the server answered 404).' },
        ],
        onError: { target: 'error' },
      },
    },
    loaded: {
      description: 'The record shows; the trader\'s own standing loads beside it, for the offers\' trade buttons.',
      initial: 'standing',
      states: { standing: standingRead },
      on: {
        'offer.take': {
          description: "An offer's trade button: opens that offer's Trade Preview, unless the trader misses the offer's conditions.",
          guard: { type: 'canTake', params: ({ context, event }) => ({ offer: event.offer, standing: context.standing }) },
          actions: { type: 'takeOffer', params: ({ event }) => ({ offer: event.offer }) },
        },
      },
    },
    notFound: { description: '"No trader called {username}", and a way back to the offers.' },
    error: {
      description: 'The load failed (network, server): "Try again".',
      on: { 'profile.retry': { target: 'loading' } },
    },
  },
});
