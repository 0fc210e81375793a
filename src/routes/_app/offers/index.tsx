import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { bindOfferBrowser } from '../../../machines/offerBrowser/offerBrowser.actors.ts';
import { selectUser } from '../../../machines/session/session.selectors.ts';
import { bindTradeDialog } from '../../../machines/tradeDialog/tradeDialog.actors.ts';
import type { OfferListItem } from '../../../../contracts/index.ts';
import { OffersScreen } from '../../../ui/offers/OffersScreen.tsx';
import { useFlowActor } from '../../-useFlow.ts';

export const Route = createFileRoute('/_app/offers/')({ component: OffersRoute });

type TradeDialogView = typeof import('../../../ui/trades/TradeDialog.tsx').TradeDialog;

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
  const [TradeDialog, setTradeDialog] = useState<TradeDialogView | null>(null);
  const showTradeDialog = () => loadTradeDialog().then((view) => setTradeDialog(() => view));
  useEffect(() => void showTradeDialog(), []);
  const trade = (offer: OfferListItem) => void showTradeDialog().then(() => dialog.send({ type: 'dialog.open', offer }));
  return (
    <>
      <OffersScreen actor={browser} username={user?.username ?? ''} onTrade={trade} />
      {TradeDialog ? <TradeDialog actor={dialog} /> : null}
    </>
  );
}
