import { createFileRoute } from '@tanstack/react-router';
import { bindLogin } from '../../machines/login/login.actors.ts';
import { useFlowActor } from '../-useFlow.ts';
import { RETURN_TO_PARAM, returnTo } from '../-returnTo.ts';
import { LoginScreen } from '../../ui/auth/LoginScreen.tsx';

export const Route = createFileRoute('/_public/login')({
  // The page a guard sent the visitor here from; _public returns them there once signed in.
  validateSearch: (search: Record<string, unknown>): { redirect?: string } => {
    const asked = returnTo(search[RETURN_TO_PARAM]);
    return asked ? { redirect: asked } : {};
  },
  component: LoginRoute,
});

function LoginRoute() {
  return <LoginScreen actor={useFlowActor(bindLogin)} />;
}
