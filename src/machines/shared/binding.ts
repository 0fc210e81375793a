import { fromPromise, type NonReducibleUnknown, type PromiseActorLogic } from 'xstate';
import type { SessionResponse } from '../../../contracts/index.ts';
import type { FlowDeps } from './deps.ts';
import type { Notice } from './notify.ts';

/**
 * What the flows' bindings (`<flow>.actors.ts`) do alike, so each says only which service call and which app
 * action each of its chart's names is. For bindings only: a chart's own file never imports it (it would bring the
 * services' types into what the Stately visualizer loads).
 */

/** A service call as a binding hands it to a chart: one argument (or none), a promise of the answer. */
type Call = (input: never) => Promise<unknown>;
/** What the actor takes: the call's argument; a call without one takes whatever the chart gives (nothing). */
type InputOf<C extends Call> = Parameters<C> extends [] ? NonReducibleUnknown : Parameters<C>[0];

/**
 * The chart's named calls (`fromPromise` actors), each the service function given for its name: the actor's
 * input is the call's argument, its answer the actor's output.
 */
export const callsOf = <const Calls extends Record<string, Call>>(calls: Calls) =>
  Object.fromEntries(Object.entries(calls).map(([name, call]) => [name, fromPromise<unknown, never>(({ input }) => call(input))])) as {
    [Name in keyof Calls]: PromiseActorLogic<Awaited<ReturnType<Calls[Name]>>, InputOf<Calls[Name]>>;
  };

/** The chart's `notify`: its toasts, on the app's toaster. */
export const toasts = (deps: FlowDeps) => ({ notify: (_: unknown, params: Notice) => deps.notify(params) });

/** The actions of a flow that ends signed in (login, sign-up): its toasts, and the new session handed to the session actor. */
export const signingIn = (deps: FlowDeps) => ({
  ...toasts(deps),
  establishSession: (_: unknown, params: SessionResponse) => deps.signIn(params),
});
