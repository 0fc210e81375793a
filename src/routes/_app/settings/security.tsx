import { createFileRoute } from '@tanstack/react-router';
import { useActorRef } from '@xstate/react';
import { SecurityScreen } from '../../../ui/auth/SecurityScreen.tsx';

export const Route = createFileRoute('/_app/settings/security')({ component: SecurityRoute });

function SecurityRoute() {
  const { flows } = Route.useRouteContext();
  return <SecurityScreen actor={useActorRef(flows.twoFactor)} />;
}
