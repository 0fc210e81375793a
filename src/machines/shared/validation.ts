import { z } from 'zod/mini';
import { canonicalRecoveryCode, code, email, messages, password, username } from '../../../contracts/index.ts';

/** The first message of a failed check, or undefined: the forms show one message per field. */
const firstError = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? undefined : result.error?.issues[0]?.message;

export const emailError = (value: string) => firstError(z.safeParse(email, value));
export const codeError = (value: string) => firstError(z.safeParse(code, value));
export const usernameError = (value: string) => firstError(z.safeParse(username, value));
export const passwordError = (value: string) => firstError(z.safeParse(password, value));
export const confirmPasswordError = (value: string, passwordValue: string) =>
  value === passwordValue ? undefined : messages.passwordsDoNotMatch;

/** Spec section 5: the code fields accept digits only, up to 6. */
export const toCodeInput = (value: string) => value.replace(/\D/g, '').slice(0, 6);

/** A recovery code as typed (`abcde-fghij`): letters, digits, dashes and spaces, at most a little over its length. */
export const toRecoveryCodeInput = (value: string) => value.replace(/[^A-Za-z0-9\s-]/g, '').slice(0, 13);

/** An authenticator code or a recovery code, for the forms that take either. */
export const toSecondFactorInput = (value: string) => (/^\s*\d/.test(value) ? toCodeInput(value) : toRecoveryCodeInput(value));

export const isRecoveryCode = (value: string) => canonicalRecoveryCode(value) !== undefined;
export const isSecondFactor = (value: string) => /^\d{6}$/.test(value) || isRecoveryCode(value);
