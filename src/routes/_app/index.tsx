import { createFileRoute } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { selectUser } from '../../machines/session/session.selectors.ts';
import { DashboardScreen } from '../../ui/dashboard/DashboardScreen.tsx';

export const Route = createFileRoute('/_app/')({ component: DashboardRoute });

function DashboardRoute() {
  const { flows, session } = Route.useRouteContext();
  const user = useSelector(session, selectUser);
  return <DashboardScreen actor={useActorRef(flows.dashboard)} username={user?.username ?? ''} />;
}
