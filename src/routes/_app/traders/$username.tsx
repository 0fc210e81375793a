import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useCallback } from 'react';
import type { FlowDeps } from '../../../machines/shared/deps.ts';
import { selectUser } from '../../../machines/session/session.selectors.ts';
import { bindTraderProfile } from '../../../machines/traderProfile/traderProfile.actors.ts';
import { TraderProfileScreen } from '../../../ui/traders/TraderProfileScreen.tsx';
import { useFlowActor } from '../../-useFlow.ts';
import { useTradePreview } from '../../-useTradePreview.tsx';

export const Route = createFileRoute('/_app/traders/$username')({ component: TraderProfileRoute });

function TraderProfileRoute() {
  const { username } = Route.useParams();
  // Another trader's name in the URL is another profile: a fresh chart, not the last one's record.
  return <TraderProfile key={username} username={username} />;
}

function TraderProfile({ username }: { username: string }) {
  const { session } = Route.useRouteContext();
  const me = useSelector(session, selectUser)?.username ?? '';
  const { take, dialog } = useTradePreview();
  // Each offer of the profile opens its own Trade Preview here, as on Browse Offers: the profile's chart decides
  // whether the trader may take it (offer.take).
  const bindProfile = useCallback((deps: FlowDeps) => bindTraderProfile(deps, take), [take]);
  const actor = useFlowActor(bindProfile, { input: { username } });
  return (
    <>
      <TraderProfileScreen actor={actor} currentUsername={me} />
      {dialog}
    </>
  );
}
