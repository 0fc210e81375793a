import { code, email, messages, password, username } from '../../../contracts/index.ts';

/** The first message of a failed check, or undefined: the forms show one message per field. */
const firstError = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? undefined : result.error?.issues[0]?.message;

export const emailError = (value: string) => firstError(email.safeParse(value));
export const codeError = (value: string) => firstError(code.safeParse(value));
export const usernameError = (value: string) => firstError(username.safeParse(value));
export const passwordError = (value: string) => firstError(password.safeParse(value));
export const confirmPasswordError = (value: string, passwordValue: string) =>
  value === passwordValue ? undefined : messages.passwordsDoNotMatch;

/** Spec section 5: the code fields accept digits only, up to 6. */
export const toCodeInput = (value: string) => value.replace(/\D/g, '').slice(0, 6);
