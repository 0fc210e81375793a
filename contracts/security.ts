import { z } from 'zod/mini';
import { apiNames, code, currentPassword, device, deviceId, email, password, recoveryCode, secondFactor, username } from './common.ts';
import { messages } from './messages.ts';

/** Granted only from the command line (`npm run user:role`), never through the API. */
export const userRole = z.enum(['trader', 'moderator', 'operator']);
export type UserRole = z.infer<typeof userRole>;

export const user = z.object({
  username: z.string(),
  email: z.string(),
  websocket_token: z.string(),
  /** An addition: moderators see the dispute desk. Sessions stored before it carry none (a trader). */
  role: z.optional(userRole),
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
  device_id: deviceId,
}).register(apiNames, { id: 'LoginRequest' });
export const loginResponse = z.discriminatedUnion('two_factor', [
  z.object({ two_factor: z.literal(false), token: z.string(), user }),
  /** `token` is the interim token that only security/two_factor_login/ accepts. */
  z.object({ two_factor: z.literal(true), token: z.string(), user: z.object({ username: z.string() }) }),
]).register(apiNames, { id: 'LoginAnswer' });
export type LoginResponse = z.infer<typeof loginResponse>;

/**
 * security/two_factor_login/ — the interim token with either the authenticator `code` or, for a trader
 * without the phone, one of the `recovery_code`s shown at enrolment (spent by signing in).
 */
export const twoFactorLoginRequest = z
  .object({
    code: z.optional(code),
    recovery_code: z.optional(recoveryCode),
    token: z.string().check(z.minLength(1), z.maxLength(200)),
    device,
    device_id: deviceId,
  })
  .check(
    z.refine((body) => body.code !== undefined || body.recovery_code !== undefined, { message: messages.invalidCode, path: ['code'] }),
    z.refine((body) => body.code === undefined || body.recovery_code === undefined, {
      message: 'Send either code or recovery_code, not both',
      path: ['recovery_code'],
    }),
  ).register(apiNames, { id: 'TwoFactorLoginRequest' });
export type TwoFactorLoginRequest = z.input<typeof twoFactorLoginRequest>;
export const sessionResponse = z.object({ token: z.string(), user }).register(apiNames, { id: 'Session' });
export type SessionResponse = z.infer<typeof sessionResponse>;

export const validateEmailRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('request'), email }),
  z.object({ type: z.literal('verify'), email, code }),
]).register(apiNames, { id: 'ValidateEmailRequest' });

const passwordsMatch = z.refine<{ password: string; confirmPassword: string }>((body) => body.password === body.confirmPassword, {
  message: messages.passwordsDoNotMatch,
  path: ['confirmPassword'],
});

export const registerRequest = z
  .object({ email, device, device_id: deviceId, username, password, confirmPassword: z.string() })
  .check(passwordsMatch).register(apiNames, { id: 'RegisterRequest' });

export const resetPasswordRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('request'), email }),
  z
    .object({ type: z.literal('reset'), email, code, password, confirmPassword: z.string() })
    .check(passwordsMatch),
]).register(apiNames, { id: 'ResetPasswordRequest' });

export const logoutRequest = z.looseObject({ device }).register(apiNames, { id: 'LogoutRequest' });

/**
 * security/two_factor/ (signed in). Every change asks for the account's password again, so a stolen session
 * alone cannot turn two-factor on with the thief's secret or off. `enable` proves the new secret with its
 * code; `disable` and `recovery_codes` (a new set) take an authenticator code or a recovery code, so an owner
 * who lost the phone can still get out.
 */
export const twoFactorRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('setup') }),
  z.object({ type: z.literal('enable'), code, password: currentPassword }),
  z.object({ type: z.literal('disable'), code: secondFactor, password: currentPassword }),
  z.object({ type: z.literal('recovery_codes'), code: secondFactor, password: currentPassword }),
  z.object({ type: z.literal('status') }),
]).register(apiNames, { id: 'TwoFactorRequest' });
export const twoFactorSetupResponse = z.object({ secret: z.string(), otpauth_url: z.string() }).register(apiNames, { id: 'TwoFactorSetup' });
/** `recovery_codes_left`: unused recovery codes (0 while two-factor is off). */
export const twoFactorStatusResponse = z.object({ enabled: z.boolean(), recovery_codes_left: z.int() }).register(apiNames, { id: 'TwoFactorStatus' });
/** `enable` and `recovery_codes`: the recovery codes in clear, this once; the server keeps only their hashes. */
export const recoveryCodesResponse = z.object({ message: z.string(), recovery_codes: z.array(z.string()) }).register(apiNames, { id: 'RecoveryCodes' });
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponse>;

/** A message answer: `info` is a sentence to show. */
export const messageResponse = z.string().register(apiNames, { id: 'Message' });

// ---- security/confirmation/ (signed in) ---------------------------------------------------------------------

/**
 * The second proof releasing escrow asks for (docs/rules.md "Trades"): the account's password, or, with
 * two-factor on, a current authenticator code.
 */
export const confirmationProof = z.enum(['password', 'code']);
export type ConfirmationProof = z.infer<typeof confirmationProof>;
export const confirmationRequest = z.discriminatedUnion('type', [z.object({ type: z.literal('status') })]).register(apiNames, { id: 'ConfirmationRequest' });
/**
 * `status`: what a release by this session asks for now, so the web app asks only when needed: `proof` is null
 * while the session's confirmation window is open (a proof given in the last 10 minutes).
 */
export const confirmationStatus = z.object({ proof: z.nullable(confirmationProof) }).register(apiNames, { id: 'ConfirmationStatus' });
export type ConfirmationStatus = z.infer<typeof confirmationStatus>;
