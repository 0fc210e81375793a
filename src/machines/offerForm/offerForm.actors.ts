import { fromPromise } from 'xstate';
import type { FlowDeps } from '../shared/deps.ts';
import { formRules } from '../shared/rules.ts';
import { offerFormMachine } from './offerForm.machine.ts';

/** The offer form's chart with its conditions' rule: what every use of it, tests included, starts from. */
export const offerFormLogic = offerFormMachine.provide({ guards: formRules });

export const bindOfferForm = (deps: FlowDeps) =>
  offerFormLogic.provide({
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
