import { z } from 'zod/mini';
import {
  loginResponse,
  messageResponse,
  overview,
  recoveryCodesResponse,
  sessionResponse,
  twoFactorSetupResponse,
  twoFactorStatusResponse,
  walletList,
} from '../../contracts/index.ts';
import { ApiError, type Api } from './api.ts';

/**
 * The sign-in attempt between password and second factor is over (expired, used up, ended by a password
 * reset): the server says so with 409 and a sentence, which the shared handling shows. The login chart then
 * goes back to the password, which is the only way on.
 */
export class SignInExpired extends ApiError {
  readonly kind = 'signInExpired';
  constructor(message: string) {
    super(message, 409);
    this.name = 'SignInExpired';
  }
}

/**
 * The account calls (docs/api.md "Security calls", "User calls"), one function each. `device` describes the browser;
 * `deviceId`, read at each sign-in, answers the id this browser keeps (storage.ts), sent as `device_id` so that a
 * sign-in from it is not announced again (server/src/accounts/README.md "New sign-ins").
 */
export function createAccountService(api: Api, device: string, deviceId: () => string | null = () => null) {
  const from = () => {
    const id = deviceId();
    return id === null ? { device } : { device, device_id: id };
  };
  return {
    login: (input: { username: string; password: string }) =>
      api.write('security/login/', { ...input, ...from() }, loginResponse),
    /** The second step of a two-factor login, with an authenticator code or a recovery code. */
    twoFactorLogin: (input: { token: string } & ({ code: string } | { recovery_code: string })) =>
      api.write('security/two_factor_login/', { ...input, ...from() }, sessionResponse).catch((error: unknown) => {
        throw error instanceof ApiError && error.status === 409 ? new SignInExpired(error.message) : error;
      }),
    requestEmailCode: (input: { email: string }) =>
      api.write('security/validate_email/', { type: 'request', ...input }, messageResponse),
    verifyEmailCode: (input: { email: string; code: string }) =>
      api.write('security/validate_email/', { type: 'verify', ...input }, messageResponse),
    register: (input: { email: string; username: string; password: string; confirmPassword: string }) =>
      api.write('security/register/', { ...input, ...from() }, sessionResponse),
    requestPasswordReset: (input: { email: string }) =>
      api.write('security/reset_password/', { type: 'request', ...input }, messageResponse),
    resetPassword: (input: { email: string; code: string; password: string; confirmPassword: string }) =>
      api.write('security/reset_password/', { type: 'reset', ...input }, messageResponse),
    logout: () => api.write('security/logout/', { device }, z.unknown(), { noToast: true }),
    twoFactorStatus: () => api.read('security/two_factor/', { type: 'status' }, twoFactorStatusResponse),
    twoFactorSetup: () => api.write('security/two_factor/', { type: 'setup' }, twoFactorSetupResponse),
    twoFactorEnable: (input: { code: string; password: string }) =>
      api.write('security/two_factor/', { type: 'enable', ...input }, recoveryCodesResponse),
    twoFactorDisable: (input: { code: string; password: string }) =>
      api.write('security/two_factor/', { type: 'disable', ...input }, messageResponse),
    twoFactorRenewRecoveryCodes: (input: { code: string; password: string }) =>
      api.write('security/two_factor/', { type: 'recovery_codes', ...input }, recoveryCodesResponse),
    /** An overview failure is silent and yields null, so the dashboard shows 0s. */
    overview: () => api.read('user/overview/', {}, overview, { noToast: true }).catch(() => null),
    /**
     * The trader's wallets: available balance and current USD price of each coin. Quiet on failure: the
     * dashboard then shows no live prices and keeps the overview's total.
     */
    wallets: () => api.read('user/wallet/', { type: 'list' }, walletList, { noToast: true }),
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
