import { existsSync } from 'node:fs';
import { getStateNodes } from 'xstate/graph';
import { render } from '@testing-library/react';
import { createElement } from 'react';
import { atlasCharts } from '../../../src/ui/flows/atlasCharts.ts';
import { exportDiagramClasses } from '../../../src/ui/flows/exportDiagram.ts';
import { FlowDiagram } from '../../../src/ui/flows/FlowDiagram.tsx';
import { chartGraph } from '../../../src/ui/flows/graph.ts';
import ELK from 'elkjs/lib/elk.bundled.js';
import { layoutChart } from '../../../src/ui/flows/layout.ts';
import { chartFiles, staleFlowDocs } from '../../../scripts/flows-export.ts';

describe('every chart is in the atlas and in docs/flows', () => {
  // Found by walking the folders, so a chart added tomorrow is checked too.
  const files = chartFiles();

  it('finds the charts of src/machines and domain', () => {
    expect(files).toContain('src/machines/tradeDialog/tradeDialog.machine.ts');
    expect(files).toContain('domain/tradeLifecycle/tradeLifecycle.machine.ts');
  });

  it.each(files)('%s is in the atlas and has its page and diagram in docs/flows', (file) => {
    const charts = atlasCharts.filter((chart) => chart.file === file);
    expect(charts.length, `${file} exports no chart the atlas lists`).toBeGreaterThan(0);
    for (const chart of charts) {
      expect(existsSync(`docs/flows/${chart.id}.md`), `docs/flows/${chart.id}.md`).toBe(true);
      expect(existsSync(`docs/flows/${chart.id}.svg`), `docs/flows/${chart.id}.svg`).toBe(true);
    }
  });

  it('the committed docs/flows are what the charts draw today (else: run npm run flows:export)', async () => {
    expect(await staleFlowDocs()).toEqual([]);
  });
});

describe('a diagram has one box per state and one arrow per transition', () => {
  it.each(atlasCharts.map((chart) => [chart.id, chart] as const))('%s', async (_id, chart) => {
    // Counted here straight from the machine definition, independently of graph.ts.
    const stateNodes = [chart.machine.root, ...getStateNodes(chart.machine.root)];
    const transitions = stateNodes.flatMap((node) => [...[...node.transitions.values()].flat(), ...(node.always ?? [])]);
    const graph = chartGraph(chart.machine);
    expect(graph.nodes.map((node) => node.id).sort()).toEqual(stateNodes.map((node) => node.id).sort());
    expect(graph.edges).toHaveLength(transitions.length);
    expect(new Set(graph.edges.map((edge) => edge.id)).size).toBe(transitions.length);

    const layout = await layoutChart(graph, new ELK());
    for (const node of layout.nodes) expect(node.width * node.height, node.id).toBeGreaterThan(0);
    for (const edge of layout.edges) expect(edge.points.length, edge.id).toBeGreaterThanOrEqual(2);

    const { container } = render(createElement(FlowDiagram, { layout, classes: exportDiagramClasses }));
    expect(container.querySelectorAll('[data-state][tabindex="0"]')).toHaveLength(stateNodes.length);
    expect(container.querySelectorAll('[data-transition][tabindex="0"]')).toHaveLength(transitions.length);
  });
});

describe('the trade dialog as drawn', () => {
  const chart = atlasCharts.find((candidate) => candidate.id === 'tradeDialog')!;
  const graph = chartGraph(chart.machine);
  const edge = (source: string, label: string) => graph.edges.find((candidate) => candidate.source === `tradeDialog.${source}` && candidate.label === label);

  it('names its states, guards, delay and the outcomes of what it invokes', () => {
    expect(graph.nodes.map((node) => node.id)).toEqual(
      expect.arrayContaining(['tradeDialog', 'tradeDialog.closed', 'tradeDialog.open', 'tradeDialog.open.waiting', 'tradeDialog.open.opening']),
    );
    expect(graph.nodes.find((node) => node.id === 'tradeDialog.closed')?.initial).toBe(true);
    expect(graph.nodes.find((node) => node.id === 'tradeDialog.open.previewing')?.invokes).toEqual([{ id: 'previewTrade', src: 'previewTrade' }]);
    expect(edge('open.checking', 'always')).toMatchObject({ guard: 'canPreview', target: 'tradeDialog.open.waiting', kind: 'always' });
    expect(edge('open.waiting', 'after previewDebounce (400 ms)')).toMatchObject({ target: 'tradeDialog.open.previewing', kind: 'after' });
    expect(edge('open.previewing', 'done: previewTrade')?.target).toBe('tradeDialog.open.ready');
    expect(edge('open.previewing', 'error: previewTrade')?.description).toMatch(/no message/);
    expect(edge('open.ready', 'order.confirm')?.guard).toBe('hasPreview');
    // While opening, closing is refused: drawn as an ignored event that stays.
    expect(edge('open.opening', 'dialog.close (ignored)')).toMatchObject({ targetless: true, target: 'tradeDialog.open.opening' });
  });
});
