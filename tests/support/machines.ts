/**
 * Helpers for walking the real statecharts with `xstate/graph` and replaying the walks on real actors.
 *
 * `createTestModel` refuses machines with `invoke`, so the model tests list the invoked actors' outcomes
 * (`xstate.done.actor.<id>` / `xstate.error.actor.<id>`) as events of the walk, and the replay makes the
 * fake actor of that invoke resolve or reject at exactly that step. That is why every `invoke` has an explicit `id`.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  fromPromise,
  getInitialMicrosteps,
  getMicrosteps,
  getNextTransitions,
  type AnyActorRef,
  type SimulatedClock,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  type EventObject,
  type InspectionEvent,
  type StateValue,
} from 'xstate';
import { getAdjacencyMap, getShortestPaths, getSimplePaths, getStateNodes, serializeSnapshot } from 'xstate/graph';

/** Any event of a walk: a user event or an invoked actor's outcome. */
export type ModelEvent = EventObject & Record<string, unknown>;
export type ModelStep = { event: ModelEvent; state: AnyMachineSnapshot };
export type ModelPath = { state: AnyMachineSnapshot; steps: ModelStep[] };

const DONE = 'xstate.done.actor.';
const ERROR = 'xstate.error.actor.';

const AFTER = 'xstate.after.';

export const isOutcome = (event: EventObject) => event.type.startsWith(DONE) || event.type.startsWith(ERROR);

/**
 * A named delay running out: XState 5 names the event `xstate.after.<delay>.<state node id>`, e.g.
 * `xstate.after.searchDebounce.offerBrowser.list.debouncing`. A walk lists it like any other event.
 */
export const isDelayed = (event: EventObject) => event.type.startsWith(AFTER);

/** The event a named delay of a state sends when it runs out. */
export const afterEvent = (delay: string, stateId: string): ModelEvent => ({ type: `${AFTER}${delay}.${stateId}` });

/**
 * The socket's moves a chart's connection region (src/machines/shared/liveRegions.ts) can take from where it is:
 * connecting → live or offline, live → offline or trying again, offline → back, trying again, or its watch failing.
 */
export function socketMoves(snapshot: AnyMachineSnapshot): ModelEvent[] {
  if (snapshot.matches({ connection: 'connecting' })) return [{ type: 'realtime.connected' }, { type: 'realtime.offline' }];
  if (snapshot.matches({ connection: 'live' })) return [{ type: 'realtime.offline' }, { type: 'realtime.connecting' }];
  const moves: ModelEvent[] = [{ type: 'realtime.connected' }, { type: 'realtime.connecting' }];
  if (snapshot.children.connection) moves.push({ type: `${ERROR}connection`, error: new Error('gone') });
  return moves;
}

/** Whether realtime cannot reach the page after `event` (one of `socketMoves`), as it was before for any other event. */
export const offlineAfter = (event: EventObject, offline: boolean): boolean =>
  event.type === 'realtime.offline' || event.type === `${ERROR}connection`
    ? true
    : event.type === 'realtime.connected' || event.type === 'realtime.connecting'
      ? false
      : offline;

/** How long the delay of an `xstate.after.<delay>.<id>` event lasts, read from the machine's `delays`. */
export function delayOf(machine: AnyStateMachine, event: EventObject): number {
  const ref = event.type.slice(AFTER.length).split('.')[0]!;
  if (/^\d+$/.test(ref)) return Number(ref);
  const delay = (machine.implementations.delays as Record<string, unknown>)[ref];
  if (typeof delay !== 'number') throw new Error(`the delay "${ref}" is not a fixed number of milliseconds`);
  return delay;
}

// ---------------------------------------------------------------------------------------------------
// What the machine defines
// ---------------------------------------------------------------------------------------------------

/** Every state node below the root, read from the machine definition. */
export function definedStates(machine: AnyStateMachine): string[] {
  return getStateNodes(machine.root).map((node) => node.id);
}

function allNodes(machine: AnyStateMachine): AnyStateNode[] {
  return [machine.root, ...getStateNodes(machine.root)];
}

/**
 * A stable name for a transition definition: its source, its event (or `always`) and its place among
 * the candidates of that event, plus its targets for a readable report. Works across `.provide()` copies.
 */
export function transitionKey(transition: AnyTransitionDefinition): string | undefined {
  const source = transition.source;
  const always = source.always ?? [];
  const alwaysIndex = always.indexOf(transition);
  const candidates = source.transitions.get(transition.eventType) ?? [];
  const index = alwaysIndex >= 0 ? alwaysIndex : candidates.indexOf(transition);
  if (index < 0) return undefined; // an initial transition, not one the chart declares
  const event = alwaysIndex >= 0 ? 'always' : transition.eventType;
  const targets = transition.target?.map((node) => node.id).join(',') ?? '(stays)';
  return `${source.id} —${event}#${index}→ ${targets}`;
}

