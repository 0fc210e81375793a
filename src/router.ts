import { createRouter, type RouterHistory } from '@tanstack/react-router';
import type { ActorRefFrom } from 'xstate';
import type { FlowDeps } from './machines/shared/deps.ts';
import type { sessionMachine } from './machines/session/session.machine.ts';
import { routeTree } from './routeTree.gen.ts';

export type RouterContext = {
  session: ActorRefFrom<typeof sessionMachine>;
  /** What each route's flow binds its actors to (see routes/-useFlow.ts). */
  deps: FlowDeps;
};

/** `history`: the browser's by default; the build's prerender (src/prerender.tsx) passes a memory history. */
export function createAppRouter(context: RouterContext, history?: RouterHistory) {
  return createRouter({ routeTree, context, history, defaultPreload: 'intent', scrollRestoration: true });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
