import { OPERATORS_CHANNEL, operatorEvents } from '../../../contracts/operator.ts';
import { shared } from '../infra/shared.ts';
import { operatorReview, type OperatorReview } from './operator-review.ts';

declare module 'fastify' {
  interface FastifyInstance {
    withdrawalReview: OperatorReview;
  }
}

/** Tier 3: withdrawal review (POST /api/operator/withdrawals/), after the chain it hands approved withdrawals to. */
export const operatorReviewPlugin = shared('peerex-operator-review', async (app) => {
  app.decorate(
    'withdrawalReview',
    operatorReview({
      db: app.db,
      now: app.now,
      thresholdUsd: app.config.withdrawalReviewUsd,
      announce: (rows) => app.notifications.announce(rows),
      walletChanged: (userIds) => app.notifications.walletChanged(userIds),
      dispatched: () => app.chain.kick(),
      queueChanged: () => app.realtime.publish(OPERATORS_CHANNEL, operatorEvents.reviews, {}),
    }),
  );
});
