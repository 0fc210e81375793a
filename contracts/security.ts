import { z } from 'zod/mini';
import { code, device, email, password, username } from './common.ts';
import { messages } from './messages.ts';

export const user = z.object({
  username: z.string(),
  email: z.string(),
  websocket_token: z.string(),
});
export type User = z.infer<typeof user>;

/** security/login/ — `username` may also be the account's email. */
export const loginRequest = z.object({
  username: z
    .string({ error: messages.usernameRequired })
    .check(z.trim(), z.minLength(1, messages.usernameRequired), z.maxLength(254, messages.loginNameTooLong)),
  password: z
    .string({ error: messages.passwordRequired })
    .check(z.minLength(1, messages.passwordRequired), z.maxLength(128, messages.passwordTooLong)),
  device,
});
export const loginResponse = z.discriminatedUnion('two_factor', [
  z.object({ two_factor: z.literal(false), token: z.string(), user }),
  /** `token` is the interim token that only security/two_factor_login/ accepts. */
  z.object({ two_factor: z.literal(true), token: z.string(), user: z.object({ username: z.string() }) }),
]);
export type LoginResponse = z.infer<typeof loginResponse>;

export const twoFactorLoginRequest = z.object({ code, token: z.string().check(z.minLength(1), z.maxLength(200)), device });
export const sessionResponse = z.object({ token: z.string(), user });
export type SessionResponse = z.infer<typeof sessionResponse>;

export const validateEmailRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('request'), email }),
  z.object({ type: z.literal('verify'), email, code }),
]);

const passwordsMatch = z.refine<{ password: string; confirmPassword: string }>((body) => body.password === body.confirmPassword, {
  message: messages.passwordsDoNotMatch,
  path: ['confirmPassword'],
});

export const registerRequest = z
  .object({ email, device, username, password, confirmPassword: z.string() })
  .check(passwordsMatch);

export const resetPasswordRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('request'), email }),
  z
    .object({ type: z.literal('reset'), email, code, password, confirmPassword: z.string() })
    .check(passwordsMatch),
]);

export const logoutRequest = z.looseObject({ device });

export const twoFactorRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('setup') }),
  z.object({ type: z.literal('enable'), code }),
  z.object({ type: z.literal('disable'), code }),
  z.object({ type: z.literal('status') }),
]);
export const twoFactorSetupResponse = z.object({ secret: z.string(), otpauth_url: z.string() });
export const twoFactorStatusResponse = z.object({ enabled: z.boolean() });

/** A message answer: `info` is a sentence to show. */
export const messageResponse = z.string();
