import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { ChartLayout } from '../../ui/flows/layout.ts';
import type { LiveActor, LiveEvent } from '../../services/flowLive.ts';

export type ChartSummary = { id: string; description: string };
export type AtlasItem = { kind: 'state' | 'transition'; id: string };
export type AtlasAccess = { open: boolean; live: boolean };
export type FlowAtlasView = 'diagram' | 'paths';

export type FlowAtlasContext = {
  charts: ChartSummary[];
  chartId: string | null;
  layout: ChartLayout | null;
  view: FlowAtlasView;
  selected: AtlasItem | null;
  /** Running actors of the pages beside the atlas, by key. */
  liveActors: Record<string, LiveActor>;
  /** The last events they received, newest first (types only). */
  liveEvents: LiveEvent[];
  live: boolean;
};
export type FlowAtlasInput = { charts: ChartSummary[]; chart: string | null };
export type FlowAtlasEvent =
  /** `null`: no chart named (an address without `?chart=`), which opens the first. */
  | { type: 'chart.select'; chart: string | null }
  | { type: 'view.change'; view: FlowAtlasView }
  | { type: 'item.select'; item: AtlasItem | null }
  | { type: 'layout.retry' }
  | { type: 'live.actor'; actor: LiveActor }
  | { type: 'live.gone'; key: string }
  | { type: 'live.event'; event: LiveEvent };

export const LIVE_EVENTS_KEPT = 50;

/** The flow atlas (/flows): every chart of the product as a diagram, its shortest paths, and live states in development. */
export const flowAtlasMachine = setup({
  types: { context: {} as FlowAtlasContext, events: {} as FlowAtlasEvent, input: {} as FlowAtlasInput },
  actors: {
    checkAccess: fromPromise<AtlasAccess>(async () => {
      throw new Error('checkAccess is bound in the route (flowAtlas.actors.ts)');
    }),
    layoutChart: fromPromise<ChartLayout, { chart: string }>(async () => {
      throw new Error('layoutChart is bound in the route (flowAtlas.actors.ts)');
    }),
    liveFeed: fromCallback<FlowAtlasEvent>(() => {
      throw new Error('liveFeed is bound in the route (flowAtlas.actors.ts)');
    }),
  },
  actions: {
    choose: assign((_, params: { chart: string | null }) => ({ chartId: params.chart, layout: null, selected: null })),
    chooseFirstIfNoneNamed: assign(({ context }) => ({ chartId: context.chartId ?? context.charts[0]?.id ?? null })),
    keepAccess: assign((_, params: { access: AtlasAccess }) => ({ live: params.access.live })),
    keepLayout: assign((_, params: { layout: ChartLayout }) => ({ layout: params.layout })),
    setView: assign((_, params: { view: FlowAtlasView }) => ({ view: params.view })),
    setSelected: assign((_, params: { item: AtlasItem | null }) => ({ selected: params.item })),
    keepActor: assign(({ context }, params: { actor: LiveActor }) => ({ liveActors: { ...context.liveActors, [params.actor.key]: params.actor } })),
    dropActor: assign(({ context }, params: { key: string }) => {
      const { [params.key]: _gone, ...rest } = context.liveActors;
      return { liveActors: rest };
    }),
    keepEvent: assign(({ context }, params: { event: LiveEvent }) => ({ liveEvents: [params.event, ...context.liveEvents].slice(0, LIVE_EVENTS_KEPT) })),
  },
  guards: {
    isOpen: (_, params: { access: AtlasAccess }) => params.access.open,
    isLive: ({ context }) => context.live,
    isKnownChart: ({ context }) => context.charts.some((chart) => chart.id === context.chartId),
  },
}).createMachine({
  id: 'flowAtlas',
  description: 'Every chart of the product drawn from its definition, its shortest paths, and the states of the pages beside it.',
  context: ({ input }) => ({
    charts: input.charts,
    chartId: input.chart,
    layout: null,
    view: 'diagram',
    selected: null,
    liveActors: {},
    liveEvents: [],
    live: false,
  }),
  initial: 'checkingAccess',
  states: {
    checkingAccess: {
      description: 'GET /api/config says who may open the atlas: everyone (development, FLOW_ATLAS=on) or moderators.',
      invoke: {
        id: 'checkAccess',
        src: 'checkAccess',
        onDone: [
          {
            guard: { type: 'isOpen', params: ({ event }) => ({ access: event.output }) },
            target: 'open',
            actions: { type: 'keepAccess', params: ({ event }) => ({ access: event.output }) },
          },
          { target: 'refused' },
        ],
        onError: { target: 'refused', description: 'Without the configuration nobody is let in.' },
      },
    },
    refused: {
      tags: ['notFound'],
      description: 'Shown as the product’s page-not-found, as /moderation is to a trader.',
    },
    open: {
      type: 'parallel',
      states: {
        chart: {
          initial: 'choosing',
          on: {
            'chart.select': { target: '.choosing', actions: { type: 'choose', params: ({ event }) => ({ chart: event.chart }) } },
            'view.change': { actions: { type: 'setView', params: ({ event }) => ({ view: event.view }) } },
          },
          states: {
            choosing: {
              description: 'The chart named in the address or picked in the list; none named opens the first, not an empty page.',
              entry: 'chooseFirstIfNoneNamed',
              always: [
                { guard: 'isKnownChart', target: 'layingOut' },
                { target: 'unknown' },
              ],
            },
            unknown: { description: 'The chart named in the address does not exist (any more), or the atlas has none.' },
            layingOut: {
              tags: ['busy'],
              invoke: {
                id: 'layoutChart',
                src: 'layoutChart',
                input: ({ context }) => ({ chart: context.chartId ?? '' }),
                onDone: { target: 'showing', actions: { type: 'keepLayout', params: ({ event }) => ({ layout: event.output }) } },
                onError: 'failed',
              },
            },
            showing: {
              description: 'The diagram (or the paths); a focused or hovered state or transition shows its description.',
              on: { 'item.select': { actions: { type: 'setSelected', params: ({ event }) => ({ item: event.item }) } } },
            },
            failed: { on: { 'layout.retry': 'layingOut' } },
          },
        },
        live: {
          initial: 'deciding',
          states: {
            deciding: { always: [{ guard: 'isLive', target: 'listening' }, { target: 'off' }] },
            off: { description: 'Live mode is for development: production pages do not broadcast their states.' },
            listening: {
              description: 'Pages of this browser post their actors’ states and event types over a BroadcastChannel.',
              invoke: { id: 'liveFeed', src: 'liveFeed' },
              on: {
                'live.actor': { actions: { type: 'keepActor', params: ({ event }) => ({ actor: event.actor }) } },
                'live.gone': { actions: { type: 'dropActor', params: ({ event }) => ({ key: event.key }) } },
                'live.event': { actions: { type: 'keepEvent', params: ({ event }) => ({ event: event.event }) } },
              },
            },
          },
        },
      },
    },
  },
});
