import { notificationsService, type NotificationsService } from './notifications.ts';
import { shared } from '../infra/shared.ts';

declare module 'fastify' {
  interface FastifyInstance {
    notifications: NotificationsService;
  }
}

/**
 * Tier 3: the bell, after realtime and push, which `announce` publishes through and wakes. Producers
 * registered earlier (accounts) reach it at call time, once the app is ready.
 */
export const notificationsPlugin = shared('peerex-notifications', async (app) => {
  app.decorate(
    'notifications',
    notificationsService({
      db: app.db,
      publish: (channel, event, data) => app.realtime.publish(channel, event, data),
      kick: () => app.push.kick(),
      log: app.log,
    }),
  );
});
