import {
  ALLOWLIST_MAX_ADDRESSES,
  ALLOWLIST_WAIT_HOURS,
  networkName,
  SIGN_IN_HISTORY_LIMIT,
  type AllowlistRequest,
  type AllowlistStatus,
  type AntiPhishingStatus,
  type SignInEntry,
  type SignInHistory,
  type SignOutOthersResponse,
} from '../../../contracts/account-protections.ts';
import { isBuiltInNetworkKey, NETWORK_KEYS, type NetworkKey } from '../../../contracts/wallet.ts';
import type { Queryable } from '../infra/db/db.ts';
import { securityMail, type SecurityEvent } from './account-mails.ts';
import { notify } from '../notifications/notify.ts';
import { securityTexts, utcMinuteUp } from '../notifications/texts.ts';
import { idleLimitOf } from './sessions.plugin.ts';
import { accountKey } from './login-guard.plugin.ts';
import type { Refusal } from '../refusals.ts';
import { sessionsRepository, type SessionHistoryRow } from './sessions.repository.ts';
import { usersRepository, userProtectionsRepository, type UserRow } from './users.repository.ts';
import { withdrawalAllowlistRepository, type AllowlistRow } from './withdrawal-allowlist.repository.ts';
import { refuse } from '../sentences.ts';
import { chainNetworkOf } from '../wallets/networks.ts';
import { passwordCheck, type AccountsDeps } from './accounts.ts';
import { protectionSentences } from './protections-sentences.ts';

const HOUR_MS = 3_600_000;
const ALLOWLIST_WAIT_MS = ALLOWLIST_WAIT_HOURS * HOUR_MS;

export type ProtectionsDeps = Pick<AccountsDeps, 'db' | 'now' | 'passwords' | 'loginGuard' | 'announce' | 'mailer' | 'sessions'> & {
  /** SESSION_IDLE_DAYS: a session unused this long is no longer signed in (accounts/sessions.plugin.ts). */
  sessionIdleDays: number;
};

/** The signed-in caller: their session, and the address they call from (for the password's lockout). */
export interface Caller {
  sessionId: string;
  userId: string;
  client: string;
}

type AddAsk = Extract<AllowlistRequest, { type: 'add' }>;

/**
 * One sign-in of the history as its owner sees it, and as an operator's page of the trader shows it (no session is
 * the operator's own: `currentSessionId` undefined). Sessions last used at or before `idleBefore` are idle-expired.
 */
export const signInEntryOf = (row: SessionHistoryRow, idleBefore: Date, currentSessionId?: string): SignInEntry => ({
  id: Number(row.id),
  created: row.created_at.toISOString(),
  last_used: row.last_used_at.toISOString(),
  device: row.device,
  ip: row.client_address,
  current: row.id === currentSessionId,
  active: row.revoked_at === null && row.last_used_at > idleBefore,
});

const entryOf = (row: AllowlistRow) => ({
  id: Number(row.id),
  network: row.network,
  address: row.address,
  label: row.label,
  created: row.created_at.toISOString(),
  usable_from: row.usable_from.toISOString(),
});

/** Whether the allowlist binds withdrawals now: switched on, or switched off less than the wait ago. */
const isEnforced = (row: { withdrawal_allowlist: boolean; withdrawal_allowlist_enforced_until: Date | null }, now: Date) =>
  row.withdrawal_allowlist || (row.withdrawal_allowlist_enforced_until !== null && row.withdrawal_allowlist_enforced_until > now);

/**
 * Why a withdrawal to `recipient` (as the network writes it) must not go while the user's allowlist applies,
 * or undefined when it may. Read with `q`, so confirm re-checks inside its own transaction: a list changed
 * since the preview counts. `hold` (confirm) share-locks what it read until that transaction ends: a removal
 * or "on" in progress is waited for and counts, and one that comes later waits, so none answers before a
 * withdrawal it should have stopped commits.
 */
export async function allowlistRefusal(
  q: Queryable,
  userId: string,
  network: NetworkKey,
  recipient: string,
  now: Date,
  hold = false,
): Promise<Refusal | undefined> {
  const protections = await userProtectionsRepository(q).find(userId, hold && 'share');
  if (!protections || !isEnforced(protections, now)) return undefined;
  const entry = await withdrawalAllowlistRepository(q).find(userId, network, recipient, hold);
  if (!entry) return refuse.recipientNotListed(networkName(network), ALLOWLIST_WAIT_HOURS);
  if (entry.usable_from > now) return refuse.recipientWaiting(ALLOWLIST_WAIT_HOURS, utcMinuteUp(entry.usable_from));
  return undefined;
}

/**
 * The account protections of /settings/security (docs/rules.md "Account protections"): the sign-in history
 * with "Sign out everywhere else", the anti-phishing code and the withdrawal allowlist. Each change is also a
 * security notification; a change a stolen session must not make asks for the password again, which counts
 * towards the sign-in lockout like two-factor's.
 */
