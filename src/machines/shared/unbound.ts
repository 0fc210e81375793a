import { fromCallback, fromPromise, type AnyActorLogic, type EventObject, type NonReducibleUnknown } from 'xstate';

/**
 * The placeholders a chart declares its I/O, its rules and its child charts with. A chart names each actor,
 * guard and action it needs, with its type, and stays runnable on its own (the Stately visualizer, the flow
 * atlas); its binding (`<flow>.actors.ts`) provides the implementations with `.provide()`, and tests provide
 * fakes the same way. Anything still unbound when it runs throws, naming itself, so a missing binding fails
 * loudly instead of doing nothing.
 */

const notBound = (name: string) => new Error(`${name} is bound with the chart (the flow's *.actors.ts, or .provide() in a test)`);

/** A call (`fromPromise`): its answer and its input. */
export const unboundPromise = <Output, Input = NonReducibleUnknown>(name: string) =>
  fromPromise<Output, Input>(async () => {
    throw notBound(name);
  });

/** A subscription (`fromCallback`, a realtime channel): the events it sends back and its input. */
export const unboundCallback = <Event extends EventObject, Input = NonReducibleUnknown>(name: string) =>
  fromCallback<Event, Input>(() => {
    throw notBound(name);
  });

/**
 * A child chart (the code entry, live prices, …), declared by its logic's type so that the parent's file
 * imports only the child's type: the binding provides the chart itself.
 */
export const unboundChart = <Logic extends AnyActorLogic>(name: string): Logic =>
  // The one cast of the placeholders: a callback that throws when started stands in for any logic.
  fromCallback(() => {
    throw notBound(name);
  }) as AnyActorLogic as Logic;

/** A rule (a guard) with the parameters the chart hands it; the rules live in shared/rules.ts or `<flow>.rules.ts`. */
export const unboundRule =
  <Params = void>(name: string) =>
  (_: unknown, _params: Params): boolean => {
    throw notBound(name);
  };

/** An action the composition root performs (navigating, a settlement's dialog): it has no meaning in the chart alone. */
export const unboundAction =
  <Params = void>(name: string) =>
  (_: unknown, _params: Params): void => {
    throw notBound(name);
  };

/** An `assign` whose update is bound with the chart (exact decimal arithmetic, say): `assign(unboundUpdate<Context>('name'))`. */
export const unboundUpdate =
  <Context>(name: string) =>
  (): Partial<Context> => {
    throw notBound(name);
  };

/**
 * A child chart the app may leave out (the device's push registration, where the browser has no push): until
 * bound it does nothing, so the parent runs the same with or without it.
 */
export const optionalChart = <Logic extends AnyActorLogic>(): Logic =>
  fromCallback(() => () => {}) as AnyActorLogic as Logic;
