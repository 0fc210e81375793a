import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { bindOfferBrowser } from '../../../machines/offerBrowser/offerBrowser.actors.ts';
import { selectUser } from '../../../machines/session/session.selectors.ts';
import { bindTradeDialog } from '../../../machines/tradeDialog/tradeDialog.actors.ts';
import type { OfferListItem } from '../../../../contracts/index.ts';
import { OffersScreen } from '../../../ui/offers/OffersScreen.tsx';
import { useLoadedLater } from '../../../ui/primitives/useLoadedLater.ts';
import { useFlowActor } from '../../-useFlow.ts';

export const Route = createFileRoute('/_app/offers/')({ component: OffersRoute });

/**
 * The trade dialog's screen is fetched once the list has been drawn, not with it: Browse Offers shows offers first,
 * and a trade starts only when one is picked (then after the screen is here, if it was not yet).
 */
const loadTradeDialog = () => import('../../../ui/trades/TradeDialog.tsx').then((module) => module.TradeDialog);

function OffersRoute() {
  const { session } = Route.useRouteContext();
  const user = useSelector(session, selectUser);
  const browser = useFlowActor(bindOfferBrowser);
  const dialog = useFlowActor(bindTradeDialog);
  const tradeDialog = useLoadedLater(loadTradeDialog);
  const trade = (offer: OfferListItem) => void tradeDialog.ready().then(() => dialog.send({ type: 'dialog.open', offer }));
  return (
    <>
      <OffersScreen actor={browser} username={user?.username ?? ''} onTrade={trade} />
      {tradeDialog.View ? <tradeDialog.View actor={dialog} /> : null}
    </>
  );
}
