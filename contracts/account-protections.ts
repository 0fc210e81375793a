import { z } from 'zod/mini';
import { apiNames, currentPassword } from './common.ts';
import { isBuiltInNetworkKey, networkKey, type BuiltInNetworkKey, type NetworkKey } from './wallet.ts';

/**
 * The account protections of /settings/security (docs/rules.md "Account protections"): the sign-in history with
 * "Sign out everywhere else", an anti-phishing code printed in every mail, and a withdrawal allowlist.
 * Each change is also a security notification. Not re-exported from contracts/index.ts: only the settings
 * page, loaded later, uses it (the first page's download, bench/bundle-size.ts).
 */

// ---- security/sessions/ (signed in) -------------------------------------------------------------------------

/** How many sign-ins the history shows, newest first (live ones and ended ones). */
export const SIGN_IN_HISTORY_LIMIT = 20;

export const sessionsRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('list') }),
  /** Ends every live session of the account except the calling one. */
  z.object({ type: z.literal('sign_out_others') }),
]).register(apiNames, { id: 'SessionsRequest' });
export type SessionsRequest = z.infer<typeof sessionsRequest>;

export const signInEntry = z.object({
  id: z.int(),
  /** When the session was opened (ISO 8601). */
  created: z.string(),
  /** When it was last used (ISO 8601, to the minute: a session writes its last use at most once a minute). */
  last_used: z.string(),
  /** The device description the browser gave at sign-in ("Chrome on Linux (desktop)"); '' when none. */
  device: z.string(),
  /** The client address the sign-in came from (behind `TRUST_PROXY`, the forwarded one); '' for sessions older than the history. */
  ip: z.string(),
  /** "This is you": the session making this call. */
  current: z.boolean(),
  /** Still signed in (not signed out, not revoked, not idle-expired). */
  active: z.boolean(),
});
export type SignInEntry = z.infer<typeof signInEntry>;
export const signInHistory = z.object({ sessions: z.array(signInEntry) }).register(apiNames, { id: 'SignInHistory' });
export type SignInHistory = z.infer<typeof signInHistory>;
/** `sign_out_others`: a sentence to show, and how many sessions it ended. */
export const signOutOthersResponse = z.object({ message: z.string(), signed_out: z.int() }).register(apiNames, { id: 'SignOutOthers' });
export type SignOutOthersResponse = z.infer<typeof signOutOthersResponse>;

// ---- security/anti_phishing/ (signed in) --------------------------------------------------------------------

export const ANTI_PHISHING_CODE_RULES = { min: 4, max: 20 } as const;
/**
 * Letters, digits, spaces, `-` and `_`: printed in mails as is, so nothing in it can be markup or a forged
 * line, and a trader can read it at a glance.
 */
export const antiPhishingCode = z
  .string({ error: 'anti_phishing_code is required' })
  .check(
    z.trim(),
    z.minLength(ANTI_PHISHING_CODE_RULES.min, `Your anti-phishing code needs at least ${ANTI_PHISHING_CODE_RULES.min} characters`),
    z.maxLength(ANTI_PHISHING_CODE_RULES.max, `Your anti-phishing code can have at most ${ANTI_PHISHING_CODE_RULES.max} characters`),
    z.regex(/^[A-Za-z0-9 _-]+$/, 'Your anti-phishing code may use letters, digits, spaces, - and _ only'),
  );

/** Setting or clearing asks for the password again: a stolen session must not choose the code a phisher will print. */
export const antiPhishingRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('status') }),
  z.object({ type: z.literal('set'), anti_phishing_code: antiPhishingCode, password: currentPassword }),
  z.object({ type: z.literal('clear'), password: currentPassword }),
]).register(apiNames, { id: 'AntiPhishingRequest' });
export type AntiPhishingRequest = z.infer<typeof antiPhishingRequest>;
/** Every type answers the code now in force (null: none). */
export const antiPhishingStatus = z.object({ anti_phishing_code: z.nullable(z.string()) }).register(apiNames, { id: 'AntiPhishingStatus' });
export type AntiPhishingStatus = z.infer<typeof antiPhishingStatus>;