/** Every transition the chart declares: `on`, invoke `onDone`/`onError`, `after` and `always`, each candidate. */
export function definedTransitions(machine: AnyStateMachine): string[] {
  const keys: string[] = [];
  for (const node of allNodes(machine)) {
    const declared = [...[...node.transitions.values()].flat(), ...(node.always ?? [])];
    for (const transition of declared) {
      const key = transitionKey(transition);
      if (key === undefined) throw new Error(`cannot name a transition of ${node.id}`);
      keys.push(key);
    }
  }
  return keys;
}

// ---------------------------------------------------------------------------------------------------
// Coverage measured on real actors
// ---------------------------------------------------------------------------------------------------

/**
 * The state nodes a state value makes active: each node whose path (from the chart's root) is a prefix of
 * one of the value's paths. Public API only: `StateNode.path` and the snapshot's `value`.
 */
export function activeStateIds(machine: AnyStateMachine, value: StateValue): string[] {
  const paths: string[][] = [];
  const walkValue = (part: StateValue, prefix: string[]) => {
    if (typeof part === 'string') return void paths.push([...prefix, part]);
    const keys = Object.keys(part);
    if (keys.length === 0) return void paths.push(prefix);
    for (const key of keys) walkValue(part[key] as StateValue, [...prefix, key]);
  };
  walkValue(value, []);
  return getStateNodes(machine.root)
    .filter((node) => paths.some((path) => node.path.length <= path.length && node.path.every((step, i) => step === path[i])))
    .map((node) => node.id);
}

/**
 * The chart with its named send actions (sendTo, sendParent) made inert: replaying microsteps is pure, but
 * resolving a send to a parent or child the replay does not have would throw. Nothing else changes: assigns
 * and guards, which decide the steps, stay.
 */
function withoutSending(machine: AnyStateMachine): AnyStateMachine {
  const actions = (machine.implementations.actions ?? {}) as Record<string, { type?: unknown } | undefined>;
  const sends = Object.entries(actions).filter(([, action]) => action?.type === 'xstate.sendTo');
  return sends.length === 0 ? machine : machine.provide({ actions: Object.fromEntries(sends.map(([name]) => [name, () => {}])) });
}

/** The event a `raise` action (no delay) puts on the chart's own queue, as a microstep lists it. */
function raisedEvent(action: { type: string; params?: unknown }): EventObject[] {
  const params = action.params as { event?: EventObject; delay?: unknown } | undefined;
  return action.type === 'xstate.raise' && params?.event && params.delay === undefined ? [params.event] : [];
}

/**
 * The eventless transitions a microstep took from `from` into the states `entered`: the first candidate of
 * each source whose targets are all entered, at least one of them new. Parallel regions may each take one
 * in the same microstep (a trade's facts move its state and close a dialog at once).
 */
function eventlessTaken(from: AnyMachineSnapshot, entered: Set<string>): AnyTransitionDefinition[] {
  const before = new Set(activeStateIds(from.machine as AnyStateMachine, from.value));
  const taken = new Map<string, AnyTransitionDefinition>();
  for (const transition of getNextTransitions(from)) {
    const targets = transition.target ?? [];
    if (transition.eventType !== '' || taken.has(transition.source.id)) continue;
    if (targets.every((node) => entered.has(node.id)) && targets.some((node) => !before.has(node.id))) taken.set(transition.source.id, transition);
  }
  return [...taken.values()];
}

/**
 * State nodes and transitions taken by real actors, worked out with XState's public API only: every
 * snapshot an actor of the chart reports (inspection's `@xstate.snapshot`, with the event that led to it) is
 * replayed from the one before with `getMicrosteps`, so the transient states an `always` passes through
 * count too; the first microstep's transitions are `getTransitionData` of the event, a later one's the
 * eventless transition (`getNextTransitions`) whose targets it entered, or else those of the next event the
 * chart raised (`raise`, enqueued or not). The denominators come from the chart.
 */
export class Coverage {
  readonly states = new Set<string>();
  readonly transitions = new Set<string>();
  readonly allStates: string[];
  readonly allTransitions: string[];
  private readonly previous = new Map<unknown, AnyMachineSnapshot>();

  constructor(readonly machine: AnyStateMachine) {
    this.allStates = definedStates(machine);
    this.allTransitions = definedTransitions(machine);
  }

