import { createFileRoute } from '@tanstack/react-router';
import { bindPasswordReset } from '../../machines/passwordReset/passwordReset.actors.ts';
import { useFlowActor } from '../-useFlow.ts';
import { ForgotPasswordScreen } from '../../ui/auth/ForgotPasswordScreen.tsx';

export const Route = createFileRoute('/_public/forgot-password')({ component: ForgotPasswordRoute });

function ForgotPasswordRoute() {
  return <ForgotPasswordScreen actor={useFlowActor(bindPasswordReset)} />;
}
