import type { SnapshotFrom } from 'xstate';
import type { OfferListItem } from '../../../contracts/index.ts';
import { multiplyDecimals } from '../../../domain/decimal.ts';
import type { PriceDirection } from '../livePrices/livePrices.machine.ts';
import { livePricesOf, type LivePrices } from '../livePrices/livePrices.selectors.ts';
import { takeRefusals } from '../shared/rules.ts';
import type { offerBrowserMachine } from './offerBrowser.machine.ts';

type OfferBrowserSnapshot = SnapshotFrom<typeof offerBrowserMachine>;

export const selectShowFilters = (snapshot: OfferBrowserSnapshot) => snapshot.matches({ components: 'ready' });
export const selectComponents = (snapshot: OfferBrowserSnapshot) => snapshot.context.components;
export const selectFilters = (snapshot: OfferBrowserSnapshot) => snapshot.context.filters;
export const selectOffers = (snapshot: OfferBrowserSnapshot) => snapshot.context.offers;
export const selectIsLoading = (snapshot: OfferBrowserSnapshot) => snapshot.hasTag('busy');
export const selectHasLoaded = (snapshot: OfferBrowserSnapshot) => snapshot.context.paginator !== null;
export const selectCanNext = (snapshot: OfferBrowserSnapshot) => snapshot.can({ type: 'page.next' });
export const selectCanPrevious = (snapshot: OfferBrowserSnapshot) => snapshot.can({ type: 'page.previous' });
/** The trader's own standing, once it has loaded (null before, or when it could not load). */
export const selectStanding = (snapshot: OfferBrowserSnapshot) => snapshot.context.standing;

/** For each offer of the page the trader may not take, why (shared/rules.ts `takeRefusals`). */
export const selectTakeRefusals = (snapshot: OfferBrowserSnapshot): ReadonlyMap<number, string> =>
  takeRefusals(snapshot.context.offers, snapshot.context.standing, (offer) => snapshot.can({ type: 'offer.take', offer }));

/** The live prices of the coins, once their starting prices have loaded. */
export const selectLivePrices = (snapshot: OfferBrowserSnapshot) => livePricesOf(snapshot);

/**
 * An offer's coin at its live USD price, in the offer's currency at the offer's rate (fiat per 1 USD): the
 * exact product, and the price's last move; null while the coin's price is unknown.
 */
export function offerCoinPrice(
  offer: Pick<OfferListItem, 'coin__ticker' | 'rate'>,
  prices: LivePrices | undefined,
): { amount: string; direction: PriceDirection | null } | null {
  const live = prices?.[offer.coin__ticker];
  return live ? { amount: multiplyDecimals(offer.rate, live.price), direction: live.direction } : null;
}