  /** Pass as `inspect` to `createActor`; actors of other charts (children, parents) are left out. */
  readonly inspect = (inspection: InspectionEvent) => {
    if (inspection.type !== '@xstate.snapshot') return;
    const snapshot = inspection.snapshot as AnyMachineSnapshot;
    if (snapshot.machine?.id !== this.machine.id) return;
    const machine = withoutSending(snapshot.machine as AnyStateMachine);
    const before = this.previous.get(inspection.actorRef);
    this.previous.set(inspection.actorRef, snapshot);
    const event = inspection.event as EventObject & { input?: unknown };
    // The step before, as a snapshot of the inert chart (a snapshot carries the chart it belongs to).
    const start = before && machine.resolveState({ value: before.value, context: before.context });
    const steps = start ? getMicrosteps(machine, start, event) : getInitialMicrosteps(machine, event.input as never);
    // Events the chart raised, in order: once no eventless transition is left, XState takes the next of these.
    const raised: EventObject[] = [];
    let from = start;
    for (const [index, [step, actions]] of steps.entries()) {
      for (const id of activeStateIds(machine, step.value)) this.states.add(id);
      const entered = new Set(activeStateIds(machine, step.value));
      let taken: AnyTransitionDefinition[] = [];
      if (from && index === 0) taken = machine.getTransitionData(from, event);
      else if (from) {
        taken = eventlessTaken(from, entered);
        const next = taken.length === 0 ? raised.shift() : undefined;
        if (next) taken = machine.getTransitionData(from, next);
      }
      for (const transition of taken) {
        const key = transitionKey(transition);
        if (key !== undefined) this.transitions.add(key);
      }
      raised.push(...actions.flatMap((action) => raisedEvent(action)));
      from = step;
    }
  };

  missingStates(): string[] {
    return this.allStates.filter((id) => !this.states.has(id));
  }

  missingTransitions(): string[] {
    return this.allTransitions.filter((key) => !this.transitions.has(key));
  }

  summary(): string {
    const states = this.allStates.length - this.missingStates().length;
    const transitions = this.allTransitions.length - this.missingTransitions().length;
    return (
      `${this.machine.id}: ${states}/${this.allStates.length} states, ` +
      `${transitions}/${this.allTransitions.length} transitions`
    );
  }
}

// ---------------------------------------------------------------------------------------------------
// Walks
// ---------------------------------------------------------------------------------------------------

export type WalkOptions = {
  /** The events a trader (or an invoked call) can produce in a snapshot. */
  events: (snapshot: AnyMachineSnapshot) => ModelEvent[];
  input?: unknown;
  /** Also every simple path (no state visited twice); only for small graphs. */
  simple?: boolean;
};

export type Walk = { paths: ModelPath[]; states: number; edges: number };

const pathKey = (path: ModelPath) => JSON.stringify(path.steps.map((step) => step.event));

/**
 * Paths through the real machine: the shortest path to every distinct snapshot (state and context),
 * and, so that every edge of the graph is taken once, that shortest path extended by each event the
 * snapshot accepts — failures that lead back to an already known snapshot included.
 */
export function walk(machine: AnyStateMachine, options: WalkOptions): Walk {
  const traversal = { events: options.events, input: options.input } as never;
  const shortest = getShortestPaths(machine, traversal) as unknown as ModelPath[];
  const adjacency = getAdjacencyMap(machine, traversal) as unknown as Record<
    string,
    { transitions: Record<string, { event: ModelEvent; state: AnyMachineSnapshot }> }
  >;
  const paths = new Map<string, ModelPath>();
  const add = (path: ModelPath) => paths.set(pathKey(path), path);
  let edges = 0;
  for (const path of shortest) {
    add(path);
    for (const next of Object.values(adjacency[serializeSnapshot(path.state)]?.transitions ?? {})) {
      edges += 1;
      add({ state: next.state, steps: [...path.steps, { event: next.event, state: next.state }] });
    }
  }
  if (options.simple) {
    for (const path of getSimplePaths(machine, traversal) as unknown as ModelPath[]) add(path);
  }
  return { paths: [...paths.values()], states: shortest.length, edges };
}

/**
 * The tests a chart's model file ends with: the graph is there to walk, every path replays, and the paths
 * together reach every state and take every transition of the chart (measured on real actors, printed).
 */
