import { i18n, type I18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { messages as rules } from '../../contracts/messages.ts';

/**
 * The English sentences the web app receives rather than writes, in the visitor's language: the field rules' words
 * (contracts/messages.ts, which the server checks with too), the charts' toasts (machines/<flow>/*.machine.ts), and
 * the server's answers on the signed-out pages (server/src/sentences.ts, the mails' confirmations). Each key is the
 * English exactly as it arrives, and its message the same English (tests/ui/i18n.test.ts checks both); a sentence
 * not listed shows as it came, in English. Once the server's refusals carry their code to every screen, the codes
 * will key the signed-in pages' sentences instead (docs/i18n.md "What is left").
 */
const SENTENCES = new Map<string, MessageDescriptor>([
  [rules.invalidEmail, msg`Please enter a valid email address`],
  [rules.invalidCode, msg`Please enter a valid 6-digit verification code`],
  [rules.usernameTooShort, msg`Username must be at least 3 characters`],
  [rules.usernameTooLong, msg`Username must be at most 30 characters`],
  [rules.usernameCharacters, msg`Username may only contain letters, digits and _`],
  [rules.passwordTooShort, msg`Password must be at least 6 characters`],
  [rules.passwordTooLong, msg`Password must be at most 128 characters`],
  [rules.passwordsDoNotMatch, msg`Passwords do not match`],
  [rules.usernameRequired, msg`Username is required`],
  [rules.passwordRequired, msg`Password is required`],
  [rules.loginNameTooLong, msg`Username or email must be at most 254 characters`],
  [rules.sessionExpired, msg`Session expired`],
  [rules.currentPasswordRequired, msg`Please enter your password`],
  [rules.invalidRecoveryCode, msg`Please enter a recovery code like abcde-fghij`],
  [rules.invalidSecondFactor, msg`Please enter a 6-digit authentication code or a recovery code`],
  // The signed-out flows' toasts (login, signup, passwordReset charts).
  ['Welcome back!', msg`Welcome back!`],
  ['Successfully logged in.', msg`Successfully logged in.`],
  ['OTP Sent', msg`OTP Sent`],
  ['Successful', msg`Successful`],
  ['Email has been verified successfully', msg`Email has been verified successfully`],
  ['Signup Successful!', msg`Signup Successful!`],
  ['Password reset successful', msg`Password reset successful`],
  ['Kindly login with your new password', msg`Kindly login with your new password`],
  // The server's refusals on the signed-out pages (server/src/sentences.ts).
  ['Invalid username or password.', msg`Invalid username or password.`],
  ['Invalid authentication code.', msg`Invalid authentication code.`],
  ['Too many wrong codes. Please sign in again.', msg`Too many wrong codes. Please sign in again.`],
  ['This sign-in has expired. Please enter your username and password again.', msg`This sign-in has expired. Please enter your username and password again.`],
  ['This account is suspended. Please contact support.', msg`This account is suspended. Please contact support.`],
  ['Invalid recovery code.', msg`Invalid recovery code.`],
  ['An account with this email already exists.', msg`An account with this email already exists.`],
  ['This username is already taken.', msg`This username is already taken.`],
  ['This username is not available', msg`This username is not available`],
  ['Please verify your email address first.', msg`Please verify your email address first.`],
  ['This verification code has expired. Please request a new one.', msg`This verification code has expired. Please request a new one.`],
  ['Invalid verification code.', msg`Invalid verification code.`],
  ['Too many wrong codes. Please request a new one.', msg`Too many wrong codes. Please request a new one.`],
  ['Please wait a minute before requesting another code.', msg`Please wait a minute before requesting another code.`],
  [
    'Too many codes were requested for this email. Please try again in an hour.',
    msg`Too many codes were requested for this email. Please try again in an hour.`,
  ],
  ['We could not send the email right now. Please try again in a few minutes.', msg`We could not send the email right now. Please try again in a few minutes.`],
  ['Too many requests. Please slow down and try again in a minute.', msg`Too many requests. Please slow down and try again in a minute.`],
]);

/** The server's sentences with a value in them, recognised by their shape. */
const SHAPED: { pattern: RegExp; message: (values: string[]) => MessageDescriptor }[] = [
  {
    pattern: /^A verification code has been sent to (.+)$/,
    message: ([email]) => msg`A verification code has been sent to ${email}`,
  },
  {
    pattern: /^If an account exists for (.+), a password reset code has been sent to it\.$/,
    message: ([email]) => msg`If an account exists for ${email}, a password reset code has been sent to it.`,
  },
  {
    pattern: /^Too many failed sign-in attempts\. Please try again in (\d+) minutes\.$/,
    message: ([minutes]) => msg`Too many failed sign-in attempts. Please try again in ${minutes} minutes.`,
  },
];

/** `english` in the active language when it is a sentence the app knows, else as it is. */
export function translateSentence(english: string, within: I18n = i18n): string {
  const known = SENTENCES.get(english);
  if (known) return within._(known);
  for (const { pattern, message } of SHAPED) {
    const match = pattern.exec(english);
    if (match) return within._(message(match.slice(1)));
  }
  return english;
}

/** An optional sentence (a field's error), translated when there is one. */
export const translateOptional = (english: string | undefined, within: I18n = i18n) =>
  english === undefined ? undefined : translateSentence(english, within);

/** For tests: every known sentence, as its key and its English message. */
export const knownSentences = () => [...SENTENCES].map(([english, descriptor]) => ({ english, descriptor }));
