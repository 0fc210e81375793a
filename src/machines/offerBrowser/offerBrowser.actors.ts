import { fromPromise } from 'xstate';
import { bindLivePrices } from '../livePrices/livePrices.actors.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { offerBrowserMachine } from './offerBrowser.machine.ts';

export const bindOfferBrowser = (deps: FlowDeps) =>
  offerBrowserMachine.provide({
    actors: {
      loadComponents: fromPromise(() => deps.market.offerComponents()),
      loadOffers: fromPromise(({ input }) => deps.market.listOffers(input)),
      loadPrices: fromPromise(() => deps.market.coinPrices()),
      livePrices: bindLivePrices(deps.realtime),
    },
  });
