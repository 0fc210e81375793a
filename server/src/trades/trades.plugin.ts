import { tradesService, type TradesService } from './trades.ts';
import { shared } from '../infra/shared.ts';

declare module 'fastify' {
  interface FastifyInstance {
    trades: TradesService;
  }
}

/**
 * Tier 3: the trade service, and the payment-window sweep every TRADE_SWEEP_SECONDS (0: only when a test
 * calls `app.trades.sweep()`). Every process may sweep: the sweep takes each trade with SKIP LOCKED and
 * a compare-and-set, so two processes never cancel one trade twice.
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
    // The change is committed: a list that cannot be told now catches up on its next fetch.
    changed: (channel) =>
      app.chat.announce(channel).catch((error: unknown) => app.log.error({ err: error, channel }, 'conversation update not published')),
    online: (usernames) => app.realtime.online(usernames),
    completed: () => app.offersChanged(),
    announce: (rows) => app.notifications.announce(rows),
    confirmRelease: (who, proof) => app.confirmation.confirm(who, proof),
  });
  app.decorate('trades', trades);

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  const intervalMs = app.config.tradeSweepSeconds * 1000;
  if (intervalMs > 0) {
    app.addHook('onReady', async () => {
      timer = setInterval(() => {
        // A sweep slower than the interval (a huge backlog) makes the next one skip, not pile up.
        if (busy) return;
        busy = true;
        running = trades
          .sweep()
          .then((expired) => {
            if (expired > 0) app.log.info({ expired }, 'payment window: trades cancelled');
          })
          .catch((error: unknown) => app.log.error({ err: error }, 'payment window sweep failed'))
          .finally(() => {
            busy = false;
          });
      }, intervalMs);
      // The sweep alone must not keep a process alive that is otherwise done.
      timer.unref();
    });
  }
  // preClose runs before the database closes, so a sweep in flight finishes against an open database.
  app.addHook('preClose', async () => {
    clearInterval(timer);
    await running;
  });
});
