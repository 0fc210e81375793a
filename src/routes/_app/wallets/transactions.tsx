import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectUser } from '../../../machines/session/session.selectors.ts';
import { bindWalletHistory } from '../../../machines/walletHistory/walletHistory.actors.ts';
import { TransactionsScreen } from '../../../ui/wallets/TransactionsScreen.tsx';
import { useFlowActor } from '../../-useFlow.ts';

export const Route = createFileRoute('/_app/wallets/transactions')({ component: TransactionsRoute });

function TransactionsRoute() {
  const { session } = Route.useRouteContext();
  const username = useSelector(session, selectUser)?.username ?? '';
  return <TransactionsScreen actor={useFlowActor(bindWalletHistory, { input: { username } })} />;
}
