import { createFileRoute, notFound } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { Suspense, lazy, useMemo } from 'react';
import { atlasChartSummaries, bindFlowAtlas } from '../machines/flowAtlas/flowAtlas.actors.ts';
import { selectIsCheckingAccess, selectIsRefused } from '../machines/flowAtlas/flowAtlas.selectors.ts';
import { selectIsSignedIn, selectUser } from '../machines/session/session.selectors.ts';
import { AtlasScreen } from '../ui/flows/AtlasScreen.tsx';
import { SignedOutNav } from '../ui/shell/SignedOutNav.tsx';


// Only `component` is declared: it is split into the atlas's own chunk, so /flows adds no more than its entry in
// the route tree to any first page. `?chart=` is read in the component for the same reason.
export const Route = createFileRoute('/flows')({ component: FlowsRoute });

// The product's signed-in bar, the chunk routes/_app.tsx fetches for its pages: fetched here with the atlas.
const SignedInBar = lazy(() => import('./-signedInBar.tsx').then(({ SignedInBar }) => ({ default: SignedInBar })));

function FlowsRoute() {
  const { session, deps } = Route.useRouteContext();
  const search: Record<string, unknown> = Route.useSearch();
  const navigate = Route.useNavigate();
  const chart = typeof search.chart === 'string' ? search.chart : null;
  const logic = useMemo(() => bindFlowAtlas(deps, () => session.getSnapshot().context.user?.role ?? null), [deps, session]);
  const actor = useActorRef(logic, { input: { charts: atlasChartSummaries, chart } });
  const refused = useSelector(actor, selectIsRefused);
  const checking = useSelector(actor, selectIsCheckingAccess);
  const username = useSelector(session, (snapshot) => (selectIsSignedIn(snapshot) ? (selectUser(snapshot)?.username ?? '') : ''));
  // Refused: the product's page-not-found, as /moderation is to a trader.
  if (refused) throw notFound();
  if (checking) return null;
  return (
    <>
      {/* The way back into the product: signed out, the root layout draws the bar with Login and Sign Up; signed
          in, the product's own bar, its placeholder (the bar without links) until its chunk is here. */}
      {username ? (
        <Suspense fallback={<SignedOutNav links={false} />}>
          <SignedInBar key={username} session={session} username={username} />
        </Suspense>
      ) : null}
      <AtlasScreen
        actor={actor}
        onChoose={(id) => {
          actor.send({ type: 'chart.select', chart: id });
          void navigate({ search: { chart: id } as never });
        }}
      />
    </>
  );
}
