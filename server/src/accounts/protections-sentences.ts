/**
 * What the account protections (docs/rules.md "Account protections") answer, for the person on the Security
 * page or at the Withdraw screen: what happened or what is wrong, and what to do instead.
 */
export const protectionSentences = {
  signedOutOthers: (count: number) =>
    count === 0
      ? 'No other device was signed in. Only this one is.'
      : `Signed out ${count === 1 ? '1 other session' : `${count} other sessions`}. Only this device is signed in now.`,
  allowlistAlreadyOff: 'Your withdrawal allowlist is already off.',
  addressAlreadyListed: 'This address is already on your withdrawal allowlist.',
  allowlistFull: (max: number) => `Your withdrawal allowlist holds at most ${max} addresses. Remove one before adding another.`,
  addressNotListedToRemove: 'This address is not on your withdrawal allowlist.',
  /** At the Withdraw screen, while the allowlist applies. */
  recipientNotListed: (network: string, waitHours: number) =>
    `Your withdrawal allowlist is on, and this ${network} address is not on it. ` +
    `Add it on the Security page: a new address can be used ${waitHours} hours after it is added.`,
  /** `usableFrom` as utcMinuteUp prints it. */
  recipientWaiting: (waitHours: number, usableFrom: string) =>
    `This address was added to your withdrawal allowlist less than ${waitHours} hours ago. You can withdraw to it from ${usableFrom}.`,
} as const;
