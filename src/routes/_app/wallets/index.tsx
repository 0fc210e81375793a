import { createFileRoute } from '@tanstack/react-router';
import { bindWallets } from '../../../machines/wallets/wallets.actors.ts';
import { WalletsScreen } from '../../../ui/wallets/WalletsScreen.tsx';
import { useFlowActor } from '../../-useFlow.ts';

export const Route = createFileRoute('/_app/wallets/')({ component: WalletsRoute });

function WalletsRoute() {
  return <WalletsScreen actor={useFlowActor(bindWallets)} />;
}
