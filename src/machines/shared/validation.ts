import { z } from 'zod/mini';
import { canonicalRecoveryCode, email, messages, password, secondFactor, username } from '../../../contracts/index.ts';
import { amountRangeProblem } from '../../../domain/money.ts';

/**
 * The field rules of the forms, from the contracts the server checks with, so that a form accepts exactly
 * what the server accepts. The charts do not import these (each chart's file stands alone): the rules reach
 * them as named guards (shared/rules.ts), and the selectors word the messages with them.
 */

/** The first message of a failed check, or undefined: the forms show one message per field. */
const firstError = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? undefined : result.error?.issues[0]?.message;

export const emailError = (value: string) => firstError(z.safeParse(email, value));
export const usernameError = (value: string) => firstError(z.safeParse(username, value));
export const passwordError = (value: string) => firstError(z.safeParse(password, value));
export const confirmPasswordError = (value: string, passwordValue: string) =>
  value === passwordValue ? undefined : messages.passwordsDoNotMatch;

/** The messages of an email, a new password and its confirmation (sign-up, the password reset). */
export const newPasswordErrors = (fields: { email: string; password: string; confirmPassword: string }) => ({
  email: emailError(fields.email),
  password: passwordError(fields.password),
  confirmPassword: confirmPasswordError(fields.confirmPassword, fields.password),
});
/** Those messages as a form shows them: none until a submit revealed them. */
export type NewPasswordErrors = Partial<ReturnType<typeof newPasswordErrors>>;

export const isRecoveryCode = (value: string) => canonicalRecoveryCode(value) !== undefined;
/** An authenticator code or one of the recovery codes, for the forms that take either. */
export const isSecondFactor = (value: string) => z.safeParse(secondFactor, value).success;

/**
 * The Trade Preview dialog's message for a typed amount: outside the offer's range (the rule and words the
 * server applies too), or more places than fiat has. Undefined when it is fine, or still empty.
 */
export function amountError(amount: string, offer: { min_amount: string; max_amount: string }): string | undefined {
  if (amount.trim() === '') return undefined;
  const outOfRange = amountRangeProblem(amount, { min: offer.min_amount, max: offer.max_amount });
  if (outOfRange) return outOfRange;
  // Fiat has cents only; the server refuses more, and a refused preview shows nothing.
  if ((amount.trim().split('.')[1]?.length ?? 0) > 2) return 'Amount can have at most 2 decimal places';
  return undefined;
}
