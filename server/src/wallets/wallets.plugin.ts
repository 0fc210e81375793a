import { depositAddresses, type DepositAddresses } from './addresses.ts';
import { transactionHistory, type WalletHistoryService } from './history.ts';
import { withdrawals, type Withdrawals } from './withdrawals.ts';
import { walletsService } from './wallets.ts';
import { shared } from '../infra/shared.ts';
import { OPERATORS_CHANNEL, operatorEvents } from '../../../contracts/operator.ts';

export interface WalletsServices {
  list: ReturnType<typeof walletsService>['list'];
  addresses: DepositAddresses;
  withdrawals: Withdrawals;
  history: WalletHistoryService;
}

declare module 'fastify' {
  interface FastifyInstance {
    wallets: WalletsServices;
  }
}

/** Tier 3: the trader's side of the wallets (user/wallet/), after the keys and the chain it hands work to. */
export const walletsPlugin = shared('peerex-wallets', async (app) => {
  app.decorate('wallets', {
    list: walletsService(app.db).list,
    addresses: depositAddresses({
      db: app.db,
      keys: app.walletKeys,
      now: app.now,
      watch: (network, address) => app.chain.adapter.watch(network, address),
      confirmationsToCredit: (network) => app.chain.adapter.confirmationsToCredit(network),
      log: app.log,
    }),
    withdrawals: withdrawals({
      db: app.db,
      now: app.now,
      dispatched: () => app.chain.kick(),
      announce: (rows) => app.notifications.announce(rows),
      reviewThresholdUsd: app.config.withdrawalReviewUsd,
      reviewQueueChanged: () => app.realtime.publish(OPERATORS_CHANNEL, operatorEvents.reviews, {}),
      counted: (outcome) => app.metrics.withdrawal(outcome),
      walletChanged: (userIds) => app.notifications.walletChanged(userIds),
    }),
    history: transactionHistory(app.db),
  });
});
