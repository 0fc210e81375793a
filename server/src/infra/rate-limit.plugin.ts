import rateLimit from '@fastify/rate-limit';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import { clientAddress } from './http/client-address.ts';
import { refuse } from '../sentences.ts';
import type { Refusal } from '../refusals.ts';
import { shared } from './shared.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The shared counters' Redis connection (REDIS_URL), or undefined without one. /api/ready pings it: when the
     * counters cannot reach Redis, neither can the other processes' offer caches or realtime bus.
     */
    sharedRedis: Redis | undefined;
    /** Per-IP limit shared by every security call (one budget, not one per endpoint). */
    securityRateLimit: onRequestAsyncHookHandler;
    /**
     * Per-trader limit on opening trades (TRADE_OPENS_PER_HOUR): opening locks a seller's coins in escrow,
     * so a trader who opens and cancels in a loop is stopped. Call it in a signed-in handler, for the call
     * that opens; refuses with 429.
     */
    tradeOpenRateLimit: onRequestAsyncHookHandler;
    /** Per-trader limit on chat messages (CHAT_MESSAGES_PER_MINUTE), over all their conversations; 429. */
    chatMessageRateLimit: onRequestAsyncHookHandler;
    /**
     * Per-trader limit on marking conversations read: twice CHAT_MESSAGES_PER_MINUTE. The chat marks the open
     * conversation read as it opens and as each message written to the trader arrives in it, and a partner
     * sends at most CHAT_MESSAGES_PER_MINUTE; a script writing read marks in a loop is stopped; 429.
     */
    chatReadRateLimit: onRequestAsyncHookHandler;
    /**
     * Per-trader limit on withdrawal previews and confirms together (WITHDRAWAL_CALLS_PER_MINUTE): each reads
     * balances and addresses, and the Withdraw screen previews at most once per 500 ms pause in typing, so a
     * person stays far below it while a script testing addresses or draining an account is stopped; 429.
     */
    withdrawalRateLimit: onRequestAsyncHookHandler;
    /**
     * Per-address limit on channel authorizations: pusher-js asks once per channel per connection, so a
     * page that reconnects now and then stays far below it, and nobody can use the endpoint to probe tokens.
     */
    realtimeAuthRateLimit: onRequestAsyncHookHandler;
  }
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** Channel authorizations per client address and minute: a few tabs reconnecting with a dozen channels each. */
const REALTIME_AUTHS_PER_MINUTE = 300;
/** The longest a request waits on Redis for its count: a healthy Redis answers in well under a millisecond, and this leaves room for an event loop stalled by load (a count timed out is a count skipped). */
const COUNT_TIMEOUT_MS = 2_000;

/**
 * Tier 2: per-IP rate limits. In memory by default; with REDIS_URL the counters live in Redis so that
 * every server process behind a load balancer draws from the same budget.
 */
export const rateLimitPlugin = shared('peerex-rate-limit', async (app) => {
  let redis: Redis | undefined;
  if (app.config.redisUrl) {
    // Loaded only here, with REDIS_URL: a single process never needs it, and importing it is a tenth of a start.
    const { Redis } = await import('ioredis');
    // Fail fast at boot when Redis is unreachable instead of queueing commands forever. Later, while Redis is
    // away or stops answering, a count fails at once (no offline queue) or after COUNT_TIMEOUT_MS, never
    // holding a request for the seconds a reconnect takes.
    redis = new Redis(app.config.redisUrl, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      commandTimeout: COUNT_TIMEOUT_MS,
    });
    redis.on('error', (error: Error) => app.log.warn({ err: error }, 'rate limits: Redis unavailable; limits not counted meanwhile'));
    await redis.connect();
    const client = redis;
    app.addHook('onClose', async () => {
      await client.quit();
    });
  }

  app.decorate('sharedRedis', redis);

  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'peerex:rate-limit:' } : {}),
    // Redis down (or gone quiet) mid-flight: the request is served uncounted (fail open) rather than refused
    // (fail closed). Refusing would turn a cache outage into a whole-marketplace outage, every sign-in, trade
    // and message a 429, while what these limits guard is held elsewhere too: the ledger and its row locks
    // keep every balance, MAX_OPEN_TRADES and the seller's escrow bound what opening can lock, and the login
    // guard (login-guard.ts) counts failed passwords per account in the database. What is lost for the
    // outage is the per-address and per-trader pacing; each process logs the Redis failure as it happens.
    skipOnError: true,
  });

  app.decorate(
    'securityRateLimit',
    app.rateLimit({
      max: app.config.rateLimitPerMinute,
      timeWindow: MINUTE_MS,
      keyGenerator: (request) => `security:${clientAddress(request)}`,
      errorResponseBuilder: () => refuse.tooManyRequests(),
    }),
  );

  /**
   * A budget per trader, for signed-in handlers only: the session is there. A missing one would share one
   * budget, never pass unlimited.
   */
  const perTrader = (name: string, max: number, timeWindow: number, refusal: () => Refusal) =>
    app.rateLimit({ max, timeWindow, keyGenerator: (request) => `${name}:${request.session?.userId ?? 'unknown'}`, errorResponseBuilder: refusal });

  app.decorate('tradeOpenRateLimit', perTrader('trade-open', app.config.tradeOpensPerHour, HOUR_MS, refuse.openingTooFast));
  app.decorate('chatMessageRateLimit', perTrader('chat-message', app.config.chatMessagesPerMinute, MINUTE_MS, refuse.chattingTooFast));
  app.decorate('chatReadRateLimit', perTrader('chat-read', 2 * app.config.chatMessagesPerMinute, MINUTE_MS, refuse.tooManyRequests));
  app.decorate('withdrawalRateLimit', perTrader('withdrawal', app.config.withdrawalCallsPerMinute, MINUTE_MS, refuse.withdrawingTooFast));

  app.decorate(
    'realtimeAuthRateLimit',
    app.rateLimit({
      max: REALTIME_AUTHS_PER_MINUTE,
      timeWindow: MINUTE_MS,
      keyGenerator: (request) => `realtime-auth:${clientAddress(request)}`,
      errorResponseBuilder: () => refuse.tooManyRequests(),
    }),
  );
});
