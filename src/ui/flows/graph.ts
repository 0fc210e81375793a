import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';

/**
 * A chart as the atlas draws it, read from the machine definition itself (never from a copy), so what a
 * reader sees is what runs. Plain data: the layout, the exported Markdown and the tests all read it.
 */
export type ChartNode = {
  /** The state node's id, e.g. `tradeDialog.open.waiting`; the root's is the machine id. */
  id: string;
  key: string;
  parent: string | null;
  kind: 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
  /** The state its parent enters first. */
  initial: boolean;
  description?: string;
  tags: string[];
  invokes: { id: string; src: string }[];
};

export type ChartEdgeKind = 'event' | 'always' | 'after' | 'done' | 'error' | 'state-done';

export type ChartEdge = {
  id: string;
  source: string;
  /** The target state; the source itself for a transition without one (it stays, or ignores the event). */
  target: string;
  kind: ChartEdgeKind;
  /** The raw event type, e.g. `xstate.after.previewDebounce.tradeDialog.open.waiting`; '' for `always`. */
  event: string;
  /** What the diagram writes: `amount.change`, `after previewDebounce (400 ms)`, `done: previewTrade`, `always`. */
  label: string;
  guard?: string;
  description?: string;
  /** No target: the state stays (its actions run), or, without actions, the event is ignored there. */
  targetless: boolean;
  actions: string[];
};

/** The root is a node too: it is the diagram's outer frame. One node per state node, one edge per transition. */
export type ChartGraph = { id: string; description: string; nodes: ChartNode[]; edges: ChartEdge[] };

const AFTER = 'xstate.after.';
const DONE_ACTOR = 'xstate.done.actor.';
const ERROR_ACTOR = 'xstate.error.actor.';
const DONE_STATE = 'xstate.done.state.';

export function stateNodesOf(machine: AnyStateMachine): AnyStateNode[] {
  const nodes: AnyStateNode[] = [];
  const walk = (node: AnyStateNode) => {
    nodes.push(node);
    for (const child of Object.values(node.states) as AnyStateNode[]) walk(child);
  };
  walk(machine.root);
  return nodes;
}

/** Every transition a state node declares: `on`, invoke outcomes, `after`, state done, then `always`. */
export function transitionsOf(node: AnyStateNode): AnyTransitionDefinition[] {
  return [...[...node.transitions.values()].flat(), ...(node.always ?? [])];
}

type GuardLike = string | { type?: unknown; params?: unknown; guards?: unknown } | ((...args: never[]) => unknown) | undefined;

/** A guard as a reader knows it: its name, `!name` for not(), `a && b` / `a || b` for and()/or(). */
export function guardLabel(guard: GuardLike): string | undefined {
  if (guard === undefined) return undefined;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    // not(), and() and or() are functions carrying their operands and a named check (xstate's guards.ts).
    const combined = guard as unknown as { guards?: GuardLike[]; check?: { name?: string } };
    if (Array.isArray(combined.guards)) {
      const parts = combined.guards.map((part) => guardLabel(part) ?? '?');
      if (combined.check?.name === 'checkNot') return parts.length === 1 ? `!${parts[0]}` : `!(${parts.join(' || ')})`;
      return parts.join(combined.check?.name === 'checkOr' ? ' || ' : ' && ');
    }
    return guard.name && guard.name !== 'guard' ? guard.name : 'inline guard';
  }
  return typeof guard.type === 'string' ? guard.type : 'inline guard';
}

function actionLabel(action: unknown): string {
  if (typeof action === 'string') return action;
  if (typeof action === 'function') {
    const type = (action as { type?: unknown }).type;
    return typeof type === 'string' ? type : action.name || 'inline action';
  }
  if (action && typeof action === 'object' && typeof (action as { type?: unknown }).type === 'string') return (action as { type: string }).type;
  return 'inline action';
}

function delayLabel(machine: AnyStateMachine, reference: string): string {
  if (/^\d+$/.test(reference)) return `after ${reference} ms`;
  const delay = (machine.implementations.delays as Record<string, unknown>)[reference];
  return typeof delay === 'number' ? `after ${reference} (${delay} ms)` : `after ${reference}`;
}

function edgeOf(machine: AnyStateMachine, node: AnyStateNode, transition: AnyTransitionDefinition, index: number): ChartEdge {
  const always = (node.always ?? []).includes(transition);
  const type = always ? '' : transition.eventType;
  let kind: ChartEdgeKind = 'event';
  let label = type;
  if (always) [kind, label] = ['always', 'always'];
  else if (type.startsWith(AFTER)) [kind, label] = ['after', delayLabel(machine, type.slice(AFTER.length).split('.')[0]!)];
  else if (type.startsWith(DONE_ACTOR)) [kind, label] = ['done', `done: ${type.slice(DONE_ACTOR.length)}`];
  else if (type.startsWith(ERROR_ACTOR)) [kind, label] = ['error', `error: ${type.slice(ERROR_ACTOR.length)}`];
  else if (type.startsWith(DONE_STATE)) [kind, label] = ['state-done', 'done'];
  const actions = (transition.actions ?? []).map(actionLabel);
  const targets = transition.target ?? [];
  const targetless = targets.length === 0;
  return {
    id: `${node.id}#${always ? 'always' : type}#${index}`,
    source: node.id,
    target: targetless ? node.id : targets[0]!.id,
    kind,
    event: type,
    label: targetless && actions.length === 0 && kind === 'event' ? `${label} (ignored)` : label,
    guard: guardLabel(transition.guard as GuardLike),
    description: transition.description,
    targetless,
    actions,
  };
}

export function chartGraph(machine: AnyStateMachine): ChartGraph {
  const nodes: ChartNode[] = [];
  const edges: ChartEdge[] = [];
  for (const node of stateNodesOf(machine)) {
    const parent = node.parent ?? null;
    nodes.push({
      id: node.id,
      key: node.key,
      parent: parent?.id ?? null,
      kind: node.type,
      initial: parent?.type === 'compound' && parent.initial?.target?.[0] === node,
      description: node.description,
      tags: [...(node.tags ?? [])],
      invokes: node.invoke.map((invoke) => ({ id: invoke.id, src: typeof invoke.src === 'string' ? invoke.src : invoke.id })),
    });
    const perEvent = new Map<string, number>();
    for (const transition of transitionsOf(node)) {
      const key = (node.always ?? []).includes(transition) ? 'always' : transition.eventType;
      const index = perEvent.get(key) ?? 0;
      perEvent.set(key, index + 1);
      edges.push(edgeOf(machine, node, transition, index));
    }
  }
  return { id: machine.id, description: machine.root.description ?? '', nodes, edges };
}