// ---- security/withdrawal_allowlist/ (signed in) -------------------------------------------------------------

/** A new address on the list, and the list turned off, wait this long before they widen where coins may go. */
export const ALLOWLIST_WAIT_HOURS = 24;
export const ALLOWLIST_MAX_ADDRESSES = 50;

/** The chains as the allowlist names them, on the Security page and in its sentences (a network key may carry several coins: ETH and USDT on ethereum). */
export const NETWORK_NAMES: Readonly<Record<BuiltInNetworkKey, string>> = {
  bitcoin: 'Bitcoin',
  ethereum: 'Ethereum',
  tron: 'Tron',
  litecoin: 'Litecoin',
};
/**
 * A network's name where no `coin_networks` row is at hand: the built-in name, or the key written as words
 * (`polygon` → Polygon, `bnb_smart_chain` → Bnb Smart Chain) for an EVM network an operator configured.
 */
export const networkName = (key: NetworkKey): string =>
  isBuiltInNetworkKey(key) ? NETWORK_NAMES[key] : key.split('_').map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');
/** The allowlist's network choices, by name: the networks the server said it carries (AllowlistStatus `networks`). */
export const networkChoices = (keys: readonly NetworkKey[]) => keys.map((key) => ({ value: key, label: networkName(key) }));

const allowlistAddress = z
  .string({ error: 'address is required' })
  .check(z.trim(), z.minLength(1, 'address is required'), z.maxLength(128, 'address is not an address'));
const allowlistLabel = z._default(
  z.optional(z.string().check(z.trim(), z.maxLength(40, 'label can have at most 40 characters'), z.regex(/^[^\p{Cc}\p{Cf}]*$/u, 'label must be plain text'))),
  '',
);
const allowlistEntryId = z.int({ error: 'id must be an address id' }).check(z.gte(1, 'id must be an address id'), z.lte(Number.MAX_SAFE_INTEGER));

/**
 * Turning the list on, and removing an address, only narrow where coins may go: they apply at once and ask
 * nothing more. Adding an address and turning the list off widen it: they ask for the password, and take
 * effect only after `ALLOWLIST_WAIT_HOURS`, so a thief with the session and the password still cannot
 * empty the wallet before the owner, notified at once, steps in.
 */
export const allowlistRequest = z.discriminatedUnion('type', [
  z.object({ type: z.literal('status') }),
  z.object({ type: z.literal('enable') }),
  z.object({ type: z.literal('disable'), password: currentPassword }),
  // Any network the server carries (the status's `networks`); the server refuses a key it does not know.
  z.object({ type: z.literal('add'), network: networkKey, address: allowlistAddress, label: allowlistLabel, password: currentPassword }),
  z.object({ type: z.literal('remove'), id: allowlistEntryId }),
]).register(apiNames, { id: 'AllowlistRequest' });
export type AllowlistRequest = z.infer<typeof allowlistRequest>;

export const allowlistEntry = z.object({
  id: z.int(),
  network: networkKey,
  address: z.string(),
  label: z.string(),
  created: z.string(),
  /** From when withdrawals may go to it (ISO 8601): `created` + `ALLOWLIST_WAIT_HOURS`. */
  usable_from: z.string(),
});
export type AllowlistEntry = z.infer<typeof allowlistEntry>;

/**
 * Every type answers the list now. `enabled` is the switch; `enforced_until` is set after turning it off:
 * until then withdrawals still go only to usable listed addresses (null: enforced exactly while enabled).
 */
export const allowlistStatus = z.object({
  enabled: z.boolean(),
  enforced_until: z.nullable(z.string()),
  addresses: z.array(allowlistEntry),
  /** The networks an address can be listed on (an addition): the built-in ones, then any EVM network the operator added. */
  networks: z.array(networkKey),
}).register(apiNames, { id: 'AllowlistStatus' });
export type AllowlistStatus = z.infer<typeof allowlistStatus>;
