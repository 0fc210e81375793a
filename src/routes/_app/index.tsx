import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { bindDashboard } from '../../machines/dashboard/dashboard.actors.ts';
import { useFlowActor } from '../-useFlow.ts';
import { selectUser } from '../../machines/session/session.selectors.ts';
import { DashboardScreen } from '../../ui/dashboard/DashboardScreen.tsx';

export const Route = createFileRoute('/_app/')({ component: DashboardRoute });

function DashboardRoute() {
  const { session } = Route.useRouteContext();
  const user = useSelector(session, selectUser);
  const username = user?.username ?? '';
  return <DashboardScreen actor={useFlowActor(bindDashboard, { input: { username } })} username={username} />;
}
