import { fromPromise } from 'xstate';
import type { OfferListItem } from '../../../contracts/index.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { offerRules } from '../shared/rules.ts';
import { traderProfileMachine } from './traderProfile.machine.ts';

/** The profile's chart with the rule of offers' conditions: what every use of it, tests included, starts from. */
export const traderProfileLogic = traderProfileMachine.provide({ guards: offerRules });

/** `takeOffer` opens that offer's Trade Preview dialog, which lives beside the profile in the route. */
export const bindTraderProfile = (deps: FlowDeps, takeOffer: (offer: OfferListItem) => void) =>
  traderProfileLogic.provide({
    actors: {
      loadProfile: fromPromise(({ input }) => deps.traders.profile(input)),
      loadStanding: fromPromise(() => deps.traders.standing()),
    },
    actions: { takeOffer: (_, { offer }) => takeOffer(offer) },
  });
