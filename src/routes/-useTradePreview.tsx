import { useCallback } from 'react';
import type { OfferListItem } from '../../contracts/index.ts';
import { bindTradeDialog } from '../machines/tradeDialog/tradeDialog.actors.ts';
import { useLoadedLater } from '../ui/primitives/useLoadedLater.ts';
import { useFlowActor } from './-useFlow.ts';

/**
 * The trade dialog's screen is fetched once the page has been drawn, not with it: a page of offers shows offers
 * first, and a trade starts only when one is picked (then after the screen is here, if it was not yet).
 */
const loadTradeDialog = () => import('../ui/trades/TradeDialog.tsx').then((module) => module.TradeDialog);

/**
 * The Trade Preview dialog beside a page of offers (Browse Offers, a trader's profile): `take` opens it on an offer,
 * as the page's chart decides (its `offer.take`); `dialog` is the dialog to draw beside the page.
 */
export function useTradePreview() {
  const actor = useFlowActor(bindTradeDialog);
  const { View, ready } = useLoadedLater(loadTradeDialog);
  const take = useCallback((offer: OfferListItem) => void ready().then(() => actor.send({ type: 'dialog.open', offer })), [actor, ready]);
  return { take, dialog: View ? <View actor={actor} /> : null };
}
