import { fromPromise } from 'xstate';
import type { FlowDeps } from '../shared/deps.ts';
import { offerFormMachine } from './offerForm.machine.ts';

export const bindOfferForm = (deps: FlowDeps) =>
  offerFormMachine.provide({
    actors: {
      loadComponents: fromPromise(() => deps.market.offerComponents({ forForm: true })),
      loadOffer: fromPromise(({ input }) => deps.market.getOffer(input)),
      saveOffer: fromPromise(({ input }) => deps.market.saveOffer(input)),
      toggleOffer: fromPromise(({ input }) => deps.market.toggleOffer(input)),
    },
    actions: {
      notify: (_, params) => deps.notify(params),
      goToOffers: () => deps.navigate('/offers'),
    },
  });
