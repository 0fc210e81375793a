import { noticeMail, type Mail } from '../infra/mail.ts';

/**
 * The mails that tell owners what happened to their account's security, so that a change they did not make
 * does not go unnoticed. Each says what happened, when, and what to do if it was not them.
 */
export type SecurityEvent =
  | { kind: 'twoFactorOn' }
  | { kind: 'twoFactorOff' }
  | { kind: 'recoveryCodesRenewed' }
  | { kind: 'recoveryCodeUsed'; left: number }
  | { kind: 'signInsPaused'; failures: number }
  // A sign-in from a device or an address the account had not signed in from (README "New sign-ins"). Whoever
  // signed in can mark the bell's "New sign-in" read; the owner's inbox they cannot reach.
  | { kind: 'newSignIn'; client: string }
  // The account protections' changes a thief would make (docs/rules.md "Account protections"). The bell's
  // notification alone is not enough: the session that made the change can mark it read before the owner looks.
  | { kind: 'withdrawalAddressAdded'; network: string; address: string; usableFrom: string }
  | { kind: 'withdrawalAllowlistOff'; enforcedUntil: string }
  | { kind: 'antiPhishingCodeSet' }
  | { kind: 'antiPhishingCodeRemoved' }
  // An operator made the password unusable (docs/operators.md "Traders and suspension"): the owner learns here how
  // to sign in again, since the sign-in page only says the password is wrong.
  | { kind: 'passwordResetForced' };

const notYou =
  'If this was not you, someone else has your password and a way into your account: choose a new password now with ' +
  '"Forgot password?" on the sign-in page. A password reset ends every session of your account.';

export function securityMail(owner: { email: string; username: string }, event: SecurityEvent, at: Date): Mail {
  const when = `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const hello = `Hello ${owner.username},`;
  switch (event.kind) {
    case 'twoFactorOn':
      return noticeMail(owner.email, 'Two-factor authentication is on', [
        hello,
        `Two-factor authentication was turned on for your Peerex account at ${when}. Every sign-in now also asks for a code from your authenticator app.`,
        'Keep the recovery codes you were shown somewhere safe: each one signs you in once if you lose your phone.',
        notYou,
      ]);
    case 'twoFactorOff':
      return noticeMail(owner.email, 'Two-factor authentication is off', [
        hello,
        `Two-factor authentication was turned off for your Peerex account at ${when}. Signing in now needs only your password.`,
        notYou,
      ]);
    case 'recoveryCodesRenewed':
      return noticeMail(owner.email, 'New recovery codes for your Peerex account', [
        hello,
        `A new set of two-factor recovery codes was made for your Peerex account at ${when}. The old codes no longer work.`,
        notYou,
      ]);
    case 'recoveryCodeUsed':
      return noticeMail(owner.email, 'A recovery code was used to sign in', [
        hello,
        `Someone signed in to your Peerex account with one of your recovery codes at ${when}. That code is now spent; ` +
          `${event.left} ${event.left === 1 ? 'code is' : 'codes are'} left.`,
        event.left <= 3
          ? 'You are running out of recovery codes: make a new set on the Security page.'
          : 'If you lost your phone, set two-factor up again on the Security page with your new one.',
        notYou,
      ]);
    case 'signInsPaused':
      return noticeMail(owner.email, 'Sign-ins to your Peerex account are paused', [
        hello,
        `In the last hour there were ${event.failures} failed attempts to sign in to your account, from several addresses. ` +
          'Someone may be trying to guess your password, so signing in is paused for one hour, with the right password too.',
        'If these attempts were not yours, choose a new password now with "Forgot password?" on the sign-in page: ' +
          'a password reset lifts the pause at once and ends every session of your account.',
      ]);
    case 'newSignIn':
      return noticeMail(owner.email, 'New sign-in to your Peerex account', [
        hello,
        // Not the device's name: the one signing in writes it (up to 100 characters), and a genuine Peerex mail
        // must not carry their words ("Support: verify at …") to the owner. The address is the server's reading.
        `Your Peerex account was signed in at ${when} from ${event.client === '' ? 'an unknown address' : `the address ${event.client}`}.`,
        'We write the first time your account signs in from a device or an address it has not used before. ' +
          'Every sign-in, with the device it came from, is listed in the sign-in history on the Security page.',
        notYou,
      ]);
    case 'withdrawalAddressAdded':
      return noticeMail(owner.email, 'A withdrawal address was added to your allowlist', [
        hello,
        `${event.address} (${event.network}) was added to your Peerex withdrawal allowlist at ${when}. ` +
          `Withdrawals can go to it from ${event.usableFrom}.`,
        'If this was not you, remove it on the Security page before then.',
        notYou,
      ]);
    case 'withdrawalAllowlistOff':
      return noticeMail(owner.email, 'Your withdrawal allowlist was turned off', [
        hello,
        `Your Peerex withdrawal allowlist was turned off at ${when}. ` +
          `It still applies until ${event.enforcedUntil}; after that, withdrawals may go to any address.`,
        'If this was not you, turn it on again on the Security page before then: it applies again at once.',
        notYou,
      ]);
    case 'antiPhishingCodeSet':
      return noticeMail(owner.email, 'Your anti-phishing code was set', [
        hello,
        `The anti-phishing code of your Peerex account was set at ${when}. Every email from us now starts with it, as this one does.`,
        notYou,
      ]);
    case 'antiPhishingCodeRemoved':
      return noticeMail(owner.email, 'Your anti-phishing code was removed', [
        hello,
        `The anti-phishing code of your Peerex account was removed at ${when}. Emails from us no longer carry one.`,
        notYou,
      ]);
    case 'passwordResetForced':
      return noticeMail(owner.email, 'Choose a new password for your Peerex account', [
        hello,
        `For your account's safety, Peerex's staff reset your password at ${when}: it no longer works, and every session of your account ended.`,
        'Choose a new password with "Forgot password?" on the sign-in page: a code is mailed to this address.',
      ]);
  }
}
