import { offerDesk, type OfferDesk } from './offers.ts';
import { shared } from '../infra/shared.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The market/offers/ and base/coins/ calls' service: the offer rules, and after every write `offersChanged`. */
    offers: OfferDesk;
  }
}

/** Tier 3, after the offer list cache whose `offersChanged` every offer write calls. */
export const offersPlugin = shared('peerex-offers', async (app) => {
  app.decorate('offers', offerDesk(app.db, () => app.offersChanged()));
});
