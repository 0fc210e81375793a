import { createActor, fromCallback, type AnyMachineSnapshot } from 'xstate';
import {
  flowAtlasMachine,
  type AtlasItem,
  type FlowAtlasContext,
  type FlowAtlasView,
} from '../../src/machines/flowAtlas/flowAtlas.machine.ts';
import {
  selectActiveStates,
  selectChartId,
  selectCharts,
  selectIsCheckingAccess,
  selectIsLayingOut,
  selectIsLive,
  selectIsRefused,
  selectIsUnknownChart,
  selectLayout,
  selectLayoutFailed,
  selectLiveActors,
  selectLiveEvents,
  selectSelected,
  selectView,
} from '../../src/machines/flowAtlas/flowAtlas.selectors.ts';
import type { LiveActor, LiveEvent } from '../../src/services/flowLive.ts';
import type { ChartLayout } from '../../src/ui/flows/layout.ts';
import { Coverage, describePath, replay, scriptedActors, walk, type ModelEvent, type ModelPath } from '../support/machines.ts';

const charts = [
  { id: 'login', description: 'Sign in' },
  { id: 'tradeDialog', description: 'The Trade Preview dialog' },
];
const layoutOf = (id: string): ChartLayout => ({ id, description: '', width: 1, height: 1, nodes: [], edges: [] });
const running = { key: 'p:1', chart: 'tradeDialog', active: ['tradeDialog', 'tradeDialog.closed'], page: '/offers' };

/**
 * What can happen to the atlas: the configuration lets the visitor in (live or not) or not, or cannot be read; a
 * chart is chosen (a real one, an unknown one, none); its layout arrives or fails and is retried; the view changes;
 * a part of the diagram is focused; a page beside it announces an actor, an event, and goes away.
 */
function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const context = snapshot.context as FlowAtlasContext;
  if (snapshot.matches('checkingAccess')) {
    return [
      { type: 'xstate.done.actor.checkAccess', output: { open: true, live: true } },
      { type: 'xstate.done.actor.checkAccess', output: { open: true, live: false } },
      { type: 'xstate.done.actor.checkAccess', output: { open: false, live: false } },
      { type: 'xstate.error.actor.checkAccess', error: new Error('offline') },
    ];
  }
  if (!snapshot.matches('open')) return [];
  const list: ModelEvent[] = [
    ...['tradeDialog', 'nothing', null].filter((chart) => chart !== context.chartId).map((chart) => ({ type: 'chart.select', chart })),
    { type: 'view.change', view: context.view === 'diagram' ? 'paths' : 'diagram' },
    { type: 'item.select', item: context.selected ? null : { kind: 'state', id: 'tradeDialog.closed' } },
  ];
  if (snapshot.matches({ open: { chart: 'layingOut' } })) {
    list.push(
      { type: 'xstate.done.actor.layoutChart', output: layoutOf(context.chartId ?? '') },
      { type: 'xstate.error.actor.layoutChart', error: new Error('elk') },
    );
  }
  if (snapshot.matches({ open: { chart: 'failed' } })) list.push({ type: 'layout.retry' });
  if (snapshot.matches({ open: { live: 'listening' } })) {
    if (!context.liveActors[running.key]) list.push({ type: 'live.actor', actor: running });
    else list.push({ type: 'live.gone', key: running.key });
    if (context.liveEvents.length === 0) list.push({ type: 'live.event', event: { key: running.key, chart: 'tradeDialog', type: 'dialog.open', at: '2026-11-24T00:00:00.000Z' } });
  }
  return list;
}

const model = walk(flowAtlasMachine, { events, input: { charts, chart: null } });

