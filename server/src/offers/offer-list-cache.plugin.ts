import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Redis } from 'ioredis';
import { createOfferListCache, type OfferListCache } from './offer-list-cache.ts';
import { shared } from '../infra/shared.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Pages of Browse Offers (the `list` answer, enveloped); see offers/offer-list-cache.ts. */
    offerListCache: OfferListCache<unknown>;
    /**
     * Something a page of Browse Offers shows has changed (call it after the write committed): drops this
     * process's pages at once and tells the other processes; resolves once Redis has the message.
     */
    offersChanged(): Promise<void>;
  }
}

/** Pages kept per process: a page is ~5 kB of JSON, so at most a few MB. */
const MAX_PAGES = 1000;
/** The Redis channel on which a process tells the others that offers changed. */
const CHANNEL = 'peerex:offers:changed';
/** The longest a write's answer waits for Redis to take its invalidation. */
const PUBLISH_WAIT_MS = 250;

/**
 * Tier 3: the offer-list cache, and with REDIS_URL its invalidation across processes (pub/sub).
 *
 * A process that writes drops its own pages at once and publishes its id on the channel; every process
 * drops its pages when another process's id arrives. While the subscription is down (Redis gone) this
 * process cannot learn of other processes' writes, so it serves every list from the database until it has
 * subscribed again, and then starts from an empty cache. Without REDIS_URL a process knows only its own
 * writes: several processes then rely on OFFER_LIST_CACHE_SECONDS alone.
 */
export const offerListCachePlugin = shared('peerex-offer-list-cache', async (app) => {
  const cache = createOfferListCache<unknown>({
    ttlMs: app.config.offerListCacheSeconds * 1000,
    maxEntries: MAX_PAGES,
    now: () => performance.now(),
  });
  app.decorate('offerListCache', cache);

  if (app.config.redisUrl && app.config.offerListCacheSeconds > 0) {
    const self = randomUUID();
    const { Redis } = await import('ioredis');
    // Subscribed by hand (autoResubscribe off): ioredis emits 'ready' before its own re-subscription, and the
    // cache may only come back on once the subscription is in place again.
    const subscriber = new Redis(app.config.redisUrl, { lazyConnect: true, autoResubscribe: false, connectionName: 'peerex-offers-subscriber' });
    // While Redis is unreachable a publish fails at once (no offline queue) or after PUBLISH_WAIT_MS, rather
    // than queueing behind a dead connection.
    const publisher = new Redis(app.config.redisUrl, {
      lazyConnect: true,
      connectionName: 'peerex-offers-publisher',
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      commandTimeout: PUBLISH_WAIT_MS,
    });
    cache.setEnabled(false);
    subscriber.on('message', (_channel: string, origin: string) => {
      if (origin !== self) cache.invalidate();
    });
    subscriber.on('close', () => cache.setEnabled(false));
    subscriber.on('error', (error: Error) => app.log.warn({ err: error }, 'offer-list cache: Redis subscription failed; lists come from the database'));
    publisher.on('error', (error: Error) => app.log.warn({ err: error }, 'offer-list cache: cannot publish an invalidation'));
    // Fails the boot when Redis is unreachable, like the rate limits do.
    await Promise.all([subscriber.connect(), publisher.connect()]);
    await subscriber.subscribe(CHANNEL);
    cache.setEnabled(true);
    // After a reconnect: subscribe again, then serve pages from memory again (setEnabled starts empty).
    subscriber.on('ready', () => {
      subscriber.subscribe(CHANNEL).then(
        () => cache.setEnabled(true),
        (error: unknown) => app.log.warn({ err: error }, 'offer-list cache: cannot subscribe again; lists come from the database'),
      );
    });
    app.decorate('offersChanged', async () => {
      cache.invalidate();
      // The writer's answer waits until Redis has taken the message (at most PUBLISH_WAIT_MS), so by the time
      // the trader sees "Offer published" every other process is being told; it cannot make the other
      // process read its subscription before the trader's next request, which may win by a moment.
      const published = publisher.publish(CHANNEL, self).then(
        () => undefined,
        (error: unknown) => {
          // Other processes keep their pages until their TTL (OFFER_LIST_CACHE_SECONDS) runs out.
          app.log.warn({ err: error }, 'offer-list cache: invalidation not published');
        },
      );
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([published, new Promise<void>((resolve) => (timer = setTimeout(resolve, PUBLISH_WAIT_MS)))]);
      clearTimeout(timer);
    });
    app.addHook('onClose', async () => {
      // QUIT needs a live connection; one that Redis dropped (and is still reconnecting) is just closed.
      const close = (client: Redis) => client.quit().then(() => undefined, () => client.disconnect());
      await Promise.all([close(subscriber), close(publisher)]);
    });
  } else {
    app.decorate('offersChanged', async () => cache.invalidate());
  }
});
