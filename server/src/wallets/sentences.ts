import { invalidInput, sentencesOf, stateConflict, tooMany } from '../refusals.ts';

/**
 * The refusals of withdrawals (docs/api.md "Refusal codes"), written for the person at the Withdraw screen:
 * each says what is wrong and, where it can, what to do instead. Never an internal detail.
 */
export const walletRefusals = {
  /**
   * Word for word the inline text the Withdraw screen shows before it asks (docs/web-app.md "Failures"), so the
   * trader reads one sentence for one rule whichever side catches it first. The web app keeps its own copy.
   */
  amountAboveBalance: invalidInput('withdrawal.amount_above_balance', 'This amount is higher than your balance'),
  unknownWithdrawalCoin: invalidInput('withdrawal.unknown_coin', 'The selected cryptocurrency does not exist.'),
  unknownWithdrawalNetwork: invalidInput('withdrawal.unknown_network', (ticker: string, networks: readonly string[]) =>
    networks.length === 0
      ? `${ticker} cannot be withdrawn right now.`
      : `${ticker} cannot be withdrawn on this network. Choose ${networks.length === 1 ? '' : 'one of '}${networks.join(', ')}.`,
  ),
  invalidRecipient: invalidInput('withdrawal.invalid_recipient', (networkName: string) => `This is not a valid ${networkName} address.`),
  ownDepositAddress: invalidInput('withdrawal.own_deposit_address', 'This is your own deposit address.'),
  tooManyCryptoPlaces: invalidInput(
    'withdrawal.too_many_crypto_places',
    (ticker: string, places: number) => `${ticker} amounts have at most ${places} decimal place${places === 1 ? '' : 's'}.`,
  ),
  tooManyUsdPlaces: invalidInput('withdrawal.too_many_usd_places', 'USD amounts have at most 2 decimal places.'),
  amountTooSmallToWithdraw: invalidInput('withdrawal.amount_too_small', 'This amount is too small to withdraw.'),
  amountNotAboveFee: invalidInput(
    'withdrawal.amount_not_above_fee',
    (fee: string, ticker: string) => `The amount must be more than the network fee (${fee} ${ticker}).`,
  ),
  /** `opensAt` as the sentence prints it (withdrawalLockEnd). */
  withdrawalsLocked: stateConflict(
    'withdrawal.locked',
    (hours: number, opensAt: string) =>
      `Withdrawals are paused for ${hours} hours after a password reset or a two-factor change. You can withdraw again from ${opensAt}.`,
  ),
  noWithdrawalToConfirm: stateConflict('withdrawal.nothing_to_confirm', 'There is no withdrawal to confirm. Preview it again.'),
  internalTransferTooSmall: invalidInput(
    'withdrawal.transfer_too_small',
    (minimumUsd: string) => `A transfer to another Peerex wallet must be worth at least ${minimumUsd} USD.`,
  ),
  withdrawingTooFast: tooMany('rate_limit.withdrawal_previews', 'You are previewing withdrawals too fast. Please wait a moment.'),
} as const;

/** The sentences of withdrawals (spread into `sentences`, server/src/sentences.ts): the refusals' and the answers'. */
export const walletSentences = {
  ...sentencesOf(walletRefusals),
  withdrawalSubmitted: 'Withdrawal submitted. It will be sent within 30 minutes.',
  /** A withdrawal at or above WITHDRAWAL_REVIEW_USD (docs/rules.md "Wallets"). */
  withdrawalInReview: 'Withdrawal submitted. Large withdrawals are reviewed by an operator before they are sent: you will be notified of the decision.',
  internalTransferSent: 'Sent to another Peerex wallet.',
} as const;