export function describeModel(
  title: string,
  chart: AnyStateMachine,
  model: { paths: ModelPath[]; states: number },
  least: number,
  run: (path: ModelPath, coverage?: Coverage) => Promise<void>,
) {
  describe(`${title}: every path through the chart`, () => {
    it('has a graph to walk', () => {
      expect(model.states).toBeGreaterThanOrEqual(least);
    });

    it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
      await run(path);
    });

    it('reaches every state and takes every transition of the chart', async () => {
      const coverage = new Coverage(chart);
      for (const path of model.paths) await run(path, coverage);
      console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots)`);
      expect(coverage.missingStates()).toEqual([]);
      expect(coverage.missingTransitions()).toEqual([]);
    }, 300_000);
  });
}

/** A short readable name of a path for test titles. */
export function describePath(path: ModelPath): string {
  const events = path.steps.slice(1).map(({ event }) => {
    if (event.type.startsWith(DONE)) return `✓${event.type.slice(DONE.length)}${describeOutput(event.output)}`;
    if (event.type.startsWith(ERROR)) return `✗${event.type.slice(ERROR.length)}`;
    if (event.type.startsWith(AFTER)) return `⏱${event.type.slice(AFTER.length).split('.')[0]}`;
    if (event.type === 'field.change') return `${String(event.name)}=${JSON.stringify(event.value)}`;
    if ('value' in event) return `${event.type}=${JSON.stringify(event.value)}`;
    return event.type;
  });
  return `${JSON.stringify(path.state.value)} ⇐ ${events.join(' → ') || '(start)'}`;
}

function describeOutput(output: unknown): string {
  if (output && typeof output === 'object') {
    const record = output as Record<string, unknown>;
    if ('two_factor' in record) return `(two_factor:${String(record.two_factor)})`;
    if ('enabled' in record) return `(enabled:${String(record.enabled)})`;
    if ('is_active' in record) return `(is_active:${String(record.is_active)})`;
    if ('paginator' in record) {
      const paginator = record.paginator as { prev: boolean; next: boolean };
      return `(prev:${String(paginator.prev)},next:${String(paginator.next)})`;
    }
  }
  return '';
}

// ---------------------------------------------------------------------------------------------------
// Fake invoked actors, settled by the replay
// ---------------------------------------------------------------------------------------------------

export type ActorCall = { id: string; input: unknown };

/**
 * One fake promise actor for each `src`: it records its invoke id and input, then waits until the
 * replay settles it with the outcome the path says. A path that ends while a call runs leaves it pending.
 * A call the machine stops (its state was left) is no longer running, but can still be answered with
 * `resolveCall`/`rejectCall` to show that a stale answer changes nothing.
 */
export function scriptedActors<const TSrc extends string>(srcs: readonly TSrc[]) {
  type Handle = { resolve: (output: unknown) => void; reject: (error: unknown) => void };
  const pending = new Map<string, Handle>();
  const calls: ActorCall[] = [];
  const handles: Handle[] = [];
  const logic = fromPromise<unknown, unknown>(
    ({ input, self, signal }) =>
      new Promise((resolve, reject) => {
        const handle = { resolve, reject };
        calls.push({ id: self.id, input });
        handles.push(handle);
        pending.set(self.id, handle);
        signal.addEventListener('abort', () => {
          if (pending.get(self.id) === handle) pending.delete(self.id);
        });
      }),
  );
  const actors = Object.fromEntries(srcs.map((src) => [src, logic])) as Record<TSrc, typeof logic>;
  return {
    actors,
    calls,
    /** Resolves or rejects the running call named by a `xstate.done/error.actor.<id>` event. */
    settle(event: ModelEvent) {
      const done = event.type.startsWith(DONE);
      const id = event.type.slice(done ? DONE.length : ERROR.length);
      const call = pending.get(id);
      if (!call) throw new Error(`the path settles "${id}", but the machine is not running it`);
      pending.delete(id);
      if (done) call.resolve(event.output);
      else call.reject(event.error);
    },
    /** Whether a call with this invoke id is running. */
    isRunning: (id: string) => pending.has(id),
    /** The call `id` answers `output`; resolves once the machine has taken the answer. */
    async resolve(id: string, output: unknown) {
      this.settle({ type: `${DONE}${id}`, output });
      await flush();
    },
    /** The call `id` fails with `error`; resolves once the machine has taken the failure. */
    async reject(id: string, error: unknown) {
      this.settle({ type: `${ERROR}${id}`, error });
      await flush();
    },
    /** Answers `calls[index]`, running or stopped since; resolves once any actor could have taken it. */
    async resolveCall(index: number, output: unknown) {
      handles[index]!.resolve(output);
      await flush();
    },
    /** Fails `calls[index]`, running or stopped since. */
    async rejectCall(index: number, error: unknown) {
      handles[index]!.reject(error);
      await flush();
    },
  };
}

export type Scripted = ReturnType<typeof scriptedActors>;

/**
 * Lets settled promises reach the actors that wait on them. Under `vi.useFakeTimers()` it moves the fake
 * clock by nothing, so a debounce test can settle calls without its delays running out.
 */
export const flush = (): Promise<void> =>
  vi.isFakeTimers() ? vi.advanceTimersByTimeAsync(0).then(() => undefined) : new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Replays a walk on a started actor: user events are sent, outcomes settle the fake call. After every
 * step the real snapshot must equal the walk's (value and context), then `check` asserts what shows.
 * A delayed event is not sent: the actor's `clock` (a `SimulatedClock` given to `createActor`) moves on
 * by the machine's named delay, and one millisecond before that nothing may have happened.
 */
export async function replay(
  actor: AnyActorRef,
  path: ModelPath,
  fakes: Scripted,
  check: (snapshot: AnyMachineSnapshot, step: ModelStep, index: number) => void = () => {},
  options: { clock?: SimulatedClock } = {},
): Promise<void> {
  for (const [index, step] of path.steps.entries()) {
    if (index > 0) {
      if (isOutcome(step.event)) {
        fakes.settle(step.event);
        await flush();
      } else if (isDelayed(step.event)) {
        if (!options.clock) throw new Error(`the path waits for ${step.event.type}: replay it with a SimulatedClock`);
        const before = actor.getSnapshot() as AnyMachineSnapshot;
        const machine = (actor as AnyActorRef & { logic: AnyStateMachine }).logic;
        options.clock.increment(delayOf(machine, step.event) - 1);
        expect((actor.getSnapshot() as AnyMachineSnapshot).value, `just before ${step.event.type}`).toEqual(before.value);
        options.clock.increment(1);
      } else {
        actor.send(step.event);
      }
    }
    const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
    expect({ value: snapshot.value, context: snapshot.context }, `after step ${index} (${step.event.type})`).toEqual({
      value: step.state.value,
      context: step.state.context,
    });
    check(snapshot, step, index);
  }
}

// ---------------------------------------------------------------------------------------------------
// The field validation messages, written out independently of the zod contracts the machines use
// ---------------------------------------------------------------------------------------------------

export const specMessages = {
  email: 'Please enter a valid email address',
  code: 'Please enter a valid 6-digit verification code',
  username: 'Username must be at least 3 characters',
  password: 'Password must be at least 6 characters',
  confirmPassword: 'Passwords do not match',
} as const;

/** The message each field value gets, for the small set of values the walks type. */
export const specRules = {
  email: (value: string) => (/^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i.test(value.trim()) ? undefined : specMessages.email),
  code: (value: string) => (/^\d{6}$/.test(value) ? undefined : specMessages.code),
  username: (value: string) => (value.trim().length >= 3 ? undefined : specMessages.username),
  password: (value: string) => (value.length >= 6 ? undefined : specMessages.password),
  confirmPassword: (value: string, password: string) => (value === password ? undefined : specMessages.confirmPassword),
};

/**
 * A fake of a service whose every call waits until the test answers (or fails) the oldest waiting call of its
 * name, so a test drives each request's outcome and its timing. `names` are the service's methods.
 */
export function scriptedService<Name extends string>(names: readonly Name[]) {
  type Call = { name: Name; input: unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void };
  const waiting: Call[] = [];
  const made: { name: Name; input: unknown }[] = [];
  const record = (name: Name) => (input?: unknown) => {
    made.push({ name, input });
    return new Promise((resolve, reject) => void waiting.push({ name, input, resolve, reject }));
  };
  const take = (name: Name) => {
    const index = waiting.findIndex((call) => call.name === name);
    if (index < 0) throw new Error(`no ${name} call is waiting`);
    return waiting.splice(index, 1)[0]!;
  };
  return {
    /** The fake itself: one method per name. */
    methods: Object.fromEntries(names.map((name) => [name, record(name)])) as Record<Name, (input?: unknown) => Promise<unknown>>,
    made,
    /** How many calls of `name` were made. */
    count: (name: Name) => made.filter((call) => call.name === name).length,
    inputs: (name: Name) => made.filter((call) => call.name === name).map((call) => call.input),
    waiting: (name: Name) => waiting.filter((call) => call.name === name).length,
    async answer(name: Name, value: unknown) {
      take(name).resolve(value);
      await flush();
    },
    async fail(name: Name, error: unknown = new Error('Internet server error')) {
      take(name).reject(error);
      await flush();
    },
  };
}
