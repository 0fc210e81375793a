import { fromPromise } from 'xstate';
import type { OfferListItem } from '../../../contracts/index.ts';
import { bindLivePrices } from '../livePrices/livePrices.actors.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { offerRules } from '../shared/rules.ts';
import { offerBrowserMachine } from './offerBrowser.machine.ts';

/** Browse Offers' chart with the rule of offers' conditions: what every use of it, tests included, starts from. */
export const offerBrowserLogic = offerBrowserMachine.provide({ guards: offerRules });

/** `takeOffer` opens the Trade Preview dialog, which lives beside the list in the route. */
export const bindOfferBrowser = (deps: FlowDeps, takeOffer: (offer: OfferListItem) => void) =>
  offerBrowserLogic.provide({
    actors: {
      loadComponents: fromPromise(() => deps.market.offerComponents()),
      loadOffers: fromPromise(({ input }) => deps.market.listOffers(input)),
      loadPrices: fromPromise(() => deps.market.coinPrices()),
      loadStanding: fromPromise(() => deps.traders.standing()),
      livePrices: bindLivePrices(deps.realtime),
    },
    actions: { takeOffer: (_, { offer }) => takeOffer(offer) },
  });
