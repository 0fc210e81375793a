import { invalidInput, notAllowed, notFound, sentencesOf, stateConflict, tooMany } from '../refusals.ts';

/**
 * The refusals of trades and their conversations, each with its stable code (gathered into `REFUSALS`,
 * server/src/sentences.ts). The range and method refusals are word for word the texts the web app shows
 * before it asks (docs/rules.md "Trades"), so the trader reads one sentence for one rule.
 */
export const tradeRefusals = {
  selectPaymentMethod: invalidInput('trade.payment_method_missing', 'Please select a payment method'),
  methodNotAccepted: invalidInput('trade.method_not_accepted', (method: string) => `This offer does not accept ${method}.`),
  /** The sentence domain/money.ts `amountRangeProblem` words (below the minimum, above the maximum). */
  amountOutOfRange: invalidInput('trade.amount_out_of_range', (rangeSentence: string) => rangeSentence),
  /** The sentence domain/offerConditions.ts `unmetCondition` words for the first condition the taker does not meet. */
  conditionUnmet: notAllowed('trade.condition_unmet', (conditionSentence: string) => conditionSentence),
  ownOffer: notAllowed('trade.own_offer', 'You cannot trade on your own offer.'),
  offerUnavailable: notFound('trade.offer_unavailable', 'This offer is no longer available.'),
  rateChanged: stateConflict('trade.rate_changed', 'The rate of this offer has changed since you saw it. Please look at the new rate and try again.'),
  amountTooSmall: invalidInput('trade.amount_too_small', 'This amount is too small to trade this coin. Please enter a larger amount.'),
  sellerBalanceTooLow: stateConflict('trade.seller_balance_too_low', "The seller's balance is too low for this trade."),
  tooManyOpenTrades: stateConflict(
    'trade.too_many_open',
    (limit: number) => `You already have ${limit} open trades as the buyer. Complete or cancel one before you open another.`,
  ),
  offerFull: stateConflict('trade.offer_full', 'This offer has as many open trades as its owner takes at once. Please try again once one of them ends.'),
  openingTooFast: tooMany('rate_limit.trade_opens', 'You are opening trades too fast. Please wait a while before you open another.'),
  tradeNotFound: notFound('trade.not_found', 'This trade does not exist.'),
  tradeNotPending: stateConflict('trade.not_pending', 'This trade is no longer pending.'),
  tradeDisputed: stateConflict('trade.disputed', 'This trade is frozen by a dispute until a moderator settles it.'),
  paymentAlreadyMarked: stateConflict('trade.payment_already_marked', 'Payment has already been marked.'),
  paymentNotMarked: stateConflict('trade.payment_not_marked', 'The buyer has not marked the payment yet.'),
  cancelAfterPayment: stateConflict(
    'trade.cancel_after_payment',
    'Payment has already been marked, so the trade can no longer be cancelled. Raise a dispute instead.',
  ),
  disputeBeforePayment: stateConflict('trade.dispute_before_payment', 'A dispute can only be raised after the payment has been marked.'),
  onlyBuyerMarksPaid: notAllowed('trade.only_buyer_marks_paid', 'Only the buyer can mark the payment.'),
  onlySellerReleases: notAllowed('trade.only_seller_releases', 'Only the seller can release the coin.'),
  /** The second proof a release needs (docs/rules.md "Trades"): missing or wrong, worded for the proof the account uses. */
  confirmReleaseWithPassword: notAllowed('release.password_required', 'Please confirm the release with your password.'),
  confirmReleaseWithCode: notAllowed('release.code_required', 'Please confirm the release with your authenticator code.'),
  /** The security hold (accounts/security-hold.ts), to the trader it holds: opening as the seller, releasing. */
  sellingPaused: stateConflict('trade.selling_paused', (hours: number) => `Selling is paused for ${hours} hours after a security change.`),
  /** The security hold of a sell offer's owner, to the taker who would have paid them. */
  offerSellerPaused: stateConflict(
    'trade.offer_seller_paused',
    "This offer's seller cannot sell right now. Please choose another offer or try again later.",
  ),
  tradeChanged: stateConflict('trade.changed', 'This trade has just changed. Please reload it and try again.'),
  chatClosed: stateConflict('chat.closed', (status: string) => `This trade is ${status}; its chat takes no more messages.`),
} as const;

/** The sentences of trades and conversations (spread into `sentences`, server/src/sentences.ts): the refusals' and the answers'. */
export const tradeSentences = {
  ...sentencesOf(tradeRefusals),
  tradeOpenedForBuyer: (amount: string, currency: string, method: string) =>
    `Trade opened. Pay ${amount} ${currency} by ${method} and mark it paid in the chat.`,
  tradeOpenedForSeller: (crypto: string, ticker: string, amount: string, currency: string, method: string) =>
    `Trade opened. Your ${crypto} ${ticker} is in escrow; release it in the chat once the buyer's ${amount} ${currency} arrives by ${method}.`,
  paymentMarked: 'Payment marked as sent. The seller will release the coin once it arrives.',
  coinReleased: 'Coin released. The trade is completed.',
  tradeCancelled: 'Trade cancelled. The coin is back with the seller.',
  disputeRaised: 'Dispute raised. The trade is frozen until a moderator settles it.',
} as const;
