import { createFileRoute } from '@tanstack/react-router';
import { useActorRef } from '@xstate/react';
import { LoginScreen } from '../../ui/auth/LoginScreen.tsx';

export const Route = createFileRoute('/_public/login')({ component: LoginRoute });

function LoginRoute() {
  const { flows } = Route.useRouteContext();
  return <LoginScreen actor={useActorRef(flows.login)} />;
}
