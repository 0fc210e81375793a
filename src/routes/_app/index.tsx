import { createFileRoute, redirect } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { bindDashboard } from '../../machines/dashboard/dashboard.actors.ts';
import { useFlowActor } from '../-useFlow.ts';
import { selectUser } from '../../machines/session/session.selectors.ts';
import { DashboardScreen } from '../../ui/dashboard/DashboardScreen.tsx';

export const Route = createFileRoute('/_app/')({
  // An operator holds nothing and trades nothing (the dashboard's calls refuse them): their home is the console.
  beforeLoad: ({ context }) => {
    if (context.session.getSnapshot().context.user?.role === 'operator') throw redirect({ to: '/operator', replace: true });
  },
  component: DashboardRoute,
});

function DashboardRoute() {
  const { session } = Route.useRouteContext();
  const user = useSelector(session, selectUser);
  return <DashboardScreen actor={useFlowActor(bindDashboard)} username={user?.username ?? ''} />;
}
