import { messages } from '../../contracts/messages.ts';
import { chainRefusals } from './chain/sentences.ts';
import { protectionRefusals } from './accounts/protections-sentences.ts';
import { moderationRefusals, moderationSentences } from './moderation/sentences.ts';
import { operatorRefusals, operatorSentences } from './operator/sentences.ts';
import { notificationRefusals, notificationSentences } from './notifications/sentences.ts';
import { reputationRefusals, reputationSentences } from './reputation/sentences.ts';
import {
  addressTooLong,
  internal,
  invalidInput,
  notAllowed,
  notFound,
  notSignedIn,
  refusersOf,
  sentencesOf,
  signInExpired,
  stateConflict,
  tooLarge,
  tooMany,
  unavailable,
} from './refusals.ts';
import { tradeRefusals, tradeSentences } from './trades/sentences.ts';
import { walletRefusals, walletSentences } from './wallets/sentences.ts';

const CODE_USED = 'This authentication code has already been used. Please wait for the next one.';

/**
 * The refusals of sessions, accounts, offers and the HTTP layer itself, each with its stable code and kind
 * (server/src/refusals.ts). The codes are `area.what_went_wrong`; docs/api.md "Refusal codes" lists them.
 */
const generalRefusals = {
  sessionExpired: notSignedIn('session.expired', messages.sessionExpired),
  invalidCredentials: invalidInput('sign_in.invalid_credentials', 'Invalid username or password.'),
  accountLocked: tooMany('sign_in.locked', (minutes: number) =>
    `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  ),
  invalidAuthenticatorCode: invalidInput('two_factor.invalid_code', 'Invalid authentication code.'),
  authenticatorCodeUsed: invalidInput('two_factor.code_used', CODE_USED),
  /** The same words when the code confirms a release: refused with 403 like the other wrong release proofs (accounts/confirmation.ts). */
  releaseCodeUsed: notAllowed('release.code_used', CODE_USED),
  tooManyAuthenticatorCodes: signInExpired('sign_in.too_many_codes', 'Too many wrong codes. Please sign in again.'),
  signInExpired: signInExpired('sign_in.expired', 'This sign-in has expired. Please enter your username and password again.'),
  /** The right password (and second factor) of a suspended account (docs/operators.md "Traders and suspension"). */
  signInSuspended: notAllowed('sign_in.suspended', 'This account is suspended. Please contact support.'),
  invalidRecoveryCode: invalidInput('two_factor.invalid_recovery_code', 'Invalid recovery code.'),
  wrongPassword: invalidInput('account.wrong_password', 'The password is not correct.'),
  emailTaken: stateConflict('account.email_taken', 'An account with this email already exists.'),
  usernameTaken: stateConflict('account.username_taken', 'This username is already taken.'),
  usernameReserved: invalidInput('account.username_reserved', 'This username is not available'),
  emailNotVerified: notAllowed('account.email_not_verified', 'Please verify your email address first.'),
  codeExpired: invalidInput('email_code.expired', 'This verification code has expired. Please request a new one.'),
  invalidCode: invalidInput('email_code.invalid', 'Invalid verification code.'),
  tooManyWrongCodes: invalidInput('email_code.too_many_wrong', 'Too many wrong codes. Please request a new one.'),
  codeResendTooSoon: tooMany('email_code.resend_too_soon', 'Please wait a minute before requesting another code.'),
  codeHourlyLimit: tooMany('email_code.hourly_limit', 'Too many codes were requested for this email. Please try again in an hour.'),
  mailFailed: unavailable('mail.failed', 'We could not send the email right now. Please try again in a few minutes.'),
  twoFactorAlreadyOn: stateConflict('two_factor.already_on', 'Two-factor authentication is already on.'),
  twoFactorNotOn: stateConflict('two_factor.not_on', 'Two-factor authentication is not on.'),
  twoFactorSetupFirst: stateConflict('two_factor.setup_first', 'Start the two-factor setup first.'),
  /** A sealed two-factor secret that this server's APP_SECRET does not open (accounts/two-factor.plugin.ts). */
  twoFactorSecretUnreadable: unavailable(
    'two_factor.secret_unreadable',
    "This account's two-factor codes cannot be checked on this server right now. Please contact its operator.",
  ),
  offerNotFound: notFound('offer.not_found', 'This offer does not exist.'),
  offerIdRequired: invalidInput('offer.id_required', 'id is required to update an offer.'),
  unknownCoin: invalidInput('offer.unknown_coin', 'The selected cryptocurrency does not exist.'),
  unknownCurrency: invalidInput('offer.unknown_currency', 'The selected fiat currency does not exist.'),
  unknownPaymentMethod: invalidInput('offer.unknown_payment_method', (name: string) => `Unknown payment method "${name}".`),
  repeatedPaymentMethod: invalidInput('offer.repeated_payment_method', (name: string) => `Payment method "${name}" is chosen more than once.`),
  minAboveMax: invalidInput('offer.min_above_max', 'The minimum amount cannot be greater than the maximum amount.'),
  /** An offer's amount field that is not a positive decimal within its places and digits (market/offers.ts). */
  offerAmountNotNumber: invalidInput('offer.amount_not_number', (field: string) => `${field} must be a number`),
  offerAmountNotPositive: invalidInput('offer.amount_not_positive', (field: string) => `${field} must be greater than 0`),
  offerAmountTooManyPlaces: invalidInput('offer.amount_too_many_places', (field: string, places: number) =>
    `${field} has too many decimal places (at most ${places})`,
  ),
  offerAmountTooLarge: invalidInput('offer.amount_too_large', (field: string) => `${field} is too large`),
  /**
   * A body its contract refuses: the sentence names the field and the rule (http/parse-body.ts words it, or the
   * contract's own message), so there is one code for all of them and the sentence is the parameter.
   */
  invalidField: invalidInput('request.invalid_field', (fieldAndRule: string) => fieldAndRule),
  nulCharacter: invalidInput('request.nul_character', (field: string) =>
    field === '' ? 'The request body contains a character that is not allowed (U+0000).' : `${field} contains a character that is not allowed (U+0000).`,
  ),
  loneSurrogate: invalidInput(
    'request.lone_surrogate',
    (field: string) => `${field === '' ? 'The request body' : field} contains text that is not valid Unicode (a lone surrogate).`,
  ),
  tooManyRequests: tooMany('rate_limit.requests', 'Too many requests. Please slow down and try again in a minute.'),
  chattingTooFast: tooMany('rate_limit.chat', 'You are sending messages too fast. Please wait a moment.'),
  channelNotAllowed: notAllowed('realtime.channel_not_allowed', 'You may not listen on this channel.'),
  /** GET /api/push/beams-auth/ (push/beams-auth.call.ts). */
  beamsUserIdRequired: invalidInput('push.user_id_required', 'user_id is required'),
  beamsOtherUser: notAllowed('push.other_user', 'You can only register this browser for your own notifications.'),
  /** The push device API's limits, answered in the Beams SDK's shape rather than the envelope (routes/push/device-api.ts). */
  deviceApiTooManyRequests: tooMany('push.device_api_requests', 'Too many requests from this address; try again in a minute'),
  deviceApiTooManyDevices: tooMany('push.device_api_registrations', 'Too many devices registered from this address; try again later'),
  notJson: invalidInput('request.not_json', 'Please send the request body as JSON.'),
  malformedJson: invalidInput('request.malformed_json', 'The request body is not valid JSON.'),
  bodyTooLarge: tooLarge('request.body_too_large', 'The request body is too large.'),
  bodyNotObject: invalidInput('request.body_not_object', 'The request body must be a JSON object.'),
  noSuchCall: notFound('request.no_such_call', 'There is no such API call.'),
  /** A Host header this server does not answer to, on a loopback HOST (DNS rebinding; infra/http/allowed-hosts.ts). */
  hostNotAllowed: notAllowed('request.host_not_allowed', 'This server does not answer requests for this host name.'),
  badAddress: invalidInput('request.bad_address', 'The address of this call is not valid.'),
  /** The same words as `badAddress`, for a parameter longer than the router reads (414). */
  addressTooLong: addressTooLong('request.address_too_long', 'The address of this call is not valid.'),
  databaseUnavailable: unavailable('health.database_unavailable', 'The database is not available.'),
  redisUnavailable: unavailable('health.redis_unavailable', 'Redis is not available.'),
  internalError: internal('server.internal_error', 'Something went wrong on our side. Please try again.'),
  /** A request that reached a process already shutting down (SIGTERM): the load balancer sends the retry elsewhere. */
  shuttingDown: unavailable('server.shutting_down', 'This server is restarting. Please try again in a moment.'),
} as const;

/**
 * The catalogue: every refusal the server answers with, by name, each with its stable code, kind and
 * sentence. A code never changes once shipped (tests/server/refusal-codes.test.ts pins them all).
 */
export const REFUSALS = {
  ...generalRefusals,
  ...tradeRefusals,
  ...walletRefusals,
  ...protectionRefusals,
  ...notificationRefusals,
  ...moderationRefusals,
  ...operatorRefusals,
  ...reputationRefusals,
  ...chainRefusals,
} as const;

/** A refusal to throw, by its catalogue name: `throw refuse.methodNotAccepted(asked)`. */
export const refuse = refusersOf(REFUSALS);

/**
 * Every sentence the server answers with, in one place: the web app shows them as they are, so they are
 * written for the person at the screen and never mention internals. The refusals' sentences come from the
 * catalogue; the rest are answers to calls that succeeded.
 */
export const sentences = {
  ...sentencesOf(generalRefusals),
  codeSent: (email: string) => `A verification code has been sent to ${email}`,
  resetCodeSent: (email: string) => `If an account exists for ${email}, a password reset code has been sent to it.`,
  emailVerified: 'Email has been verified successfully',
  passwordReset: 'Password reset successful',
  loggedOut: 'You have been logged out.',
  twoFactorEnabled: 'Two-factor authentication is now on.',
  twoFactorDisabled: 'Two-factor authentication is now off.',
  recoveryCodesRenewed: 'New recovery codes are ready. The old ones no longer work.',
  offerPublished: 'Offer published successfully.',
  offerUpdated: 'Offer updated successfully.',
  offerPaused: 'Offer paused.',
  offerResumed: 'Offer resumed.',
  ...tradeSentences,
  ...walletSentences,
  ...notificationSentences,
  ...moderationSentences,
  ...operatorSentences,
  ...reputationSentences,
} as const;
