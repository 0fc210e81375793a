import { tradesService, type TradesService } from './trades.ts';
import type { FastifyInstance } from 'fastify';
import type { JobSpec } from '../infra/jobs.ts';
import { shared } from '../infra/shared.ts';

declare module 'fastify' {
  interface FastifyInstance {
    trades: TradesService;
  }
}

/**
 * Tier 3: the trade service. Every process may sweep (paymentWindowSweep): the sweep takes each trade with
 * SKIP LOCKED and a compare-and-set, so two processes never cancel one trade twice.
 */
export const tradesPlugin = shared('peerex-trades', async (app) => {
  const trades = tradesService({
    db: app.db,
    now: app.now,
    feePercent: app.config.tradeFeePercent,
    paymentWindowMinutes: app.config.paymentWindowMinutes,
    maxOpenTrades: app.config.maxOpenTrades,
    reputationMinTradeUsd: app.config.reputationMinTradeUsd,
    publish: (channel, event, data) => app.realtime.publish(channel, event, data),
    pushOutbox: app.config.push.beams ? 'every user' : 'users with a device',
    // The change is committed: a list that cannot be told now catches up on its next fetch.
    changed: (conversation) =>
      app.chat
        .announceFacts(conversation)
        .catch((error: unknown) => app.log.error({ err: error, channel: conversation.channel }, 'conversation update not published')),
    online: (usernames) => app.realtime.online(usernames),
    completed: () => app.offersChanged(),
    announce: (rows) => app.notifications.announce(rows),
    walletChangedOf: (usernames) => app.notifications.walletChangedOf(usernames),
    counted: (outcome) => app.metrics.trade(outcome),
    confirmRelease: (who, proof) => app.confirmation.confirm(who, proof),
  });
  app.decorate('trades', trades);

});

/** The payment-window sweep, every TRADE_SWEEP_SECONDS (0: only when a test calls `app.trades.sweep()`); app.ts lists it. */
export const paymentWindowSweep = (app: FastifyInstance): JobSpec<number> => ({
  name: 'payment window sweep',
  everyMs: app.config.tradeSweepSeconds * 1000,
  tick: () => app.trades.sweep(),
  report(expired, log) {
    if (expired > 0) log.info({ expired }, 'payment window: trades cancelled');
  },
});
