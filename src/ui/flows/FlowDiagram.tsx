import type { ReactNode } from 'react';
import { DIAGRAM_FONT, type ChartLayout, type PlacedEdge, type PlacedNode } from './layout.ts';

/**
 * The class of each part of a diagram. The app passes Panda classes (its CSP refuses an inline `<style>`);
 * the export passes plain names and puts its own stylesheet inside the SVG. One drawing, two homes.
 */
export type DiagramClasses = {
  svg: string;
  frame: string;
  state: string;
  region: string;
  stateActive: string;
  stateName: string;
  stateLine: string;
  initial: string;
  transition: string;
  transitionPath: string;
  label: string;
  labelText: string;
  arrow: string;
};

export type DiagramItem = { kind: 'state' | 'transition'; id: string };

type Props = {
  layout: ChartLayout;
  classes: DiagramClasses;
  /** State ids to highlight: where a running actor of this chart is (live mode). */
  active?: ReadonlySet<string>;
  selected?: string | null;
  onSelect?: (item: DiagramItem | null) => void;
  /** Extra SVG content, e.g. the export's stylesheet. */
  children?: ReactNode;
};

const MARGIN = 16;
const byReadingOrder = <T extends { y: number; x: number }>(a: T, b: T) => a.y - b.y || a.x - b.x;

export const stateSummary = (node: PlacedNode) =>
  `State ${node.key}${node.initial ? ' (initial)' : ''}${node.kind === 'final' ? ' (final)' : ''}${node.description ? `: ${node.description}` : ''}`;

export function transitionSummary(edge: PlacedEdge, nodes: ReadonlyMap<string, PlacedNode>): string {
  const from = nodes.get(edge.source)?.key ?? edge.source;
  const to = nodes.get(edge.target)?.key ?? edge.target;
  const where = edge.targetless ? `in ${from}` : `from ${from} to ${to}`;
  return `Transition ${edge.text} ${where}${edge.description ? `: ${edge.description}` : ''}`;
}

function pathOf(points: [number, number][]): string {
  return points.map(([x, y], index) => `${index === 0 ? 'M' : 'L'}${x} ${y}`).join(' ');
}

/** A chart drawn from its layout: every state and every transition a focusable, labelled part. */
export function FlowDiagram({ layout, classes, active, selected, onSelect, children }: Props) {
  const nodes = new Map(layout.nodes.map((node) => [node.id, node]));
  const parentKind = (node: PlacedNode) => (node.parent ? nodes.get(node.parent)?.kind : undefined);
  const arrowId = `arrow-${layout.id}`;
  const width = layout.width + 2 * MARGIN;
  const height = layout.height + 2 * MARGIN;
  const select = (item: DiagramItem | null) => onSelect?.(item);
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      className={classes.svg}
      viewBox={`${-MARGIN} ${-MARGIN} ${width} ${height}`}
      width={width}
      height={height}
      role="group"
      aria-label={`Chart ${layout.id}: ${layout.description}`}
      fontFamily={DIAGRAM_FONT.family}
    >
      <title>{`${layout.id}: ${layout.description}`}</title>
      {children}
      <defs>
        <marker id={arrowId} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M0 0 L10 5 L0 10 z" className={classes.arrow} />
        </marker>
      </defs>
      {[...layout.nodes].sort(byReadingOrder).map((node) => {
        const isActive = active?.has(node.id) ?? false;
        const isRoot = node.parent === null;
        const className = [isRoot ? classes.frame : classes.state, parentKind(node) === 'parallel' ? classes.region : '', isActive ? classes.stateActive : '']
          .filter(Boolean)
          .join(' ');
        return (
          <g
            key={node.id}
            tabIndex={0}
            role="img"
            aria-label={stateSummary(node)}
            data-state={node.id}
            data-active={isActive ? 'true' : undefined}
            data-selected={selected === node.id ? 'true' : undefined}
            onFocus={() => select({ kind: 'state', id: node.id })}
            onMouseEnter={() => select({ kind: 'state', id: node.id })}
          >
            <title>{stateSummary(node)}</title>
            <rect className={className} x={node.x} y={node.y} width={node.width} height={node.height} rx={isRoot ? 10 : 8} />
            {node.kind === 'final' ? (
              <rect className={className} x={node.x + 3} y={node.y + 3} width={node.width - 6} height={node.height - 6} rx={6} />
            ) : null}
            {node.initial ? (
              <>
                <circle className={classes.initial} cx={node.x - 10} cy={node.y + 12} r={4} />
                <path className={classes.transitionPath} d={`M${node.x - 6} ${node.y + 12} L${node.x} ${node.y + 12}`} />
              </>
            ) : null}
            <text className={classes.stateName} x={node.x + 10} y={node.y + 18} fontSize={DIAGRAM_FONT.stateSize}>
              {isRoot ? node.id : node.key}
            </text>
            {node.lines.map((line, index) => (
              <text key={line} className={classes.stateLine} x={node.x + 10} y={node.y + 34 + index * 16} fontSize={DIAGRAM_FONT.labelSize}>
                {line}
              </text>
            ))}
          </g>
        );
      })}
      {layout.edges.map((edge) => (
        <g
          key={edge.id}
          className={classes.transition}
          tabIndex={0}
          role="img"
          aria-label={transitionSummary(edge, nodes)}
          data-transition={edge.id}
          data-selected={selected === edge.id ? 'true' : undefined}
          onFocus={() => select({ kind: 'transition', id: edge.id })}
          onMouseEnter={() => select({ kind: 'transition', id: edge.id })}
        >
          <title>{transitionSummary(edge, nodes)}</title>
          {edge.points.length > 1 ? <path className={classes.transitionPath} d={pathOf(edge.points)} markerEnd={`url(#${arrowId})`} /> : null}
          {edge.labelBox ? (
            <>
              <rect className={classes.label} x={edge.labelBox.x} y={edge.labelBox.y} width={edge.labelBox.width} height={edge.labelBox.height} rx={3} />
              <text className={classes.labelText} x={edge.labelBox.x + 4} y={edge.labelBox.y + 12} fontSize={DIAGRAM_FONT.labelSize}>
                {edge.text}
              </text>
            </>
          ) : null}
        </g>
      ))}
    </svg>
  );
}
