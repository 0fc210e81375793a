import { createFileRoute } from '@tanstack/react-router';
import { bindTradeHistory } from '../../machines/tradeHistory/tradeHistory.actors.ts';
import { TradesScreen } from '../../ui/trades/TradesScreen.tsx';
import { useFlowActor } from '../-useFlow.ts';

export const Route = createFileRoute('/_app/trades')({ component: TradesRoute });

function TradesRoute() {
  return <TradesScreen actor={useFlowActor(bindTradeHistory)} />;
}
