import { createFileRoute } from '@tanstack/react-router';
import { useActorRef } from '@xstate/react';
import { bindLogin } from '../../machines/login/login.actors.ts';
import { useFlow } from '../-useFlow.ts';
import { LoginScreen } from '../../ui/auth/LoginScreen.tsx';

export const Route = createFileRoute('/_public/login')({ component: LoginRoute });

function LoginRoute() {
  return <LoginScreen actor={useActorRef(useFlow(bindLogin))} />;
}
