import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { createOfferListCache, type OfferListCache } from '../market/offer-list-cache.ts';
import { shared } from './shared.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Pages of Browse Offers (the `list` answer, enveloped); see market/offer-list-cache.ts. */
    offerListCache: OfferListCache<unknown>;
    /** Something a page of Browse Offers shows has changed: drop the pages of every process. */
    offersChanged(): void;
  }
}

/** Pages kept per process: a page is ~5 kB of JSON, so at most a few MB. */
const MAX_PAGES = 1000;
/** The Redis channel on which a process tells the others that offers changed. */
const CHANNEL = 'peerex:offers:changed';

/**
 * Tier 3: the offer-list cache, and with REDIS_URL its invalidation across processes (pub/sub).
 *
 * A process that writes drops its own pages at once and publishes its id on the channel; every process
 * drops its pages when another process's id arrives. While the subscription is down (Redis gone, or not
 * yet connected) this process cannot learn of other processes' writes, so it serves every list from the
 * database until the subscription is back, and then starts from an empty cache.
 */
export const offerListCachePlugin = shared('peerex-offer-list-cache', async (app) => {
  const cache = createOfferListCache<unknown>({
    ttlMs: app.config.offerListCacheSeconds * 1000,
    maxEntries: MAX_PAGES,
    now: () => performance.now(),
  });
  app.decorate('offerListCache', cache);

  let publisher: Redis | undefined;
  if (app.config.redisUrl && app.config.offerListCacheSeconds > 0) {
    const self = randomUUID();
    const subscriber = new Redis(app.config.redisUrl, { lazyConnect: true });
    publisher = new Redis(app.config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    cache.setEnabled(false);
    subscriber.on('message', (_channel: string, origin: string) => {
      if (origin !== self) cache.invalidate();
    });
    // ioredis re-subscribes by itself after a reconnect; 'ready' follows the re-subscription.
    subscriber.on('ready', () => cache.setEnabled(true));
    subscriber.on('close', () => cache.setEnabled(false));
    subscriber.on('error', (error: Error) => app.log.warn({ err: error }, 'offer-list cache: Redis subscription failed; lists come from the database'));
    await Promise.all([subscriber.connect(), publisher.connect()]);
    await subscriber.subscribe(CHANNEL);
    cache.setEnabled(true);
    const publisherClient = publisher;
    publisherClient.on('error', (error: Error) => app.log.warn({ err: error }, 'offer-list cache: cannot publish an invalidation'));
    app.decorate('offersChanged', () => {
      cache.invalidate();
      publisherClient.publish(CHANNEL, self).catch((error: unknown) => {
        // Other processes keep their pages until their TTL (OFFER_LIST_CACHE_SECONDS) runs out.
        app.log.warn({ err: error }, 'offer-list cache: invalidation not published');
      });
    });
    app.addHook('onClose', async () => {
      await Promise.all([subscriber.quit(), publisherClient.quit()]);
    });
  } else {
    app.decorate('offersChanged', () => cache.invalidate());
  }
});
