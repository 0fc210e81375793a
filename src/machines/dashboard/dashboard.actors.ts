import { fromPromise } from 'xstate';
import { bindLivePrices } from '../livePrices/livePrices.actors.ts';
import { walletChanges } from '../shared/channels.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { dashboardMachine } from './dashboard.machine.ts';

export const bindDashboard = (deps: FlowDeps) =>
  dashboardMachine.provide({
    actors: {
      loadOverview: fromPromise(() => deps.accounts.overview()),
      loadWallets: fromPromise(() => deps.accounts.wallets()),
      livePrices: bindLivePrices(deps.realtime),
      userChannel: walletChanges(deps.realtime),
    },
  });