export function protectionsService(deps: ProtectionsDeps) {
  const { db } = deps;
  const assertPassword = passwordCheck(deps);
  /**
   * A change made with the password is mailed as well as notified: the session that made it can mark the bell's
   * notification read, but cannot reach the owner's inbox. Sent after the change commits, so the mail carries
   * the anti-phishing code now in force.
   */
  const tellOwner = (owner: UserRow, event: SecurityEvent) => deps.mailer.sendInBackground(securityMail(owner, event, deps.now()));

  async function ownerRow(userId: string): Promise<UserRow> {
    const user = await usersRepository(db).findById(userId);
    if (!user) throw refuse.sessionExpired();
    return user;
  }

  async function confirmPassword(caller: Caller, password: string): Promise<UserRow> {
    const user = await ownerRow(caller.userId);
    await assertPassword(user, password, { key: accountKey(user, user.username), client: caller.client });
    return user;
  }

  /**
   * Writes a change and its notification in one transaction, then announces the notification, after the sessions
   * the change ended (`ended`) are said to have ended: their sockets close before the announcement could reach them.
   */
  async function changeAndTell<T>(
    change: (tx: Queryable, now: Date) => Promise<{ result: T; tell: Parameters<typeof notify>[1]; ended?: string[] }>,
  ): Promise<T> {
    const { result, notified, ended } = await db.transaction(async (tx) => {
      const now = deps.now();
      const { result, tell, ended } = await change(tx, now);
      return { result, ended, notified: tell.length === 0 ? [] : await notify(tx, tell, now) };
    });
    if (ended) deps.sessions.ended(ended);
    await deps.announce(notified);
    return result;
  }

  /**
   * The networks an address can be listed on: those a coin travels on whose addresses this server can check
   * (wallets/networks.ts chainNetworkOf), the built-in ones in their order, then the others by key.
   */
  const listableNetworks = (carried: readonly string[]): NetworkKey[] => {
    const known = new Set(carried.filter((key) => chainNetworkOf(key) !== undefined));
    return [...NETWORK_KEYS.filter((key) => known.has(key)), ...[...known].filter((key) => !isBuiltInNetworkKey(key)).sort()];
  };

  async function allowlistStatus(q: Queryable, userId: string): Promise<AllowlistStatus> {
    const protections = await userProtectionsRepository(q).find(userId);
    if (!protections) throw refuse.sessionExpired();
    const until = protections.withdrawal_allowlist_enforced_until;
    return {
      enabled: protections.withdrawal_allowlist,
      // A wait that is over means nothing any more: "enforced exactly while enabled".
      enforced_until: !protections.withdrawal_allowlist && until !== null && until > deps.now() ? until.toISOString() : null,
      addresses: (await withdrawalAllowlistRepository(q).listOfUser(userId)).map(entryOf),
      networks: listableNetworks(await withdrawalAllowlistRepository(q).carriedNetworks()),
    };
  }

  return {
    /** The newest SIGN_IN_HISTORY_LIMIT sessions of the caller's account, live and ended, the caller's marked. */
    async signInHistory(caller: Caller): Promise<SignInHistory> {
      const idleBefore = idleLimitOf(deps.now(), deps.sessionIdleDays);
      const rows = await sessionsRepository(db).newestOfUser(caller.userId, SIGN_IN_HISTORY_LIMIT);
      return { sessions: rows.map((row) => signInEntryOf(row, idleBefore, caller.sessionId)) };
    },

    /** Ends every other live session of the account; the calling one stays. */
    async signOutOthers(caller: Caller): Promise<SignOutOthersResponse> {
      const count = await changeAndTell(async (tx, now) => {
        const { ids, live } = await sessionsRepository(tx).revokeOthersOfUser(caller.userId, caller.sessionId, now, idleLimitOf(now, deps.sessionIdleDays));
        // The owner says those sessions were not (or are no longer) theirs: their devices and addresses are new again.
        await usersRepository(tx).disownSignIns(caller.userId, now);
        return { result: live, ended: ids, tell: live === 0 ? [] : [securityTexts.signedOutElsewhere(caller.userId, live)] };
      });
      return { message: protectionSentences.signedOutOthers(count), signed_out: count };
    },

    async antiPhishingStatus(userId: string): Promise<AntiPhishingStatus> {
      const protections = await userProtectionsRepository(db).find(userId);
      if (!protections) throw refuse.sessionExpired();
      return { anti_phishing_code: protections.anti_phishing_code };
    },

    async setAntiPhishingCode(caller: Caller, code: string, password: string): Promise<AntiPhishingStatus> {
      const owner = await confirmPassword(caller, password);
      const status = await changeAndTell(async (tx) => {
        await userProtectionsRepository(tx).setAntiPhishingCode(caller.userId, code);
        return { result: { anti_phishing_code: code }, tell: [securityTexts.antiPhishingCodeChanged(caller.userId, true)] };
      });
      tellOwner(owner, { kind: 'antiPhishingCodeSet' });
      return status;
    },

    /** Clearing a code that is not set changes nothing and tells nobody. */
    async clearAntiPhishingCode(caller: Caller, password: string): Promise<AntiPhishingStatus> {
      const owner = await confirmPassword(caller, password);
      const cleared = await changeAndTell(async (tx) => {
        const before = await userProtectionsRepository(tx).find(caller.userId, true);
        if (before?.anti_phishing_code == null) return { result: false, tell: [] };
        await userProtectionsRepository(tx).setAntiPhishingCode(caller.userId, null);
        return { result: true, tell: [securityTexts.antiPhishingCodeChanged(caller.userId, false)] };
      });
      if (cleared) tellOwner(owner, { kind: 'antiPhishingCodeRemoved' });
      return { anti_phishing_code: null };
    },

    allowlistStatus: (userId: string) => allowlistStatus(db, userId),

    /** On at once (it only narrows where coins may go); a wait left from turning it off ends. Already on: nothing changes. */
    async enableAllowlist(userId: string): Promise<AllowlistStatus> {
      return changeAndTell(async (tx) => {
        const before = await userProtectionsRepository(tx).find(userId, true);
        if (!before) throw refuse.sessionExpired();
        if (before.withdrawal_allowlist) return { result: await allowlistStatus(tx, userId), tell: [] };
        await userProtectionsRepository(tx).enableAllowlist(userId);
        return { result: await allowlistStatus(tx, userId), tell: [securityTexts.withdrawalAllowlistOn(userId)] };
      });
    },

    /** Off, with the password; it still applies for ALLOWLIST_WAIT_HOURS, so a thief cannot switch it off and withdraw at once. */
    async disableAllowlist(caller: Caller, password: string): Promise<AllowlistStatus> {
      const owner = await confirmPassword(caller, password);
      const { status, until } = await changeAndTell(async (tx, now) => {
        const before = await userProtectionsRepository(tx).find(caller.userId, true);
        if (!before?.withdrawal_allowlist) throw refuse.allowlistAlreadyOff();
        const until = new Date(now.getTime() + ALLOWLIST_WAIT_MS);
        await userProtectionsRepository(tx).disableAllowlist(caller.userId, until);
        return { result: { status: await allowlistStatus(tx, caller.userId), until }, tell: [securityTexts.withdrawalAllowlistOff(caller.userId, until)] };
      });
      tellOwner(owner, { kind: 'withdrawalAllowlistOff', enforcedUntil: utcMinuteUp(until) });
      return status;
    },

    /**
     * A new address, checked as the Withdraw screen checks a recipient and stored as the network writes it
     * (so the withdrawal's recipient matches it exactly), usable after ALLOWLIST_WAIT_HOURS.
     */
    async addToAllowlist(caller: Caller, ask: AddAsk): Promise<AllowlistStatus> {
      // A network this server cannot check addresses on (not built in, not configured) has no valid address.
      const address = chainNetworkOf(ask.network)?.parseAddress(ask.address);
      if (address === undefined) throw refuse.invalidRecipient(networkName(ask.network));
      const owner = await confirmPassword(caller, ask.password);
      const { status, usableFrom } = await changeAndTell(async (tx, now) => {
        // The owner's row lock makes the count and the insert one step: two adds racing cannot pass the limit.
        await userProtectionsRepository(tx).find(caller.userId, true);
        const list = withdrawalAllowlistRepository(tx);
        if (await list.find(caller.userId, ask.network, address)) throw refuse.addressAlreadyListed();
        if ((await list.countOfUser(caller.userId)) >= ALLOWLIST_MAX_ADDRESSES) {
          throw refuse.allowlistFull(ALLOWLIST_MAX_ADDRESSES);
        }
        const usableFrom = new Date(now.getTime() + ALLOWLIST_WAIT_MS);
        const added = await list.insert({ userId: caller.userId, network: ask.network, address, label: ask.label, now, usableFrom });
        if (!added) throw refuse.addressAlreadyListed();
        return {
          result: { status: await allowlistStatus(tx, caller.userId), usableFrom },
          tell: [securityTexts.withdrawalAddressAdded(caller.userId, networkName(ask.network), address, usableFrom)],
        };
      });
      tellOwner(owner, { kind: 'withdrawalAddressAdded', network: networkName(ask.network), address, usableFrom: utcMinuteUp(usableFrom) });
      return status;
    },

    /** Removing only narrows where coins may go: at once, no password. Another trader's id is as unknown as a made-up one. */
    async removeFromAllowlist(userId: string, id: number): Promise<AllowlistStatus> {
      return changeAndTell(async (tx) => {
        const removed = await withdrawalAllowlistRepository(tx).remove(userId, id);
        if (!removed) throw refuse.addressNotListedToRemove();
        return {
          result: await allowlistStatus(tx, userId),
          tell: [securityTexts.withdrawalAddressRemoved(userId, networkName(removed.network), removed.address)],
        };
      });
    },
  };
}

export type ProtectionsService = ReturnType<typeof protectionsService>;
