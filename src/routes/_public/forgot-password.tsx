import { createFileRoute } from '@tanstack/react-router';
import { useActorRef } from '@xstate/react';
import { ForgotPasswordScreen } from '../../ui/auth/ForgotPasswordScreen.tsx';

export const Route = createFileRoute('/_public/forgot-password')({ component: ForgotPasswordRoute });

function ForgotPasswordRoute() {
  const { flows } = Route.useRouteContext();
  return <ForgotPasswordScreen actor={useActorRef(flows.passwordReset)} />;
}
