import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { ActorRefFrom } from 'xstate';
import { css } from 'styled-system/css';
import type { flowAtlasMachine } from '../../machines/flowAtlas/flowAtlas.machine.ts';
import {
  selectActiveStates,
  selectChartId,
  selectCharts,
  selectIsLayingOut,
  selectIsLive,
  selectIsUnknownChart,
  selectLayout,
  selectLayoutFailed,
  selectLiveActors,
  selectLiveEvents,
  selectSelected,
  selectView,
} from '../../machines/flowAtlas/flowAtlas.selectors.ts';
import { atlasDiagramClasses } from './diagramClasses.ts';
import { FlowDiagram, stateSummary, transitionSummary } from './FlowDiagram.tsx';
import { chartGraph } from './graph.ts';
import type { ChartLayout } from './layout.ts';
import { shortestPaths } from './paths.ts';
import { atlasCharts } from './atlasCharts.ts';

type AtlasActor = ActorRefFrom<typeof flowAtlasMachine>;

// The product's card look, written here: importing primitives/Card.tsx into the atlas's chunk made the bundler split
// Panda's `cx` out of the first page's entry into a chunk of its own (bench/bundle-size.ts).
const cardStyle = css({ bg: 'bg.surface', borderWidth: '1px', borderColor: 'border', borderRadius: 'xl', p: { base: '4', md: '6' }, boxShadow: 'xs' });
const page = css({ display: 'grid', gridTemplateColumns: { base: '1fr', lg: '18rem 1fr' }, gap: '5', p: { base: '3', md: '6' }, maxW: '100rem', mx: 'auto' });
const list = css({ display: 'flex', flexDirection: 'column', gap: '1', maxH: { base: '40vh', lg: 'calc(100vh - 8rem)' }, overflowY: 'auto', p: '2!' });
const chartButton = css({
  textAlign: 'left',
  p: '2',
  borderRadius: 'md',
  cursor: 'pointer',
  color: 'fg',
  _hover: { bg: 'bg.muted' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent' },
  '&[aria-current=page]': { bg: 'accent.subtle', fontWeight: 'semibold' },
});
const chartName = css({ fontFamily: 'mono', fontSize: 'sm' });
const chartText = css({ display: 'block', fontSize: 'xs', color: 'fg.muted', mt: '0.5' });
const main = css({ display: 'flex', flexDirection: 'column', gap: '4', minW: '0' });
const heading = css({ fontSize: { base: 'xl', md: '2xl' }, fontWeight: 'bold', fontFamily: 'mono' });
const eyebrow = css({ fontSize: 'xs', fontWeight: 'semibold', letterSpacing: 'wide', textTransform: 'uppercase', color: 'fg.muted' });
const muted = css({ color: 'fg.muted' });
const tabs = css({ display: 'flex', gap: '2', flexWrap: 'wrap' });
const diagramWrap = css({ overflow: 'auto', maxH: '75vh', p: '2!' });
const panel = css({ fontSize: 'sm', minH: '4.5rem' });
const columns = css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: '1fr 1fr' }, gap: '4' });
const pathList = css({ display: 'flex', flexDirection: 'column', gap: '2', fontSize: 'sm' });
const chip = css({ display: 'inline-block', fontFamily: 'mono', fontSize: 'xs', bg: 'bg.muted', borderRadius: 'sm', px: '1.5', py: '0.5', mr: '1', mb: '1' });
const stateKey = css({ fontFamily: 'mono', fontWeight: 'semibold', mr: '2' });
const liveList = css({ display: 'flex', flexDirection: 'column', gap: '1', fontSize: 'sm' });
const liveRow = css({ textAlign: 'left', cursor: 'pointer', p: '1', borderRadius: 'sm', _hover: { bg: 'bg.muted' }, _focusVisible: { outline: '2px solid', outlineColor: 'accent' } });
const subheading = css({ fontWeight: 'semibold', mb: '2' });
// The atlas's own small buttons: the product's Button would be shared with the atlas's chunk and split out of the
// first page's entry into a chunk of its own (bench/bundle-size.ts).
const toggle = css({
  px: '3',
  py: '1.5',
  borderRadius: 'md',
  border: '1px solid',
  borderColor: 'border',
  fontSize: 'sm',
  fontWeight: 'medium',
  cursor: 'pointer',
  color: 'fg',
  '&:hover:not([aria-pressed=true])': { bg: 'bg.muted' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '2px' },
  '&[aria-pressed=true]': { bg: 'accent', color: 'accent.fg', borderColor: 'accent' },
});

/**
 * The flow atlas: the list of charts, the chosen chart's diagram or paths (the first chart when the address names
 * none), and what the pages beside it are doing.
 */
export function AtlasScreen({ actor, onChoose }: { actor: AtlasActor; onChoose: (chart: string) => void }) {
  const charts = useSelector(actor, selectCharts);
  const chartId = useSelector(actor, selectChartId);
  const isLive = useSelector(actor, selectIsLive);
  const chosen = charts.find((chart) => chart.id === chartId);
  return (
    <div className={page}>
      <nav aria-label="Charts" className={`${cardStyle} ${list}`}>
        {charts.map((chart) => (
          <button
            key={chart.id}
            type="button"
            className={chartButton}
            aria-current={chart.id === chartId ? 'page' : undefined}
            onClick={() => onChoose(chart.id)}
          >
            <span className={chartName}>{chart.id}</span>{' '}
            <span className={chartText}>{chart.description}</span>
          </button>
        ))}
      </nav>
      <main className={main}>
        <header>
          {chosen ? <p className={eyebrow}>{`Flow atlas · ${charts.length} charts`}</p> : null}
          <h1 className={heading}>{chosen ? chosen.id : 'Flow atlas'}</h1>
          <p className={muted}>
            {chosen
              ? chosen.description
              : `Every flow of Peerex as its statechart draws it: ${charts.length} charts. Pick one to see its states, transitions and shortest paths.`}
          </p>
        </header>
        <ChartPanel actor={actor} />
        {isLive ? <LivePanel actor={actor} onChoose={onChoose} /> : null}
      </main>
    </div>
  );
}

