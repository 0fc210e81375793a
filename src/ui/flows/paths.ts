import type { ChartEdge, ChartGraph, ChartNode } from './graph.ts';

/** One step of a path: the event a tester sends (or an automatic `always`), with the guard it must pass. */
export type PathStep = { event: string; label: string; guard?: string; automatic: boolean };
export type StatePath = { state: string; steps: PathStep[] | null };

/** Beyond this many configurations a chart is not walked further (none comes near it today). */
const MAX_CONFIGURATIONS = 20_000;

/**
 * The shortest list of events that makes each state active, from the chart's initial state: the testers' view,
 * as the model tests walk a chart breadth-first. The walk follows the chart's structure (the guards are bound in
 * the routes, so each step names the guard it assumes passes): compound states are entered at their initial child,
 * parallel states in every region, and a state's transition for an event shadows its ancestors'. `steps` is null
 * for a state no event reaches.
 */
export function shortestPaths(graph: ChartGraph): StatePath[] {
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  const children = new Map<string, ChartNode[]>();
  for (const node of graph.nodes) if (node.parent) children.set(node.parent, [...(children.get(node.parent) ?? []), node]);
  const edgesFrom = new Map<string, ChartEdge[]>();
  for (const edge of graph.edges) edgesFrom.set(edge.source, [...(edgesFrom.get(edge.source) ?? []), edge]);
  const ancestors = (id: string): string[] => {
    const list: string[] = [];
    for (let at: string | null | undefined = id; at; at = byId.get(at)?.parent) list.push(at);
    return list;
  };
  const enterDefault = (id: string, into: Set<string>) => {
    into.add(id);
    const node = byId.get(id)!;
    const inner = children.get(id) ?? [];
    if (node.kind === 'parallel') for (const child of inner) enterDefault(child.id, into);
    else if (node.kind === 'compound') {
      const first = inner.find((child) => child.initial) ?? inner[0];
      if (first) enterDefault(first.id, into);
    }
  };
  /** Entering `target` below `domain`: the states on the way, every region of a parallel state passed, then its own defaults. */
  const enterTowards = (domain: string, target: string, into: Set<string>) => {
    const line = ancestors(target);
    const way = line.slice(0, line.indexOf(domain)).reverse();
    for (const id of way) {
      into.add(id);
      const node = byId.get(id)!;
      if (node.kind === 'parallel') {
        for (const region of children.get(id) ?? []) if (!way.includes(region.id)) enterDefault(region.id, into);
      }
    }
    enterDefault(target, into);
  };
  const step = (configuration: Set<string>, edge: ChartEdge): Set<string> => {
    const sourceLine = ancestors(edge.source);
    const targetLine = ancestors(edge.target);
    // A transition into its own source's descendants stays in the source; otherwise it leaves up to the common parent.
    const domain = targetLine.includes(edge.source) && edge.target !== edge.source
      ? edge.source
      : (sourceLine.find((id) => id !== edge.source && targetLine.includes(id) && id !== edge.target) ?? sourceLine[sourceLine.length - 1]!);
    const next = new Set([...configuration].filter((id) => id === domain || !ancestors(id).includes(domain)));
    enterTowards(domain, edge.target, next);
    return next;
  };
  const leaves = (configuration: Set<string>) => [...configuration].filter((id) => !(children.get(id) ?? []).some((child) => configuration.has(child.id)));
  const available = (configuration: Set<string>): ChartEdge[] => {
    const list: ChartEdge[] = [];
    for (const leaf of leaves(configuration)) {
      const shadowed = new Set<string>();
      for (const id of ancestors(leaf)) {
        const declared = edgesFrom.get(id) ?? [];
        for (const edge of declared) {
          const key = edge.kind === 'always' ? `always:${id}` : edge.event;
          if (!shadowed.has(key) && !edge.targetless) list.push(edge);
        }
        for (const edge of declared) if (edge.kind !== 'always') shadowed.add(edge.event);
      }
    }
    return list;
  };

  const root = graph.nodes.find((node) => node.parent === null)!;
  const start = new Set<string>();
  enterDefault(root.id, start);
  const found = new Map<string, PathStep[]>();
  for (const id of start) found.set(id, []);
  const keyOf = (configuration: Set<string>) => [...configuration].sort().join('|');
  const seen = new Set([keyOf(start)]);
  let frontier: { configuration: Set<string>; steps: PathStep[] }[] = [{ configuration: start, steps: [] }];
  while (frontier.length > 0 && seen.size < MAX_CONFIGURATIONS) {
    const next: typeof frontier = [];
    for (const { configuration, steps } of frontier) {
      for (const edge of available(configuration)) {
        const reached = step(configuration, edge);
        const key = keyOf(reached);
        if (seen.has(key)) continue;
        seen.add(key);
        const path = [...steps, { event: edge.event, label: edge.label, guard: edge.guard, automatic: edge.kind === 'always' }];
        for (const id of reached) if (!found.has(id)) found.set(id, path);
        next.push({ configuration: reached, steps: path });
      }
    }
    frontier = next;
  }
  return graph.nodes.map((node) => ({ state: node.id, steps: found.get(node.id) ?? null }));
}
