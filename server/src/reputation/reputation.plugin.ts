import { reputationService, type ReputationService } from './reputation.ts';
import { shared } from '../infra/shared.ts';

declare module 'fastify' {
  interface FastifyInstance {
    reputation: ReputationService;
  }
}

/** Tier 3: ratings and trader profiles (after the chat, which republishes conversations, and the offer-list cache). */
export const reputationPlugin = shared('peerex-reputation', async (app) => {
  app.decorate(
    'reputation',
    reputationService({
      db: app.db,
      now: app.now,
      // The rating is committed: a list that cannot be told now catches up on its next fetch.
      changed: (channel) =>
        app.chat.announce(channel).catch((error: unknown) => app.log.error({ err: error, channel }, 'conversation update not published')),
      ratingsChanged: () => app.offersChanged(),
    }),
  );
});
