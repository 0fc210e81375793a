import { assign, fromPromise } from 'xstate';
import { WITHDRAWAL_PREVIEW_SECONDS } from '../../../contracts/index.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { withdrawalMachine, type WithdrawalContext } from './withdrawal.machine.ts';
import { canPreview, convertAmount, isOverBalance, otherMode } from './withdrawal.rules.ts';

/** The preview's answer and the confirm's request each travel once; dropping the preview this much early covers both. */
const EXPIRY_MARGIN_SECONDS = 5;

/** The Withdraw chart with its rules on exact decimals: what every use of it, tests included, starts from. */
export const withdrawalLogic = withdrawalMachine.provide({
  guards: {
    isOverBalance: (_, params) => isOverBalance(params),
    canPreview: (_, params) => canPreview(params),
  },
  actions: {
    // No preview here (one shown is toggled by `showPreviewInOtherUnit`): the coin's price as the page read it converts.
    toggleMode: assign(({ context }): Partial<WithdrawalContext> => ({
      amount: convertAmount(context),
      mode: otherMode(context.mode),
      preview: null,
      asked: null,
    })),
  },
  delays: { previewExpiry: (WITHDRAWAL_PREVIEW_SECONDS - EXPIRY_MARGIN_SECONDS) * 1000 },
});

export const bindWithdrawal = (deps: FlowDeps) =>
  withdrawalLogic.provide({
    actors: {
      loadWallets: fromPromise(() => deps.wallets.addresses()),
      previewWithdrawal: fromPromise(({ input }) => deps.wallets.previewWithdrawal(input)),
      confirmWithdrawal: fromPromise(() => deps.wallets.confirmWithdrawal()),
    },
    actions: {
      notify: (_, params) => deps.notify(params),
      goToTransactions: () => deps.navigate('/wallets/transactions'),
    },
  });