/** What the atlas page shows beside the list of charts: the access check, the not-found page, or the chosen chart's panel. */
type Panel = 'checking' | 'refused' | 'unknown' | 'layingOut' | 'failed' | 'showing';

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['checkAccess', 'layoutChart']);
  const actor = createActor(flowAtlasMachine.provide({ actors: { ...fakes.actors, liveFeed: fromCallback(() => () => {}) } as never }), {
    input: { charts, chart: null },
    inspect: coverage?.inspect,
  }).start();

  // The oracle: the page as the visitor sees it, written without the chart.
  let panel: Panel = 'checking';
  let chart: string | null = null;
  let layout: ChartLayout | null = null;
  let view: FlowAtlasView = 'diagram';
  let selected: AtlasItem | null = null;
  let live = false;
  let liveActors: Record<string, LiveActor> = {};
  let liveEvents: LiveEvent[] = [];
  const expectedCalls: { id: string; input: unknown }[] = [{ id: 'checkAccess', input: undefined }];
  const isOpen = () => panel !== 'checking' && panel !== 'refused';
  // Choosing a chart forgets the last one's diagram and focus; naming none opens the atlas's first; a known chart is
  // laid out, anything else is not.
  const choose = (id: string | null) => {
    chart = id ?? charts[0]!.id;
    layout = null;
    selected = null;
    panel = charts.some((entry) => entry.id === chart) ? 'layingOut' : 'unknown';
    if (panel === 'layingOut') expectedCalls.push({ id: 'layoutChart', input: { chart } });
  };

  await replay(actor, path, fakes, (snapshot, { event }) => {
    switch (event.type) {
      case 'xstate.done.actor.checkAccess': {
        const access = event.output as { open: boolean; live: boolean };
        if (access.open) {
          live = access.live;
          choose(chart);
        } else panel = 'refused';
        break;
      }
      case 'xstate.error.actor.checkAccess':
        panel = 'refused';
        break;
      case 'chart.select':
        if (isOpen()) choose(event.chart as string | null);
        break;
      case 'view.change':
        if (isOpen()) view = event.view as FlowAtlasView;
        break;
      case 'item.select':
        // Only a diagram on screen has parts to focus.
        if (panel === 'showing') selected = event.item as AtlasItem | null;
        break;
      case 'xstate.done.actor.layoutChart':
        panel = 'showing';
        layout = event.output as ChartLayout;
        break;
      case 'xstate.error.actor.layoutChart':
        panel = 'failed';
        break;
      case 'layout.retry':
        if (panel === 'failed') {
          panel = 'layingOut';
          expectedCalls.push({ id: 'layoutChart', input: { chart } });
        }
        break;
      case 'live.actor': {
        const arrived = event.actor as LiveActor;
        if (isOpen() && live) liveActors = { ...liveActors, [arrived.key]: arrived };
        break;
      }
      case 'live.gone':
        if (isOpen() && live) liveActors = Object.fromEntries(Object.entries(liveActors).filter(([key]) => key !== event.key));
        break;
      case 'live.event':
        if (isOpen() && live) liveEvents = [event.event as LiveEvent, ...liveEvents];
        break;
    }

    const shown = snapshot as never;
    expect(selectIsCheckingAccess(shown), 'checking access').toBe(panel === 'checking');
    expect(selectIsRefused(shown), 'the not-found page').toBe(panel === 'refused');
    expect(selectCharts(shown)).toEqual(charts);
    expect(selectChartId(shown)).toBe(chart);
    expect(selectIsUnknownChart(shown), 'no such chart').toBe(panel === 'unknown');
    expect(selectIsLayingOut(shown), 'laying out').toBe(panel === 'layingOut');
    expect(selectLayoutFailed(shown), 'layout failed').toBe(panel === 'failed');
    expect(selectLayout(shown), 'the diagram').toEqual(panel === 'showing' ? layout : null);
    expect(selectView(shown)).toBe(view);
    expect(selectSelected(shown)).toEqual(selected);
    expect(selectIsLive(shown), 'live mode').toBe(isOpen() && live);
    expect(selectLiveActors(shown)).toEqual(Object.values(liveActors));
    expect(selectLiveEvents(shown)).toEqual(liveEvents);
    // Highlights only for actors of the chosen chart.
    expect([...selectActiveStates(shown)]).toEqual(Object.values(liveActors).filter((entry) => entry.chart === chart).flatMap((entry) => entry.active));
  });
  expect(fakes.calls).toEqual(expectedCalls);
  actor.stop();
}

describe('flowAtlas: every path through the chart', () => {
  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(path);
  });

  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(flowAtlasMachine);
    for (const path of model.paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices what the walk leaves out', async () => {
    const coverage = new Coverage(flowAtlasMachine);
    const leftOut = (path: ModelPath) => path.steps.some(({ event }) => event.type === 'xstate.error.actor.layoutChart' || event.type === 'live.gone');
    for (const path of model.paths.filter((path) => !leftOut(path))) await run(path, coverage);
    expect(coverage.missingStates()).toEqual(['flowAtlas.open.chart.failed']);
    expect(coverage.missingTransitions()).toEqual([
      'flowAtlas.open.chart.layingOut —xstate.error.actor.layoutChart#0→ flowAtlas.open.chart.failed',
      'flowAtlas.open.chart.failed —layout.retry#0→ flowAtlas.open.chart.layingOut',
      'flowAtlas.open.live.listening —live.gone#0→ (stays)',
    ]);
  });
});
