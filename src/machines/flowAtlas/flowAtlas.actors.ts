import { fromCallback, fromPromise } from 'xstate';
import { listenToLivePages } from '../../services/flowLive.ts';
import { atlasCharts } from '../../ui/flows/atlasCharts.ts';
import { chartGraph } from '../../ui/flows/graph.ts';
import { createWorkerElk } from '../../ui/flows/elkWorker.ts';
import { layoutChart, type Elk } from '../../ui/flows/layout.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { flowAtlasMachine, type FlowAtlasEvent } from './flowAtlas.machine.ts';

let workerElk: Elk | null = null;
/** One layout worker for the tab, started with the first chart drawn. */
const sharedWorkerElk = () => (workerElk ??= createWorkerElk());

/** The signed-in user's role, read from the session actor by the route (moderators may open the atlas in production). */
export const bindFlowAtlas = (deps: Pick<FlowDeps, 'appConfig'>, role: () => string | null, elk: () => Elk = sharedWorkerElk) =>
  flowAtlasMachine.provide({
    actors: {
      checkAccess: fromPromise(async () => {
        const config = await deps.appConfig;
        if (!config) throw new Error('GET /api/config could not be read');
        const open = config.flow_atlas.open_to === 'everyone' || role() === 'moderator';
        return { open, live: open && config.flow_atlas.live };
      }),
      layoutChart: fromPromise(async ({ input }) => {
        const chart = atlasCharts.find((candidate) => candidate.id === input.chart);
        if (!chart) throw new Error(`no chart ${input.chart}`);
        return layoutChart(chartGraph(chart.machine), elk());
      }),
      liveFeed: fromCallback<FlowAtlasEvent>(({ sendBack }) =>
        listenToLivePages({
          actor: (actor) => sendBack({ type: 'live.actor', actor }),
          gone: (key) => sendBack({ type: 'live.gone', key }),
          event: (event) => sendBack({ type: 'live.event', event }),
        }),
      ),
    },
  });

export const atlasChartSummaries = atlasCharts.map(({ id, description }) => ({ id, description }));
