import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { flowAtlasMachine, type AtlasAccess, type FlowAtlasEvent } from '../../src/machines/flowAtlas/flowAtlas.machine.ts';
import { atlasChartSummaries } from '../../src/machines/flowAtlas/flowAtlas.actors.ts';
import { atlasCharts } from '../../src/ui/flows/atlasCharts.ts';
import { AtlasScreen } from '../../src/ui/flows/AtlasScreen.tsx';
import { chartGraph } from '../../src/ui/flows/graph.ts';
import ELK from 'elkjs/lib/elk.bundled.js';
import { layoutChart } from '../../src/ui/flows/layout.ts';

async function renderAtlas(live = true) {
  let feed: ((event: FlowAtlasEvent) => void) | null = null;
  const actor = createActor(
    flowAtlasMachine.provide({
      actors: {
        checkAccess: fromPromise<AtlasAccess>(async () => ({ open: true, live })),
        layoutChart: fromPromise(async ({ input }: { input: { chart: string } }) =>
          layoutChart(chartGraph(atlasCharts.find((chart) => chart.id === input.chart)!.machine), new ELK()),
        ),
        liveFeed: fromCallback<FlowAtlasEvent>(({ sendBack }) => {
          feed = sendBack;
          return () => {};
        }),
      },
    }),
    { input: { charts: atlasChartSummaries, chart: null } },
  ).start();
  const chosen: string[] = [];
  render(<AtlasScreen actor={actor} onChoose={(id) => (chosen.push(id), actor.send({ type: 'chart.select', chart: id }))} />);
  await waitFor(() => expect(actor.getSnapshot().matches('open')).toBe(true));
  return { actor, chosen, send: (event: FlowAtlasEvent) => act(() => feed!(event)) };
}

describe('the flow atlas screen', () => {
  it('lists every chart with its description', async () => {
    await renderAtlas();
    const list = screen.getByRole('navigation', { name: 'Charts' });
    for (const chart of atlasCharts) expect(within(list).getByRole('button', { name: `${chart.id} ${chart.description}` })).toBeInTheDocument();
  });

  it('opens on the first chart of the list when the address names none', async () => {
    const { chosen } = await renderAtlas(false);
    const [first] = atlasCharts;
    expect(await screen.findByRole('heading', { level: 1, name: first!.id })).toBeInTheDocument();
    expect(screen.getByText(`Flow atlas · ${atlasCharts.length} charts`)).toBeInTheDocument();
    const list = screen.getByRole('navigation', { name: 'Charts' });
    expect(within(list).getByRole('button', { current: 'page' })).toHaveAccessibleName(`${first!.id} ${first!.description}`);
    await waitFor(() => expect(document.querySelector(`[data-state^="${first!.id}."]`)).not.toBeNull(), { timeout: 10_000 });
    expect(chosen).toEqual([]);
  });

  it('draws the chosen chart, describes a focused state and shows its shortest paths', async () => {
    const { chosen } = await renderAtlas(false);
    fireEvent.click(screen.getByRole('button', { name: /^tradeDialog / }));
    expect(chosen).toEqual(['tradeDialog']);
    const waiting = await screen.findByRole('img', { name: /^State waiting: A short pause/ }, { timeout: 10_000 });
    fireEvent.focus(waiting);
    expect(within(screen.getByRole('region', { name: 'Selected part' })).getByText(/State waiting: A short pause/)).toBeInTheDocument();
    fireEvent.focus(screen.getByRole('img', { name: /^Transition order.confirm \[hasPreview\] from ready to opening/ }));
    expect(within(screen.getByRole('region', { name: 'Selected part' })).getByText(/order.confirm \[hasPreview\]/)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Live' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Paths', pressed: false }));
    const paths = screen.getByRole('region', { name: 'Shortest paths' });
    const ready = within(paths).getByText('open.ready').closest('li')!;
    expect(ready.textContent).toContain('dialog.open');
    expect(ready.textContent).toContain('done: previewTrade');
  });

  it('highlights where a page beside it is, and a running actor of another chart opens that chart', async () => {
    const { send, chosen } = await renderAtlas(true);
    fireEvent.click(screen.getByRole('button', { name: /^tradeDialog / }));
    await screen.findByRole('img', { name: /^State waiting/ }, { timeout: 10_000 });
    send({ type: 'live.actor', actor: { key: 'p:1', chart: 'tradeDialog', active: ['tradeDialog', 'tradeDialog.open', 'tradeDialog.open.waiting'], page: '/offers' } });
    send({ type: 'live.actor', actor: { key: 'p:2', chart: 'login', active: ['login', 'login.editingCredentials'], page: '/login' } });
    send({ type: 'live.event', event: { key: 'p:1', chart: 'tradeDialog', type: 'amount.change', at: '2026-11-24T02:00:00.000Z' } });
    const waiting = document.querySelector('[data-state="tradeDialog.open.waiting"]');
    expect(waiting?.getAttribute('data-active')).toBe('true');
    expect(document.querySelector('[data-state="tradeDialog.closed"]')?.getAttribute('data-active')).toBeNull();
    const live = screen.getByRole('region', { name: 'Live' });
    expect(within(live).getByText('amount.change')).toBeInTheDocument();
    fireEvent.click(within(live).getByRole('button', { name: /login/ }));
    expect(chosen).toEqual(['tradeDialog', 'login']);
    await waitFor(() => expect(document.querySelector('[data-state="login.editingCredentials"]')?.getAttribute('data-active')).toBe('true'), { timeout: 10_000 });
  });
});
