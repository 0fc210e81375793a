/**
 * The sentences of withdrawals (docs/api.md "User calls"), written for the person at the Withdraw screen: each
 * says what is wrong and, where it can, what to do instead. Never an internal detail.
 */
export const walletSentences = {
  /**
   * Word for word the inline text the Withdraw screen shows before it asks (docs/web-app.md "Failures"), so the
   * trader reads one sentence for one rule whichever side catches it first. The web app keeps its own copy.
   */
  amountAboveBalance: 'This amount is higher than your balance',
  unknownWithdrawalCoin: 'The selected cryptocurrency does not exist.',
  unknownWithdrawalNetwork: (ticker: string, networks: readonly string[]) =>
    networks.length === 0
      ? `${ticker} cannot be withdrawn right now.`
      : `${ticker} cannot be withdrawn on this network. Choose ${networks.length === 1 ? '' : 'one of '}${networks.join(', ')}.`,
  invalidRecipient: (networkName: string) => `This is not a valid ${networkName} address.`,
  ownDepositAddress: 'This is your own deposit address.',
  tooManyCryptoPlaces: (ticker: string, places: number) =>
    `${ticker} amounts have at most ${places} decimal place${places === 1 ? '' : 's'}.`,
  tooManyUsdPlaces: 'USD amounts have at most 2 decimal places.',
  amountTooSmallToWithdraw: 'This amount is too small to withdraw.',
  amountNotAboveFee: (fee: string, ticker: string) => `The amount must be more than the network fee (${fee} ${ticker}).`,
  /** `opensAt` as the sentence prints it (withdrawalLockEnd). */
  withdrawalsLocked: (hours: number, opensAt: string) =>
    `Withdrawals are paused for ${hours} hours after a password reset or a two-factor change. You can withdraw again from ${opensAt}.`,
  noWithdrawalToConfirm: 'There is no withdrawal to confirm. Preview it again.',
  withdrawalSubmitted: 'Withdrawal submitted. It will be sent within 30 minutes.',
  internalTransferSent: 'Sent to another Peerex wallet.',
  internalTransferTooSmall: (minimumUsd: string) => `A transfer to another Peerex wallet must be worth at least ${minimumUsd} USD.`,
  withdrawingTooFast: 'You are previewing withdrawals too fast. Please wait a moment.',
} as const;
