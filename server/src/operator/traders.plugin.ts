import { operatorTradersService, type OperatorTradersService } from './operator-traders.ts';
import { shared } from '../infra/shared.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The operator console's traders: search, a trader's page, notes, suspension, forced reset, ended sessions. */
    operatorTraders: OperatorTradersService;
  }
}

/** Tier 3, after the offers (a suspension pauses a trader's offers and drops Browse Offers' cached pages). */
export const operatorTradersPlugin = shared('peerex-operator-traders', async (app) => {
  app.decorate(
    'operatorTraders',
    operatorTradersService({
      db: app.db,
      now: app.now,
      sessionIdleDays: app.config.sessionIdleDays,
      passwords: app.passwords,
      mailer: app.mailer,
      sessions: app.sessions,
      offersChanged: () => app.offersChanged(),
    }),
  );
});
