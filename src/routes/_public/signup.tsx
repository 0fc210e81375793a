import { createFileRoute } from '@tanstack/react-router';
import { useActorRef } from '@xstate/react';
import { SignupScreen } from '../../ui/auth/SignupScreen.tsx';

export const Route = createFileRoute('/_public/signup')({ component: SignupRoute });

function SignupRoute() {
  const { flows } = Route.useRouteContext();
  return <SignupScreen actor={useActorRef(flows.signup)} />;
}
