import { createFileRoute } from '@tanstack/react-router';
import { bindWithdrawal } from '../../../machines/withdrawal/withdrawal.actors.ts';
import { WithdrawScreen } from '../../../ui/wallets/WithdrawScreen.tsx';
import { useFlowActor } from '../../-useFlow.ts';

export const Route = createFileRoute('/_app/wallets/withdraw')({ component: WithdrawRoute });

function WithdrawRoute() {
  return <WithdrawScreen actor={useFlowActor(bindWithdrawal)} />;
}
