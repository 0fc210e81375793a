import { assign, fromPromise } from 'xstate';
import { bindLivePrices } from '../livePrices/livePrices.actors.ts';
import { walletChanges, watchingConnection } from '../shared/channels.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { walletsMachine } from './wallets.machine.ts';
import { recomputedTotal } from './wallets.selectors.ts';

/** The wallets chart with its exact total: what every use of it, tests included, starts from. */
export const walletsLogic = walletsMachine.provide({
  actions: { recomputeTotal: assign(({ context }) => recomputedTotal(context)) },
});

export const bindWallets = (deps: FlowDeps) =>
  walletsLogic.provide({
    actors: {
      loadWallets: fromPromise(({ input }: { input: { quiet: boolean } }) => deps.wallets.list(input.quiet ? { noToast: true } : {})),
      livePrices: bindLivePrices(deps.realtime),
      userChannel: walletChanges(deps.realtime),
      watchConnection: watchingConnection(deps.realtime),
    },
  });
