import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api.js';
import type { ChartEdge, ChartGraph, ChartNode } from './graph.ts';

/**
 * Text is measured by a per-character width of the diagram's monospace font rather than in a DOM, so the
 * browser and `npm run flows:export` (Node) lay out the same diagram, and the export is byte-for-byte repeatable.
 */
export const DIAGRAM_FONT = {
  family: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  stateSize: 12,
  labelSize: 11,
  /** A monospace glyph is about 0.6 em wide. */
  em: 0.6,
};
const STATE_LINE = 16;
const STATE_PADDING = 12;
/** Room at the top of a compound state for its name. */
const HEADER = 28;
const LABEL_HEIGHT = 16;

export type PlacedNode = ChartNode & { x: number; y: number; width: number; height: number; depth: number; lines: string[] };
export type PlacedEdge = ChartEdge & {
  points: [number, number][];
  text: string;
  labelBox: { x: number; y: number; width: number; height: number } | null;
};
/** An ELK instance: elkjs's bundled one in Node (the export, the tests), a web worker in the browser (elkWorker.ts). */
export type Elk = { layout: (graph: ElkNode) => Promise<ElkNode> };

export type ChartLayout = { id: string; description: string; width: number; height: number; nodes: PlacedNode[]; edges: PlacedEdge[] };

const textWidth = (text: string, size: number) => text.length * size * DIAGRAM_FONT.em;
const round = (value: number) => Math.round(value * 10) / 10;

/** What a state box writes under its name: the actors it invokes. */
export const stateLines = (node: ChartNode): string[] => node.invokes.map((invoke) => `invoke ${invoke.src}`);
export const edgeText = (edge: ChartEdge): string => (edge.guard ? `${edge.label} [${edge.guard}]` : edge.label);

const elkOptions = {
  'elk.algorithm': 'layered',
  'elk.direction': 'DOWN',
  'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
  'elk.json.edgeCoords': 'ROOT',
  'elk.json.shapeCoords': 'ROOT',
  'elk.edgeLabels.placement': 'CENTER',
  'elk.layered.spacing.nodeNodeBetweenLayers': '36',
  'elk.spacing.nodeNode': '28',
  'elk.spacing.edgeLabel': '4',
  'elk.spacing.edgeNode': '16',
  'elk.layered.spacing.edgeNodeBetweenLayers': '16',
  'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
  'elk.layered.crossingMinimization.semiInteractive': 'false',
  'elk.randomSeed': '1',
};

/** The lowest state containing both ends: ELK wants an edge in the container of its two ends. */
function containerOf(edge: ChartEdge, parents: Map<string, string | null>): string {
  const ancestors = (id: string) => {
    const list: string[] = [];
    for (let at: string | null | undefined = id; at; at = parents.get(at)) list.push(at);
    return list;
  };
  const sourceLine = ancestors(edge.source);
  const targetLine = new Set(ancestors(edge.target));
  // A transition between a state and its own descendant (or itself) belongs to the state's parent.
  const common = sourceLine.find((id) => targetLine.has(id) && id !== edge.source && id !== edge.target);
  return common ?? sourceLine[sourceLine.length - 1]!;
}

/**
 * ELK lays out the children of the node it is given, so the chart's root sits inside a frame of its own: a
 * transition the root declares for itself (a self-loop, such as `code.change` on the code entry) has a container.
 */
const TOP = '(top)';

export async function layoutChart(graph: ChartGraph, elk: Elk): Promise<ChartLayout> {
  const parents = new Map<string, string | null>(graph.nodes.map((node) => [node.id, node.parent ?? TOP]));
  const children = new Map<string, ChartNode[]>();
  for (const node of graph.nodes) if (node.parent) children.set(node.parent, [...(children.get(node.parent) ?? []), node]);
  const elkNodes = new Map<string, ElkNode>();
  const build = (node: ChartNode): ElkNode => {
    const inner = children.get(node.id) ?? [];
    const lines = stateLines(node);
    const nameWidth = textWidth(node.key, DIAGRAM_FONT.stateSize);
    const linesWidth = Math.max(0, ...lines.map((line) => textWidth(line, DIAGRAM_FONT.labelSize)));
    const elkNode: ElkNode = {
      id: node.id,
      children: inner.map(build),
      edges: [],
      layoutOptions:
        inner.length > 0
          ? {
              'elk.padding': `[top=${HEADER + lines.length * STATE_LINE},left=${STATE_PADDING},bottom=${STATE_PADDING},right=${STATE_PADDING}]`,
              'elk.nodeSize.constraints': 'MINIMUM_SIZE',
              'elk.nodeSize.minimum': `(${Math.ceil(Math.max(nameWidth, linesWidth) + 2 * STATE_PADDING)}, 40)`,
              // Parallel regions run side by side.
              ...(node.kind === 'parallel' ? { 'elk.direction': 'RIGHT' } : {}),
            }
          : {},
      ...(inner.length > 0
        ? {}
        : { width: Math.ceil(Math.max(nameWidth, linesWidth) + 2 * STATE_PADDING), height: 20 + STATE_LINE * (1 + lines.length) }),
    };
    elkNodes.set(node.id, elkNode);
    return elkNode;
  };
  const rootNode = graph.nodes.find((node) => node.parent === null)!;
  const top: ElkNode = { id: TOP, children: [build(rootNode)], edges: [], layoutOptions: { ...elkOptions, 'elk.padding': '[top=0,left=0,bottom=0,right=0]' } };
  elkNodes.set(TOP, top);
  for (const edge of graph.edges) {
    const elkEdge: ElkExtendedEdge = {
      id: edge.id,
      sources: [edge.source],
      targets: [edge.target],
      labels: [{ id: `${edge.id}:label`, text: edgeText(edge), width: Math.ceil(textWidth(edgeText(edge), DIAGRAM_FONT.labelSize) + 8), height: LABEL_HEIGHT }],
    };
    elkNodes.get(containerOf(edge, parents))!.edges!.push(elkEdge);
  }
  const laid = await elk.layout(top);

  const placed = new Map<string, ElkNode & { depth: number }>();
  const collect = (node: ElkNode, depth: number) => {
    placed.set(node.id, { ...node, depth });
    for (const child of node.children ?? []) collect(child, depth + 1);
  };
  collect(laid, -1);
  const laidEdges = new Map<string, ElkExtendedEdge>();
  for (const node of placed.values()) for (const edge of (node.edges ?? []) as ElkExtendedEdge[]) laidEdges.set(edge.id, edge);

  return {
    id: graph.id,
    description: graph.description,
    width: round(laid.width ?? 0),
    height: round(laid.height ?? 0),
    nodes: graph.nodes.map((node) => {
      const box = placed.get(node.id)!;
      return {
        ...node,
        x: round(box.x ?? 0),
        y: round(box.y ?? 0),
        width: round(box.width ?? 0),
        height: round(box.height ?? 0),
        depth: box.depth,
        lines: stateLines(node),
      };
    }),
    edges: graph.edges.map((edge) => {
      const laidEdge = laidEdges.get(edge.id);
      const section = laidEdge?.sections?.[0];
      const points: [number, number][] = section
        ? [section.startPoint, ...(section.bendPoints ?? []), section.endPoint].map((point) => [round(point.x), round(point.y)])
        : [];
      const label = laidEdge?.labels?.[0];
      return {
        ...edge,
        points,
        text: edgeText(edge),
        labelBox:
          label && label.x !== undefined && label.y !== undefined
            ? { x: round(label.x), y: round(label.y), width: round(label.width ?? 0), height: round(label.height ?? 0) }
            : null,
      };
    }),
  };
}
