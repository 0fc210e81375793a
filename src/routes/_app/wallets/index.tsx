import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectUser } from '../../../machines/session/session.selectors.ts';
import { bindWallets } from '../../../machines/wallets/wallets.actors.ts';
import { WalletsScreen } from '../../../ui/wallets/WalletsScreen.tsx';
import { useFlowActor } from '../../-useFlow.ts';

export const Route = createFileRoute('/_app/wallets/')({ component: WalletsRoute });

function WalletsRoute() {
  const { session } = Route.useRouteContext();
  const username = useSelector(session, selectUser)?.username ?? '';
  return <WalletsScreen actor={useFlowActor(bindWallets, { input: { username } })} />;
}
