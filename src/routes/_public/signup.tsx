import { createFileRoute } from '@tanstack/react-router';
import { bindSignup } from '../../machines/signup/signup.actors.ts';
import { useFlowActor } from '../-useFlow.ts';
import { SignupScreen } from '../../ui/auth/SignupScreen.tsx';

export const Route = createFileRoute('/_public/signup')({ component: SignupRoute });

function SignupRoute() {
  return <SignupScreen actor={useFlowActor(bindSignup)} />;
}
