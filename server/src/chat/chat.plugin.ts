import { chatService, type ChatService } from './chat.ts';
import { shared } from '../infra/shared.ts';

declare module 'fastify' {
  interface FastifyInstance {
    chat: ChatService;
  }
}

/** Tier 3: the trade chat (after realtime: it publishes and asks who is online). */
export const chatPlugin = shared('peerex-chat', async (app) => {
  app.decorate(
    'chat',
    chatService({
      db: app.db,
      now: app.now,
      paymentWindowMinutes: app.config.paymentWindowMinutes,
      publish: (channel, event, data) => app.realtime.publish(channel, event, data),
      online: (usernames) => app.realtime.online(usernames),
      announce: (rows) => app.notifications.announce(rows),
    }),
  );
});
