import { createFileRoute } from '@tanstack/react-router';
import { useActorRef } from '@xstate/react';
import { bindWithdrawal } from '../../../machines/withdrawal/withdrawal.actors.ts';
import { WithdrawScreen } from '../../../ui/wallets/WithdrawScreen.tsx';
import { useFlow } from '../../-useFlow.ts';

export const Route = createFileRoute('/_app/wallets/withdraw')({ component: WithdrawRoute });

function WithdrawRoute() {
  return <WithdrawScreen actor={useActorRef(useFlow(bindWithdrawal))} />;
}
