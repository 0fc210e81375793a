import { createFileRoute } from '@tanstack/react-router';
import { useActorRef } from '@xstate/react';
import { bindSignup } from '../../machines/signup/signup.actors.ts';
import { useFlow } from '../-useFlow.ts';
import { SignupScreen } from '../../ui/auth/SignupScreen.tsx';

export const Route = createFileRoute('/_public/signup')({ component: SignupRoute });

function SignupRoute() {
  return <SignupScreen actor={useActorRef(useFlow(bindSignup))} />;
}
