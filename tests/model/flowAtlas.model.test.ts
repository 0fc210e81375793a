import { createActor, fromCallback, type AnyMachineSnapshot } from 'xstate';
import { flowAtlasMachine, type FlowAtlasContext } from '../../src/machines/flowAtlas/flowAtlas.machine.ts';
import { selectActiveStates, selectIsRefused, selectLayout } from '../../src/machines/flowAtlas/flowAtlas.selectors.ts';
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

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['checkAccess', 'layoutChart']);
  const actor = createActor(flowAtlasMachine.provide({ actors: { ...fakes.actors, liveFeed: fromCallback(() => () => {}) } as never }), {
    input: { charts, chart: null },
    inspect: coverage?.inspect,
  }).start();
  await replay(actor, path, fakes, (snapshot) => {
    const context = snapshot.context as FlowAtlasContext;
    // What the screen shows follows from the state: a layout only while showing, the not-found page only when refused,
    // highlights only for actors of the chosen chart.
    expect(selectLayout(snapshot as never) !== null).toBe(snapshot.matches({ open: { chart: 'showing' } }));
    expect(selectIsRefused(snapshot as never)).toBe(snapshot.matches('refused'));
    const highlighted = [...selectActiveStates(snapshot as never)];
    expect(highlighted).toEqual(context.chartId === 'tradeDialog' && context.liveActors[running.key] ? running.active : []);
  });
  // Every layout asked for is the chosen chart's.
  for (const call of fakes.calls.filter((entry) => entry.id === 'layoutChart')) expect(charts.map((chart) => chart.id)).toContain((call.input as { chart: string }).chart);
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