function ChartPanel({ actor }: { actor: AtlasActor }) {
  const layout = useSelector(actor, selectLayout);
  const isLayingOut = useSelector(actor, selectIsLayingOut);
  const failed = useSelector(actor, selectLayoutFailed);
  const unknown = useSelector(actor, selectIsUnknownChart);
  const view = useSelector(actor, selectView);
  if (unknown) return <p role="alert">There is no chart by that name.</p>;
  if (failed) {
    return (
      <div role="alert">
        <p>The diagram could not be drawn.</p>
        <button type="button" className={toggle} onClick={() => actor.send({ type: 'layout.retry' })}>
          Try again
        </button>
      </div>
    );
  }
  if (isLayingOut) return <p aria-busy="true">Drawing the chart…</p>;
  if (!layout) return null;
  return (
    <>
      <div className={tabs} role="group" aria-label="View">
        <button type="button" className={toggle} aria-pressed={view === 'diagram'} onClick={() => actor.send({ type: 'view.change', view: 'diagram' })}>
          Diagram
        </button>
        <button type="button" className={toggle} aria-pressed={view === 'paths'} onClick={() => actor.send({ type: 'view.change', view: 'paths' })}>
          Paths
        </button>
      </div>
      {view === 'diagram' ? <DiagramView actor={actor} layout={layout} /> : <PathsView layout={layout} />}
    </>
  );
}

function DiagramView({ actor, layout }: { actor: AtlasActor; layout: ChartLayout }) {
  const active = useSelector(actor, selectActiveStates, (a, b) => a.size === b.size && [...a].every((id) => b.has(id)));
  const selected = useSelector(actor, selectSelected);
  const nodes = useMemo(() => new Map(layout.nodes.map((node) => [node.id, node])), [layout]);
  const node = selected?.kind === 'state' ? nodes.get(selected.id) : undefined;
  const edge = selected?.kind === 'transition' ? layout.edges.find((candidate) => candidate.id === selected.id) : undefined;
  return (
    <>
      <section aria-label="Selected part" aria-live="polite" className={`${cardStyle} ${panel}`}>
        {node ? <p>{stateSummary(node)}{node.invokes.length ? ` Invokes ${node.invokes.map((invoke) => invoke.src).join(', ')}.` : ''}</p> : null}
        {edge ? <p>{transitionSummary(edge, nodes)}{edge.actions.length ? ` Actions: ${edge.actions.join(', ')}.` : ''}</p> : null}
        {!node && !edge ? <p className={muted}>Hover over or tab to a state or a transition to read its description.</p> : null}
      </section>
      <div className={`${cardStyle} ${diagramWrap}`}>
        <FlowDiagram
          layout={layout}
          classes={atlasDiagramClasses}
          active={active}
          selected={selected?.id ?? null}
          onSelect={(item) => actor.send({ type: 'item.select', item })}
        />
      </div>
    </>
  );
}

function PathsView({ layout }: { layout: ChartLayout }) {
  const paths = useMemo(() => {
    const chart = atlasCharts.find((candidate) => candidate.id === layout.id);
    return chart ? shortestPaths(chartGraph(chart.machine)) : [];
  }, [layout]);
  const prefix = `${layout.id}.`;
  return (
    <section aria-label="Shortest paths" className={cardStyle}>
      <p className={muted}>The fewest events from the start that make each state active, as the model tests walk the chart. Guards in brackets are assumed to pass.</p>
      <ol className={pathList}>
        {paths.map(({ state, steps }) => (
          <li key={state}>
            <span className={stateKey}>{state === layout.id ? '(start)' : state.slice(prefix.length)}</span>
            {steps === null ? <span className={muted}>unreachable</span> : null}
            {steps?.length === 0 ? <span className={muted}>at the start</span> : null}
            {steps?.map((step, index) => (
              <span key={index} className={chip}>
                {step.automatic ? '(always)' : step.label}
                {step.guard ? ` [${step.guard}]` : ''}
              </span>
            ))}
          </li>
        ))}
      </ol>
    </section>
  );
}

function LivePanel({ actor, onChoose }: { actor: AtlasActor; onChoose: (chart: string) => void }) {
  const actors = useSelector(actor, selectLiveActors);
  const events = useSelector(actor, selectLiveEvents);
  const leaf = (ids: string[]) => ids.filter((id) => !ids.some((other) => other.startsWith(`${id}.`))).map((id) => id.split('.').slice(1).join('.') || id);
  return (
    <section aria-label="Live" className={`${cardStyle} ${columns}`}>
      <div>
        <h2 className={subheading}>Running in this browser</h2>
        {actors.length === 0 ? <p className={muted}>Open the product in another tab: its charts appear here as they run.</p> : null}
        <ul className={liveList}>
          {actors.map((running) => (
            <li key={running.key}>
              <button type="button" className={liveRow} onClick={() => onChoose(running.chart)}>
                <span className={stateKey}>{running.chart}</span>
                <span className={muted}>{running.page}</span> — {leaf(running.active).join(', ')}
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div>
        <h2 className={subheading}>Last events</h2>
        <ol className={liveList} aria-label="Last events">
          {events.map((event, index) => (
            <li key={`${event.at}-${index}`}>
              <time className={muted}>{event.at.slice(11, 19)}</time> <span className={stateKey}>{event.chart}</span>
              <span className={chip}>{event.type}</span>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
