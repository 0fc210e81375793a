import type { FastifyInstance } from 'fastify';
import type { JobSpec } from '../infra/jobs.ts';
import { shared } from '../infra/shared.ts';
import { operatorOverviewService, type OperatorOverviewService } from './overview.ts';

declare module 'fastify' {
  interface FastifyInstance {
    operatorOverview: OperatorOverviewService;
  }
}

/** How often the live job looks for a changed number (docs/operators.md "The overview"). */
export const OVERVIEW_LIVE_MS = 5_000;
/** How often the holdings are read again: every deposit address's balance, from each EVM network's node. */
export const OVERVIEW_HOLDINGS_MS = 60_000;

/** Tier 3: the operator's overview (after the chain: it reads the chain's progress). */
export const operatorOverviewPlugin = shared('peerex-operator-overview', async (app) => {
  app.decorate(
    'operatorOverview',
    operatorOverviewService({
      db: app.db,
      progress: (network) => app.chain.progress(network),
      evmNetworks: app.config.evmNetworks,
      now: app.now,
      reviewThresholdUsd: app.config.withdrawalReviewUsd,
      publish: (channel, event, data) => app.realtime.publish(channel, event, data),
      log: app.log,
    }),
  );
});

/**
 * The overview's two jobs (app.ts lists them): the live one publishes the overview to the operators when a number
 * changed; the holdings one reads what the chains hold. Off with NODE_ENV=test, where tests tick them by hand.
 */
export const overviewLiveJob = (app: FastifyInstance): JobSpec<boolean> => ({
  name: 'operator overview',
  everyMs: app.config.nodeEnv === 'test' ? 0 : OVERVIEW_LIVE_MS,
  tick: () => app.operatorOverview.tick(),
});

export const overviewHoldingsJob = (app: FastifyInstance): JobSpec<void> => ({
  name: 'operator overview holdings',
  everyMs: app.config.nodeEnv === 'test' ? 0 : OVERVIEW_HOLDINGS_MS,
  tick: () => app.operatorOverview.refreshHoldings(),
});
