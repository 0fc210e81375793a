import { invalidInput, notFound, stateConflict } from '../refusals.ts';

/**
 * What the account protections (docs/rules.md "Account protections") refuse, for the person on the Security
 * page or at the Withdraw screen: what is wrong and what to do instead, each with its stable code (gathered
 * into `REFUSALS`, server/src/sentences.ts).
 */
export const protectionRefusals = {
  allowlistAlreadyOff: stateConflict('allowlist.already_off', 'Your withdrawal allowlist is already off.'),
  addressAlreadyListed: stateConflict('allowlist.address_already_listed', 'This address is already on your withdrawal allowlist.'),
  allowlistFull: stateConflict(
    'allowlist.full',
    (max: number) => `Your withdrawal allowlist holds at most ${max} addresses. Remove one before adding another.`,
  ),
  addressNotListedToRemove: notFound('allowlist.address_not_listed', 'This address is not on your withdrawal allowlist.'),
  /** At the Withdraw screen, while the allowlist applies. */
  recipientNotListed: invalidInput(
    'allowlist.recipient_not_listed',
    (network: string, waitHours: number) =>
      `Your withdrawal allowlist is on, and this ${network} address is not on it. ` +
      `Add it on the Security page: a new address can be used ${waitHours} hours after it is added.`,
  ),
  /** `usableFrom` as utcMinuteUp prints it. */
  recipientWaiting: stateConflict(
    'allowlist.recipient_waiting',
    (waitHours: number, usableFrom: string) =>
      `This address was added to your withdrawal allowlist less than ${waitHours} hours ago. You can withdraw to it from ${usableFrom}.`,
  ),
} as const;

/** What the account protections answer when they did what was asked. */
export const protectionSentences = {
  signedOutOthers: (count: number) =>
    count === 0
      ? 'No other device was signed in. Only this one is.'
      : `Signed out ${count === 1 ? '1 other session' : `${count} other sessions`}. Only this device is signed in now.`,
} as const;
