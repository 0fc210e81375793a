/**
 * The sentences of trades, wallets and conversations (spread into `sentences`, server/src/sentences.ts). The
 * range and method refusals are word for word the texts the web app shows before it asks (docs/rules.md
 * "Trades"), so the trader reads one sentence for one rule.
 */
export const tradeSentences = {
  selectPaymentMethod: 'Please select a payment method',
  methodNotAccepted: (method: string) => `This offer does not accept ${method}.`,
  ownOffer: 'You cannot trade on your own offer.',
  offerUnavailable: 'This offer is no longer available.',
  rateChanged: 'The rate of this offer has changed since you saw it. Please look at the new rate and try again.',
  amountTooSmall: 'This amount is too small to trade this coin. Please enter a larger amount.',
  sellerBalanceTooLow: "The seller's balance is too low for this trade.",
  tooManyOpenTrades: (limit: number) =>
    `You already have ${limit} open trades as the buyer. Complete or cancel one before you open another.`,
  offerFull: 'This offer has as many open trades as its owner takes at once. Please try again once one of them ends.',
  openingTooFast: 'You are opening trades too fast. Please wait a while before you open another.',
  tradeOpenedForBuyer: (amount: string, currency: string, method: string) =>
    `Trade opened. Pay ${amount} ${currency} by ${method} and mark it paid in the chat.`,
  tradeOpenedForSeller: (crypto: string, ticker: string, amount: string, currency: string, method: string) =>
    `Trade opened. Your ${crypto} ${ticker} is in escrow; release it in the chat once the buyer's ${amount} ${currency} arrives by ${method}.`,
  tradeNotFound: 'This trade does not exist.',
  tradeNotPending: 'This trade is no longer pending.',
  tradeDisputed: 'This trade is frozen by a dispute until a moderator settles it.',
  paymentAlreadyMarked: 'Payment has already been marked.',
  paymentNotMarked: 'The buyer has not marked the payment yet.',
  cancelAfterPayment: 'Payment has already been marked, so the trade can no longer be cancelled. Raise a dispute instead.',
  disputeBeforePayment: 'A dispute can only be raised after the payment has been marked.',
  onlyBuyerMarksPaid: 'Only the buyer can mark the payment.',
  onlySellerReleases: 'Only the seller can release the coin.',
  /** The second proof a release needs (docs/rules.md "Trades"): missing or wrong, worded for the proof the account uses. */
  confirmReleaseWithPassword: 'Please confirm the release with your password.',
  confirmReleaseWithCode: 'Please confirm the release with your authenticator code.',
  /** The security hold (accounts/security-hold.ts), to the trader it holds: opening as the seller, releasing. */
  sellingPaused: (hours: number) => `Selling is paused for ${hours} hours after a security change.`,
  /** The security hold of a sell offer's owner, to the taker who would have paid them. */
  offerSellerPaused: "This offer's seller cannot sell right now. Please choose another offer or try again later.",
  tradeChanged: 'This trade has just changed. Please reload it and try again.',
  paymentMarked: 'Payment marked as sent. The seller will release the coin once it arrives.',
  coinReleased: 'Coin released. The trade is completed.',
  tradeCancelled: 'Trade cancelled. The coin is back with the seller.',
  disputeRaised: 'Dispute raised. The trade is frozen until a moderator settles it.',
  chatClosed: (status: string) => `This trade is ${status}; its chat takes no more messages.`,
} as const;
