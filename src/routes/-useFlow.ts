import { useRouteContext } from '@tanstack/react-router';
import { useMemo } from 'react';
import type { FlowDeps } from '../machines/shared/deps.ts';

/**
 * A flow's chart with its services bound. Binding happens in the route's own chunk, so a screen's
 * chart is downloaded with the screen rather than on the first visit to any page.
 */
export function useFlow<Logic>(bind: (deps: FlowDeps) => Logic): Logic {
  const { deps } = useRouteContext({ from: '__root__' });
  return useMemo(() => bind(deps), [bind, deps]);
}
