import { shared } from './shared.ts';

/** One event on one channel, as the realtime server (issue 5) will send it to the channel's subscribers. */
export interface RealtimeEvent {
  channel: string;
  event: string;
  data: unknown;
}

export type RealtimeListener = (event: RealtimeEvent) => void;

/**
 * The seam between what happens (a trade action, a price tick) and whoever delivers it. Today it hands
 * each event to in-process listeners (tests, and later the websocket server); issue 5 adds the Pusher
 * protocol server and, with REDIS_URL, fan-out across processes behind this same `publish`. Callers
 * publish only after their transaction committed, so nobody is told of something that then rolled back.
 */
export interface Realtime {
  publish(channel: string, event: string, data: unknown): void;
  /** Returns the unsubscribe. */
  subscribe(listener: RealtimeListener): () => void;
}

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

/** Tier 3: the in-process publisher. */
export const realtimePlugin = shared('peerex-realtime', async (app) => {
  const listeners = new Set<RealtimeListener>();
  app.decorate('realtime', {
    publish(channel, event, data) {
      for (const listener of listeners) {
        try {
          listener({ channel, event, data });
        } catch (error) {
          // A broken subscriber must not fail the request that already committed its change.
          app.log.error({ err: error, channel, event }, 'realtime listener failed');
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } satisfies Realtime);
});
