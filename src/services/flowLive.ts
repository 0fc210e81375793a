import type { ActorRefLike, AnyActor, AnyStateMachine, InspectionEvent, StateValue } from 'xstate';

/** One running actor of a chart, in a page of this browser (another tab or window of the same origin). */
export type LiveActor = {
  /** Unique: the page's random id and the actor's session id. */
  key: string;
  /** The machine id, e.g. `tradeDialog`. */
  chart: string;
  /** Every active state node, e.g. `['tradeDialog', 'tradeDialog.open', 'tradeDialog.open.waiting']`. */
  active: string[];
  /** The page's path, e.g. `/offers`. */
  page: string;
};
/** An event an actor received: its type only, never its payload (payloads carry passwords and codes). */
export type LiveEvent = { key: string; chart: string; type: string; at: string };

/** `page`: a page in development that has not loaded its inspector yet asks whether an atlas is listening. */
type LiveMessage = { kind: 'hello' } | { kind: 'page' } | { kind: 'actor'; actor: LiveActor } | { kind: 'gone'; key: string } | { kind: 'event'; event: LiveEvent };

/** Same origin, same browser: the atlas in one tab, the product in another. */
export const LIVE_CHANNEL = 'peerex-flow-atlas';
const ATLAS_PATH = '/flows';

const isText = (value: unknown, max = 500): value is string => typeof value === 'string' && value.length > 0 && value.length <= max;

/** Another tab may run an older build, or anything of this origin may post here: take only well-formed messages. */
export function parseLiveMessage(data: unknown): LiveMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const message = data as Record<string, unknown>;
  if (message.kind === 'hello') return { kind: 'hello' };
  if (message.kind === 'page') return { kind: 'page' };
  if (message.kind === 'gone') return isText(message.key) ? { kind: 'gone', key: message.key } : null;
  if (message.kind === 'actor' && typeof message.actor === 'object' && message.actor !== null) {
    const { key, chart, active, page } = message.actor as Record<string, unknown>;
    if (!isText(key) || !isText(chart) || !isText(page, 2000) || !Array.isArray(active) || active.length > 500 || !active.every((id) => isText(id))) return null;
    return { kind: 'actor', actor: { key, chart, active: [...active] as string[], page } };
  }
  if (message.kind === 'event' && typeof message.event === 'object' && message.event !== null) {
    const { key, chart, type, at } = message.event as Record<string, unknown>;
    if (!isText(key) || !isText(chart) || !isText(type) || !isText(at, 40)) return null;
    return { kind: 'event', event: { key, chart, type, at } };
  }
  return null;
}

const isMachine = (logic: unknown): logic is AnyStateMachine =>
  typeof logic === 'object' && logic !== null && 'root' in logic && 'getStateNodeById' in logic;

/** The state node ids a state value makes active, root included (public API: the value and each node's path). */
export function activeStateIds(machine: AnyStateMachine, value: StateValue): string[] {
  const ids = [machine.root.id];
  const walk = (node: AnyStateMachine['root'], part: StateValue) => {
    const entries = typeof part === 'string' ? [[part, {}] as const] : Object.entries(part);
    for (const [key, inner] of entries) {
      const child = node.states[key];
      if (!child) continue;
      ids.push(child.id);
      walk(child, inner as StateValue);
    }
  };
  walk(machine.root, value);
  return ids;
}

/**
 * Page side: an XState `inspect` callback that tells the atlas where each machine actor of this page is. Only
 * state ids and event types leave the actor; context and payloads never do.
 */
export function createLiveInspector(
  /** Actors that started before the inspector loaded (app.tsx notes them until an atlas answers). */
  known: Iterable<ActorRefLike> = [],
  channel: BroadcastChannel = new BroadcastChannel(LIVE_CHANNEL),
  page = () => location.pathname,
) {
  const pageId = Math.random().toString(36).slice(2, 10);
  const running = new Map<string, AnyActor>();
  const post = (message: LiveMessage) => channel.postMessage(message);
  const keyOf = (actor: AnyActor) => `${pageId}:${actor.sessionId}`;
  const announce = (actor: AnyActor, snapshot: { status?: string; value?: StateValue } | undefined) => {
    const key = keyOf(actor);
    if (!snapshot || snapshot.status !== 'active') {
      if (running.delete(key)) post({ kind: 'gone', key });
      return;
    }
    running.set(key, actor);
    const machine = actor.logic as AnyStateMachine;
    post({ kind: 'actor', actor: { key, chart: machine.id, active: activeStateIds(machine, snapshot.value ?? {}), page: page() } });
  };
  channel.onmessage = (message) => {
    if (parseLiveMessage(message.data)?.kind === 'hello') for (const actor of running.values()) announce(actor, actor.getSnapshot());
  };
  addEventListener('pagehide', () => {
    for (const key of running.keys()) post({ kind: 'gone', key });
    running.clear();
  });
  const inspect = (event: InspectionEvent) => {
    // The atlas's own tab is not a page to watch: its actors' events would come back to it as live events, and
    // each would make another.
    if (page().startsWith(ATLAS_PATH)) return;
    // An inspected ref is the actor itself (xstate's Actor), which knows its logic.
    const actor = event.actorRef as unknown as AnyActor;
    if (!isMachine(actor.logic)) return;
    if (event.type === '@xstate.snapshot') announce(actor, event.snapshot as Parameters<typeof announce>[1]);
    else if (event.type === '@xstate.actor') {
      // Reported while the actor initialises (its first snapshot follows), or for an actor that ran before the
      // inspector loaded (app.tsx), whose snapshot can be read.
      try {
        announce(actor, actor.getSnapshot());
      } catch {
        running.set(keyOf(actor), actor);
      }
    }
    else if (event.type === '@xstate.event') {
      post({ kind: 'event', event: { key: keyOf(actor), chart: (actor.logic as AnyStateMachine).id, type: event.event.type, at: new Date().toISOString() } });
    }
  };
  for (const actorRef of known) inspect({ type: '@xstate.actor', actorRef, rootId: '' } as InspectionEvent);
  return inspect;
}

/** Atlas side: listens, and first asks every page to announce its running actors again. Returns the unsubscribe. */
export function listenToLivePages(
  handlers: { actor: (actor: LiveActor) => void; gone: (key: string) => void; event: (event: LiveEvent) => void },
  channel: BroadcastChannel = new BroadcastChannel(LIVE_CHANNEL),
): () => void {
  channel.onmessage = (message) => {
    const parsed = parseLiveMessage(message.data);
    if (parsed?.kind === 'page') channel.postMessage({ kind: 'hello' } satisfies LiveMessage);
    else if (parsed?.kind === 'actor') handlers.actor(parsed.actor);
    else if (parsed?.kind === 'gone') handlers.gone(parsed.key);
    else if (parsed?.kind === 'event') handlers.event(parsed.event);
  };
  channel.postMessage({ kind: 'hello' } satisfies LiveMessage);
  return () => channel.close();
}
