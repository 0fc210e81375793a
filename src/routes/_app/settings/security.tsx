import { createFileRoute } from '@tanstack/react-router';
import { useActorRef } from '@xstate/react';
import { bindTwoFactor } from '../../../machines/twoFactor/twoFactor.actors.ts';
import { useFlow } from '../../-useFlow.ts';
import { SecurityScreen } from '../../../ui/auth/SecurityScreen.tsx';

export const Route = createFileRoute('/_app/settings/security')({ component: SecurityRoute });

function SecurityRoute() {
  return <SecurityScreen actor={useActorRef(useFlow(bindTwoFactor))} />;
}
