import type { SnapshotFrom } from 'xstate';
import { amountRangeTexts } from '../../../domain/money.ts';
import { amountError } from '../shared/validation.ts';
import type { tradeDialogMachine } from './tradeDialog.machine.ts';

type TradeDialogSnapshot = SnapshotFrom<typeof tradeDialogMachine>;

export const selectIsOpen = (snapshot: TradeDialogSnapshot) => snapshot.hasTag('open');
export const selectIsBusy = (snapshot: TradeDialogSnapshot) => snapshot.hasTag('busy');
export const selectOffer = (snapshot: TradeDialogSnapshot) => snapshot.context.offer;
export const selectAmount = (snapshot: TradeDialogSnapshot) => snapshot.context.amount;
export const selectPaymentMethod = (snapshot: TradeDialogSnapshot) => snapshot.context.paymentMethod;
export const selectPreview = (snapshot: TradeDialogSnapshot) => snapshot.context.preview;
export const selectCanConfirm = (snapshot: TradeDialogSnapshot) => snapshot.can({ type: 'order.confirm' });
export const selectAmountError = (snapshot: TradeDialogSnapshot) => {
  const { offer, amount } = snapshot.context;
  return offer ? amountError(amount, offer) : undefined;
};
/** The range hint ("Amount must be between …") while the amount is empty. */
export const selectHint = (snapshot: TradeDialogSnapshot) => {
  const { offer, amount } = snapshot.context;
  if (!offer || amount.trim() !== '') return undefined;
  return amountRangeTexts.hint(offer.min_amount, offer.max_amount, offer.currency__code);
};
/** "Please select a payment method" once an amount is typed without a method. */
export const selectMethodError = (snapshot: TradeDialogSnapshot) => {
  const { amount, paymentMethod } = snapshot.context;
  return amount.trim() !== '' && paymentMethod === '' ? 'Please select a payment method' : undefined;
};
/** "Confirm Sell Order" on a buy offer, "Confirm Buy Order" on a sell offer. */
export const selectConfirmLabel = (snapshot: TradeDialogSnapshot) =>
  snapshot.context.offer?.offer_type === 'buy' ? 'Confirm Sell Order' : 'Confirm Buy Order';
