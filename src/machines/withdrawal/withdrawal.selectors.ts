import type { SnapshotFrom } from 'xstate';
import type { withdrawalMachine } from './withdrawal.machine.ts';
import { amountProblem, coinOf, usdValueOf, withdrawalTexts } from './withdrawal.rules.ts';

type WithdrawalSnapshot = SnapshotFrom<typeof withdrawalMachine>;

export const selectIsLoading = (snapshot: WithdrawalSnapshot) => snapshot.matches('loading');
export const selectIsBusy = (snapshot: WithdrawalSnapshot) => snapshot.hasTag('busy');
export const selectCoins = (snapshot: WithdrawalSnapshot) => snapshot.context.coins;
export const selectTicker = (snapshot: WithdrawalSnapshot) => snapshot.context.ticker;
export const selectNetwork = (snapshot: WithdrawalSnapshot) => snapshot.context.network;
export const selectRecipient = (snapshot: WithdrawalSnapshot) => snapshot.context.recipient;
export const selectAmount = (snapshot: WithdrawalSnapshot) => snapshot.context.amount;
export const selectMode = (snapshot: WithdrawalSnapshot) => snapshot.context.mode;
export const selectPreview = (snapshot: WithdrawalSnapshot) => snapshot.context.preview;
/** The chosen coin's entry (balance, price, places, networks), or undefined before one is chosen. */
export const selectCoin = (snapshot: WithdrawalSnapshot) => coinOf(snapshot.context.coins, snapshot.context.ticker);
/** The chosen coin's available balance in USD at its current price, unrounded. */
export const selectCoinUsdValue = (snapshot: WithdrawalSnapshot) => {
  const entry = selectCoin(snapshot);
  return entry ? usdValueOf(entry) : undefined;
};
/** The coin selector's entries: each coin with its available balance and that balance's USD value. */
export const selectCoinChoices = (snapshot: WithdrawalSnapshot) =>
  snapshot.context.coins.map((entry) => ({ entry, usdValue: usdValueOf(entry) }));
/** The network selector shows only when the chosen coin has more than one network. */
export const selectNetworkChoices = (snapshot: WithdrawalSnapshot) => {
  const networks = selectCoin(snapshot)?.networks ?? [];
  return networks.length > 1 ? networks : [];
};
/** The amount's inline message: the balance error, or why the amount is not a usable number. */
export const selectAmountError = (snapshot: WithdrawalSnapshot) =>
  snapshot.hasTag('error') ? withdrawalTexts.overBalance : amountProblem(snapshot.context);
/** The fee is being worked out: waiting for the trader to stop typing, or asking the server. */
export const selectIsPreviewing = (snapshot: WithdrawalSnapshot) =>
  snapshot.matches({ form: 'waiting' }) || snapshot.matches({ form: 'previewing' });
export const selectIsExpired = (snapshot: WithdrawalSnapshot) => snapshot.matches({ form: 'expired' });
/** "Confirm Withdrawal" shows only with a preview (ready, or confirming it). */
export const selectShowsConfirm = (snapshot: WithdrawalSnapshot) => snapshot.context.preview !== null;
export const selectCanConfirm = (snapshot: WithdrawalSnapshot) =>
  snapshot.context.preview !== null && snapshot.can({ type: 'form.submit' });
export const selectCanRefresh = (snapshot: WithdrawalSnapshot) => snapshot.can({ type: 'preview.refresh' });
