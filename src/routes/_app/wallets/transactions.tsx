import { createFileRoute } from '@tanstack/react-router';
import { bindWalletHistory } from '../../../machines/walletHistory/walletHistory.actors.ts';
import { TransactionsScreen } from '../../../ui/wallets/TransactionsScreen.tsx';
import { useFlowActor } from '../../-useFlow.ts';

export const Route = createFileRoute('/_app/wallets/transactions')({ component: TransactionsRoute });

function TransactionsRoute() {
  return <TransactionsScreen actor={useFlowActor(bindWalletHistory)} />;
}
