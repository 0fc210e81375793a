import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectUser } from '../../../machines/session/session.selectors.ts';
import { bindTraderProfile } from '../../../machines/traderProfile/traderProfile.actors.ts';
import { TraderProfileScreen } from '../../../ui/traders/TraderProfileScreen.tsx';
import { useFlowActor } from '../../-useFlow.ts';

export const Route = createFileRoute('/_app/traders/$username')({ component: TraderProfileRoute });

function TraderProfileRoute() {
  const { username } = Route.useParams();
  // Another trader's name in the URL is another profile: a fresh chart, not the last one's record.
  return <TraderProfile key={username} username={username} />;
}

function TraderProfile({ username }: { username: string }) {
  const { session } = Route.useRouteContext();
  const me = useSelector(session, selectUser)?.username ?? '';
  const actor = useFlowActor(bindTraderProfile, { input: { username } });
  return <TraderProfileScreen actor={actor} currentUsername={me} />;
}
