import {
  allowlistStatus,
  antiPhishingStatus,
  signInHistory,
  signOutOthersResponse,
  type AllowlistRequest,
} from '../../contracts/account-protections.ts';
import type { Api } from './api.ts';

type AllowlistAddition = Omit<Extract<AllowlistRequest, { type: 'add' }>, 'type'>;

/**
 * The account protections of /settings/security (contracts/account-protections.ts), one function each.
 * It comes in the settings page's chunk, made there from the shared API client, not
 * in app.tsx: even a lazyService's loader there would put /login's first visit over its budget.
 */
export function createAccountProtectionService(api: Api) {
  return {
    signInHistory: () => api.read('security/sessions/', { type: 'list' }, signInHistory),
    signOutOthers: () => api.write('security/sessions/', { type: 'sign_out_others' }, signOutOthersResponse),
    antiPhishingStatus: () => api.read('security/anti_phishing/', { type: 'status' }, antiPhishingStatus),
    setAntiPhishingCode: (input: { anti_phishing_code: string; password: string }) =>
      api.write('security/anti_phishing/', { type: 'set', ...input }, antiPhishingStatus),
    clearAntiPhishingCode: (input: { password: string }) =>
      api.write('security/anti_phishing/', { type: 'clear', ...input }, antiPhishingStatus),
    allowlistStatus: () => api.read('security/withdrawal_allowlist/', { type: 'status' }, allowlistStatus),
    enableAllowlist: () => api.write('security/withdrawal_allowlist/', { type: 'enable' }, allowlistStatus),
    disableAllowlist: (input: { password: string }) =>
      api.write('security/withdrawal_allowlist/', { type: 'disable', ...input }, allowlistStatus),
    addAllowlistAddress: (input: AllowlistAddition) =>
      api.write('security/withdrawal_allowlist/', { type: 'add', ...input }, allowlistStatus),
    removeAllowlistAddress: (input: { id: number }) =>
      api.write('security/withdrawal_allowlist/', { type: 'remove', ...input }, allowlistStatus),
  };
}

export type AccountProtectionService = ReturnType<typeof createAccountProtectionService>;

