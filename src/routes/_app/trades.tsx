import { createFileRoute } from '@tanstack/react-router';
import { useActorRef } from '@xstate/react';
import { bindTradeHistory } from '../../machines/tradeHistory/tradeHistory.actors.ts';
import { TradesScreen } from '../../ui/trades/TradesScreen.tsx';
import { useFlow } from '../-useFlow.ts';

export const Route = createFileRoute('/_app/trades')({ component: TradesRoute });

function TradesRoute() {
  return <TradesScreen actor={useActorRef(useFlow(bindTradeHistory))} />;
}
