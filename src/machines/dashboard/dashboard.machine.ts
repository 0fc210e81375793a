import { assign, fromPromise, setup } from 'xstate';
import type { Overview } from '../../../contracts/index.ts';

export type DashboardContext = { overview: Overview | null };
export type DashboardEvent = { type: 'overview.refresh' };

/** The dashboard's figures from `user/overview/`; a failure leaves them empty, without a message. */
export const dashboardMachine = setup({
  types: { context: {} as DashboardContext, events: {} as DashboardEvent },
  actors: {
    loadOverview: fromPromise<Overview | null>(async () => {
      throw new Error('loadOverview is bound in the route (dashboard.actors.ts)');
    }),
  },
  actions: {
    keepOverview: assign((_, params: { overview: Overview | null }) => ({ overview: params.overview })),
  },
}).createMachine({
  id: 'dashboard',
  description: 'Greeting, four stat cards and the recent trades of the signed-in trader.',
  context: { overview: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadOverview',
        src: 'loadOverview',
        onDone: { target: 'ready', actions: { type: 'keepOverview', params: ({ event }) => ({ overview: event.output }) } },
        onError: { target: 'ready', description: 'Overview failure yields null: the cards show 0.' },
      },
    },
    ready: {
      on: { 'overview.refresh': { target: 'loading' } },
    },
  },
});
