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

/** The names of a service's calls. */
type CallName<Service> = { [Name in keyof Service]: Service[Name] extends Call ? Name : never }[keyof Service];

/**
 * The chart's named calls (`fromPromise` actors), each the call of `service` named for it: the actor's input is
 * the call's argument, its answer the actor's output. The call is looked up when the actor runs, as a binding
 * written out by hand would.
 */
export const callsOf = <Service, const Names extends Record<string, CallName<Service>>>(service: Service, names: Names) =>
  Object.fromEntries(
    Object.entries<CallName<Service>>(names).map(([actor, call]) => [
      actor,
      fromPromise<unknown, never>(({ input }) => (service[call] as Call)(input)),
    ]),
  ) as {
    [Actor in keyof Names]: Service[Names[Actor]] extends infer C extends Call ? PromiseActorLogic<Awaited<ReturnType<C>>, InputOf<C>> : never;
  };

/** The chart's `notify`: its toasts, on the app's toaster. */
export const toasts = (deps: FlowDeps) => ({ notify: (_: unknown, params: Notice) => deps.notify(params) });

/** The actions of a flow that ends signed in (login, sign-up): its toasts, and the new session handed to the session actor. */
export const signingIn = (deps: FlowDeps) => ({
  ...toasts(deps),
  establishSession: (_: unknown, params: SessionResponse) => deps.signIn(params),
});
