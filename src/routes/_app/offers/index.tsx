import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { bindOfferBrowser } from '../../../machines/offerBrowser/offerBrowser.actors.ts';
import { selectUser } from '../../../machines/session/session.selectors.ts';
import { bindTradeDialog } from '../../../machines/tradeDialog/tradeDialog.actors.ts';
import { OffersScreen } from '../../../ui/offers/OffersScreen.tsx';
import { TradeDialog } from '../../../ui/trades/TradeDialog.tsx';
import { useFlowActor } from '../../-useFlow.ts';

export const Route = createFileRoute('/_app/offers/')({ component: OffersRoute });

function OffersRoute() {
  const { session } = Route.useRouteContext();
  const user = useSelector(session, selectUser);
  const browser = useFlowActor(bindOfferBrowser);
  const dialog = useFlowActor(bindTradeDialog);
  return (
    <>
      <OffersScreen
        actor={browser}
        username={user?.username ?? ''}
        onTrade={(offer) => dialog.send({ type: 'dialog.open', offer })}
      />
      <TradeDialog actor={dialog} />
    </>
  );
}
