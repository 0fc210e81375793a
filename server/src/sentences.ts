import { messages } from '../../contracts/messages.ts';
import { moderationSentences } from './moderation/sentences.ts';
import { notificationSentences } from './notifications/sentences.ts';
import { reputationSentences } from './reputation/sentences.ts';
import { tradeSentences } from './trades/sentences.ts';
import { walletSentences } from './wallets/sentences.ts';

/**
 * Every sentence the server answers with, in one place: the web app shows them as they are, so they are
 * written for the person at the screen and never mention internals.
 */
export const sentences = {
  sessionExpired: messages.sessionExpired,
  invalidCredentials: 'Invalid username or password.',
  accountLocked: (minutes: number) =>
    `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  invalidAuthenticatorCode: 'Invalid authentication code.',
  authenticatorCodeUsed: 'This authentication code has already been used. Please wait for the next one.',
  tooManyAuthenticatorCodes: 'Too many wrong codes. Please sign in again.',
  signInExpired: 'This sign-in has expired. Please enter your username and password again.',
  invalidRecoveryCode: 'Invalid recovery code.',
  wrongPassword: 'The password is not correct.',
  emailTaken: 'An account with this email already exists.',
  usernameTaken: 'This username is already taken.',
  usernameReserved: 'This username is not available',
  emailNotVerified: 'Please verify your email address first.',
  codeSent: (email: string) => `A verification code has been sent to ${email}`,
  resetCodeSent: (email: string) => `If an account exists for ${email}, a password reset code has been sent to it.`,
  codeExpired: 'This verification code has expired. Please request a new one.',
  invalidCode: 'Invalid verification code.',
  tooManyWrongCodes: 'Too many wrong codes. Please request a new one.',
  codeResendTooSoon: 'Please wait a minute before requesting another code.',
  codeHourlyLimit: 'Too many codes were requested for this email. Please try again in an hour.',
  mailFailed: 'We could not send the email right now. Please try again in a few minutes.',
  emailVerified: 'Email has been verified successfully',
  passwordReset: 'Password reset successful',
  loggedOut: 'You have been logged out.',
  twoFactorAlreadyOn: 'Two-factor authentication is already on.',
  twoFactorNotOn: 'Two-factor authentication is not on.',
  twoFactorSetupFirst: 'Start the two-factor setup first.',
  twoFactorEnabled: 'Two-factor authentication is now on.',
  twoFactorDisabled: 'Two-factor authentication is now off.',
  recoveryCodesRenewed: 'New recovery codes are ready. The old ones no longer work.',
  /** A sealed two-factor secret that this server's APP_SECRET does not open (accounts/two-factor.plugin.ts). */
  twoFactorSecretUnreadable: "This account's two-factor codes cannot be checked on this server right now. Please contact its operator.",
  offerPublished: 'Offer published successfully.',
  offerUpdated: 'Offer updated successfully.',
  offerPaused: 'Offer paused.',
  offerResumed: 'Offer resumed.',
  offerNotFound: 'This offer does not exist.',
  offerIdRequired: 'id is required to update an offer.',
  unknownCoin: 'The selected cryptocurrency does not exist.',
  unknownCurrency: 'The selected fiat currency does not exist.',
  unknownPaymentMethod: (name: string) => `Unknown payment method "${name}".`,
  repeatedPaymentMethod: (name: string) => `Payment method "${name}" is chosen more than once.`,
  minAboveMax: 'The minimum amount cannot be greater than the maximum amount.',
  nulCharacter: (field: string) =>
    field === '' ? 'The request body contains a character that is not allowed (U+0000).' : `${field} contains a character that is not allowed (U+0000).`,
  loneSurrogate: (field: string) =>
    `${field === '' ? 'The request body' : field} contains text that is not valid Unicode (a lone surrogate).`,
  ...tradeSentences,
  ...walletSentences,
  ...notificationSentences,
  ...moderationSentences,
  ...reputationSentences,
  tooManyRequests: 'Too many requests. Please slow down and try again in a minute.',
  chattingTooFast: 'You are sending messages too fast. Please wait a moment.',
  channelNotAllowed: 'You may not listen on this channel.',
  notJson: 'Please send the request body as JSON.',
  malformedJson: 'The request body is not valid JSON.',
  bodyTooLarge: 'The request body is too large.',
  bodyNotObject: 'The request body must be a JSON object.',
  noSuchCall: 'There is no such API call.',
  /** A Host header this server does not answer to, on a loopback HOST (DNS rebinding; infra/http/allowed-hosts.ts). */
  hostNotAllowed: 'This server does not answer requests for this host name.',
  badAddress: 'The address of this call is not valid.',
  databaseUnavailable: 'The database is not available.',
  redisUnavailable: 'Redis is not available.',
  internalError: 'Something went wrong on our side. Please try again.',
  /** A request that reached a process already shutting down (SIGTERM): the load balancer sends the retry elsewhere. */
  shuttingDown: 'This server is restarting. Please try again in a moment.',
} as const;
