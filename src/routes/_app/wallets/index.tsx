import { createFileRoute } from '@tanstack/react-router';
import { useActorRef } from '@xstate/react';
import { bindWallets } from '../../../machines/wallets/wallets.actors.ts';
import { WalletsScreen } from '../../../ui/wallets/WalletsScreen.tsx';
import { useFlow } from '../../-useFlow.ts';

export const Route = createFileRoute('/_app/wallets/')({ component: WalletsRoute });

function WalletsRoute() {
  return <WalletsScreen actor={useActorRef(useFlow(bindWallets))} />;
}
