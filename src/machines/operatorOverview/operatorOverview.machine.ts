import { assign, setup, stateIn, type EventObject } from 'xstate';
import type { OperatorOverview } from '../../../contracts/operator.ts';
import { liveActors, socketRegion, type ConnectionEvent } from '../shared/liveRegions.ts';
import { clockRegion } from '../shared/waited.ts';
import { unboundAction, unboundCallback, unboundPromise } from '../shared/unbound.ts';

export type OperatorOverviewContext = {
  /** The platform at a glance, as the last read or the last live event left it. */
  overview: OperatorOverview | null;
  /** The page's clock (ms since the epoch), read every minute: the oldest dispute's wait is counted to it. */
  now: number;
};

/** What `private-operators` hands over, parsed against the contracts (operatorOverview.actors.ts). */
export type OperatorsChannelEvent =
  | { type: 'realtime.operators.subscribed' }
  /** `overview`: the whole overview, sent when a number changed. */
  | { type: 'realtime.overview.received'; overview: OperatorOverview }
  /** `reviews`: the review queue changed (its count is on this page). */
  | { type: 'realtime.reviews.changed' };

export type OperatorOverviewEvent = OperatorsChannelEvent | ConnectionEvent | { type: 'overview.retry' };

const keep = { type: 'keepOverview' as const, params: ({ event }: { event: { overview: OperatorOverview } }) => ({ overview: event.overview }) };
const kept = { type: 'keepOverview' as const, params: ({ event }: { event: { output: OperatorOverview } }) => ({ overview: event.output }) };

/**
 * /operator, the overview: traders, trades, disputes, fee income, what each network owes against what it holds,
 * the watcher, the push queue and the review queue, live on `private-operators`.
 */
export const operatorOverviewMachine = setup({
  types: { context: {} as OperatorOverviewContext, events: {} as OperatorOverviewEvent },
  actors: {
    loadOverview: unboundPromise<OperatorOverview>('loadOverview'),
    /** `private-operators`: `realtime.overview.received`, `realtime.reviews.changed`, and `realtime.operators.subscribed` on each (re)join. */
    operatorsChannel: unboundCallback<EventObject>('operatorsChannel'),
    watchConnection: liveActors.watchConnection,
  },
  actions: {
    keepOverview: assign((_, params: { overview: OperatorOverview }) => ({ overview: params.overview })),
    /** Reads the time into `now` (bound: the browser's clock). */
    tick: unboundAction('tick'),
  },
  guards: {
    /** Realtime cannot reach the page now. */
    isOffline: stateIn('#operatorOverview.connection.offline'),
  },
  delays: {
    /** How often the overview is read again while realtime cannot reach the page (never while it can). */
    offlineRefreshInterval: 60_000,
    waitingTick: 60_000,
  },
}).createMachine({
  id: 'operatorOverview',
  description: 'The operator’s overview of the platform: read once, then kept current by the operators’ channel (read on a timer while it is down).',
  context: { overview: null, now: 0 },
  type: 'parallel',
  states: {
    overview: {
      description: 'The numbers, read once and then kept current.',
      invoke: { id: 'operatorsChannel', src: 'operatorsChannel', onError: { description: 'No live updates: the page shows what the reads bring.' } },
      initial: 'loading',
      states: {
        loading: {
          tags: ['busy'],
          description: 'The first read: a spinner.',
          invoke: { id: 'loadOverview', src: 'loadOverview', onDone: { target: 'shown', actions: kept }, onError: { target: 'failed' } },
          on: {
            'realtime.operators.subscribed': {
              target: 'loading',
              reenter: true,
              description: 'Joined while the read was on its way: read again, so no change before the join is missed.',
            },
            'realtime.overview.received': { target: 'shown', actions: keep, description: 'The channel was first: its overview is whole.' },
          },
        },
        failed: {
          description: 'The first read failed: a message and "Try again".',
          on: {
            'overview.retry': { target: 'loading' },
            'realtime.operators.subscribed': { target: 'loading', description: 'The channel is back: try again.' },
            'realtime.overview.received': { target: 'shown', actions: keep },
          },
        },
        shown: {
          description: 'The numbers; each live `overview` replaces them whole.',
          on: {
            'realtime.overview.received': { actions: keep },
            'realtime.operators.subscribed': { target: 'refreshing', description: 'Joined again after a reconnect: read what was missed.' },
            'realtime.reviews.changed': { target: 'refreshing', description: 'The review queue changed: its count is read again.' },
          },
          after: {
            offlineRefreshInterval: [
              { guard: 'isOffline', target: 'refreshing', description: 'Realtime cannot reach the page: read again, once a minute.' },
              { target: 'shown', reenter: true, description: 'Live: nothing to read; look again in a minute.' },
            ],
          },
        },
        refreshing: {
          description: 'Read again; the numbers stay meanwhile, and stay if the read fails.',
          invoke: { id: 'refreshOverview', src: 'loadOverview', onDone: { target: 'shown', actions: kept }, onError: { target: 'shown' } },
          on: {
            'realtime.overview.received': { actions: keep },
            'realtime.operators.subscribed': {
              target: 'refreshing',
              reenter: true,
              description: 'Joined again meanwhile: this read may have started before what was missed; read once more.',
            },
          },
        },
      },
    },
    connection: socketRegion(
      'Whether the channel can reach the page: only while it cannot is the overview read on a timer.',
      'Live: "Live" beside the title; the numbers arrive on the channel.',
      'No realtime: "Updated every minute"; the overview is read again each minute.',
    ),
    clock: clockRegion('Reads the time once a minute, so the oldest dispute’s wait stays current.'),
  },
});

export type OperatorOverviewLogic = typeof operatorOverviewMachine;
