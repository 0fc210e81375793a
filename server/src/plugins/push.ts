import { shared } from './shared.ts';

/** Web push: the Beams-compatible device API's keys and the worker that empties the push outbox. */
export interface PushService {
  /** Asks the delivery worker for a round soon: a producer just committed an outbox row. */
  kick(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    push: PushService;
  }
}

/** Tier 3: after realtime, so `app.notifications.announce` can wake the worker. */
export const pushPlugin = shared('peerex-push', async (app) => {
  app.decorate('push', {
    kick() {},
  } satisfies PushService);
});
