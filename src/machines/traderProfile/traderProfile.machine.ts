import { assign, fromPromise, setup } from 'xstate';
import type { TraderProfile } from '../../../contracts/traders.ts';

export type TraderProfileInput = { username: string };

export type TraderProfileContext = {
  username: string;
  /** The record as the last load brought it. */
  profile: TraderProfile | null;
};

export type TraderProfileEvent = { type: 'profile.retry' };

const stub = (name: string) => () => {
  throw new Error(`${name} is bound in the route (traderProfile.actors.ts)`);
};

/** /traders/$username: one trader's public record (docs/api.md "Trader profiles"). */
export const traderProfileMachine = setup({
  types: {
    context: {} as TraderProfileContext,
    events: {} as TraderProfileEvent,
    input: {} as TraderProfileInput,
  },
  actors: {
    /** Answers null for a username nobody has. */
    loadProfile: fromPromise<TraderProfile | null, { username: string }>(async () => stub('loadProfile')()),
  },
  actions: {
    keepProfile: assign((_, params: { profile: TraderProfile }) => ({ profile: params.profile })),
  },
  guards: {
    isFound: (_, params: { profile: TraderProfile | null }) => params.profile !== null,
  },
}).createMachine({
  id: 'traderProfile',
  description: "A trader's record: joined, trades, completion rate, rating with the latest comments, active offers.",
  context: ({ input }) => ({ username: input.username, profile: null }),
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
    loaded: {},
    notFound: { description: '"No trader called {username}", and a way back to the offers.' },
    error: {
      description: 'The load failed (network, server): "Try again".',
      on: { 'profile.retry': { target: 'loading' } },
    },
  },
});
