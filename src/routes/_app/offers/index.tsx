import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useCallback } from 'react';
import { bindOfferBrowser } from '../../../machines/offerBrowser/offerBrowser.actors.ts';
import type { FlowDeps } from '../../../machines/shared/deps.ts';
import { selectUser } from '../../../machines/session/session.selectors.ts';
import { bindTradeDialog } from '../../../machines/tradeDialog/tradeDialog.actors.ts';
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
  const dialog = useFlowActor(bindTradeDialog);
  const tradeDialog = useLoadedLater(loadTradeDialog);
  const { ready } = tradeDialog;
  // The list's chart decides whether an offer may be taken (offer.take); taking it opens the dialog beside it.
  const bindBrowser = useCallback(
    (deps: FlowDeps) => bindOfferBrowser(deps, (offer) => void ready().then(() => dialog.send({ type: 'dialog.open', offer }))),
    [dialog, ready],
  );
  const browser = useFlowActor(bindBrowser);
  return (
    <>
      <OffersScreen actor={browser} username={user?.username ?? ''} />
      {tradeDialog.View ? <tradeDialog.View actor={dialog} /> : null}
    </>
  );
}
