import { createMachine } from 'xstate';
import { atlasCharts } from '../../../src/ui/flows/atlasCharts.ts';
import { chartGraph } from '../../../src/ui/flows/graph.ts';
import { shortestPaths } from '../../../src/ui/flows/paths.ts';

const pathsOf = (machine: Parameters<typeof chartGraph>[0]) =>
  Object.fromEntries(shortestPaths(chartGraph(machine)).map(({ state, steps }) => [state, steps?.map((step) => step.label + (step.guard ? ` [${step.guard}]` : ''))]));

describe('shortest paths, the testers view', () => {
  it('reaches the trade dialog ready to confirm through the debounce and the preview', () => {
    const paths = pathsOf(atlasCharts.find((chart) => chart.id === 'tradeDialog')!.machine);
    expect(paths['tradeDialog.closed']).toEqual([]);
    expect(paths['tradeDialog.open.ready']).toEqual(['dialog.open', 'amount.change', 'always [canPreview]', 'after previewDebounce (400 ms)', 'done: previewTrade']);
    expect(paths['tradeDialog.open.opening']).toHaveLength(6);
  });

  it('enters every region of a parallel state, lets a child shadow its parent, and names what nothing reaches', () => {
    const machine = createMachine({
      id: 'm',
      initial: 'idle',
      states: {
        idle: { on: { go: 'both', jump: 'both.right.far' } },
        both: {
          type: 'parallel',
          on: { leave: 'idle' },
          states: {
            left: { initial: 'a', states: { a: { on: { next: 'b' } }, b: {} } },
            right: {
              initial: 'near',
              // The child's `leave` shadows the parallel state's: from `near`, leave goes to `far`, not back to idle.
              states: { near: { on: { leave: 'far' } }, far: {} },
            },
          },
        },
        island: {},
      },
    });
    const paths = pathsOf(machine);
    expect(paths['m.both.left.a']).toEqual(['go']);
    expect(paths['m.both.right.near']).toEqual(['go']);
    expect(paths['m.both.right.far']).toEqual(['jump']);
    expect(paths['m.both.left.b']).toEqual(['go', 'next']);
    expect(paths['m.island']).toBeUndefined();
    // From both.right.far the parent's `leave` applies again.
    const viaParent = shortestPaths(chartGraph(machine)).find((path) => path.state === 'm.idle');
    expect(viaParent?.steps).toEqual([]);
  });

  it('gives every state of every product chart a path or says it is unreachable', () => {
    for (const chart of atlasCharts) {
      const paths = shortestPaths(chartGraph(chart.machine));
      expect(paths.map((path) => path.state).sort()).toEqual(chartGraph(chart.machine).nodes.map((node) => node.id).sort());
      expect(paths.filter((path) => path.steps === null).map((path) => path.state), chart.id).toEqual([]);
    }
  });
});
