import { moderationService, type ModerationService } from './moderation.ts';
import { shared } from '../infra/shared.ts';

declare module 'fastify' {
  interface FastifyInstance {
    moderation: ModerationService;
  }
}

/** Tier 3: the dispute desk (after trades and chat: it settles through the one and writes through the other). */
export const moderationPlugin = shared('peerex-moderation', async (app) => {
  app.decorate(
    'moderation',
    moderationService({ db: app.db, paymentWindowMinutes: app.config.paymentWindowMinutes, trades: app.trades, chat: app.chat }),
  );
});
