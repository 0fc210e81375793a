import { createFileRoute, notFound } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { atlasChartSummaries, bindFlowAtlas } from '../machines/flowAtlas/flowAtlas.actors.ts';
import { selectIsCheckingAccess, selectIsRefused } from '../machines/flowAtlas/flowAtlas.selectors.ts';
import { AtlasScreen } from '../ui/flows/AtlasScreen.tsx';


// Only `component` is declared: it is split into the atlas's own chunk, so /flows adds no more than its entry in
// the route tree to any first page. `?chart=` is read in the component for the same reason.
export const Route = createFileRoute('/flows')({ component: FlowsRoute });

function FlowsRoute() {
  const { session, deps } = Route.useRouteContext();
  const search: Record<string, unknown> = Route.useSearch();
  const navigate = Route.useNavigate();
  const chart = typeof search.chart === 'string' ? search.chart : null;
  const logic = useMemo(() => bindFlowAtlas(deps, () => session.getSnapshot().context.user?.role ?? null), [deps, session]);
  const actor = useActorRef(logic, { input: { charts: atlasChartSummaries, chart } });
  const refused = useSelector(actor, selectIsRefused);
  const checking = useSelector(actor, selectIsCheckingAccess);
  // Refused: the product's page-not-found, as /moderation is to a trader.
  if (refused) throw notFound();
  if (checking) return null;
  return (
    <AtlasScreen
      actor={actor}
      onChoose={(id) => {
        actor.send({ type: 'chart.select', chart: id });
        void navigate({ search: { chart: id } as never });
      }}
    />
  );
}
