import { useRouteContext } from '@tanstack/react-router';
import { useActorRef } from '@xstate/react';
import { useMemo } from 'react';
import type { Actor, ActorOptions, AnyActorLogic } from 'xstate';
import type { FlowDeps } from '../machines/shared/deps.ts';

/**
 * A route's actor for its flow: the chart bound to its services — in the route's own chunk, so a screen's chart is
 * downloaded with the screen rather than on the first visit to any page — started with the page, and reporting its
 * states to the flow atlas when live mode is on (deps.inspect, development only).
 */
export function useFlowActor<Logic extends AnyActorLogic>(bind: (deps: FlowDeps) => Logic, options?: Omit<ActorOptions<Logic>, 'inspect'>): Actor<Logic> {
  const { deps } = useRouteContext({ from: '__root__' });
  const logic = useMemo(() => bind(deps), [bind, deps]);
  return useActorRef(logic, { ...options, inspect: deps.inspect } as ActorOptions<Logic>);
}
