import { WITHDRAWAL_LOCK_HOURS } from '../../../contracts/wallet.ts';
import type { Queryable } from '../infra/db/db.ts';
import { securityChangesColumns, userProtectionsRepository } from './users.repository.ts';

export { securityChangesColumns };

/**
 * The security hold (docs/rules.md "Account protections", "The security hold"): for a while after a change to
 * how an account is secured, what would let whoever made it take the money out waits, so the owner, told at
 * once, can step in first. Withdrawals wait after a credentials change (wallets/withdrawals.ts); selling waits
 * after any of the changes below (trades/trades.ts). One length for both.
 */
export const SECURITY_HOLD_HOURS = WITHDRAWAL_LOCK_HOURS;
const HOUR_MS = 3_600_000;

/**
 * The account's security changes as stored: the last credentials change (a password reset, two-factor turned on
 * or off: migration 015) and the newest address on the withdrawal allowlist (its created time, migration 021).
 */
export interface SecurityChanges {
  credentialsChangedAt: Date | null;
  allowlistAddedAt: Date | null;
}

export const securityChangesOf = (q: Queryable, userId: string): Promise<SecurityChanges> => userProtectionsRepository(q).securityChanges(userId);

/** When the hold that a change made at `changedAt` puts on an account ends. */
export const holdEnd = (changedAt: Date): Date => new Date(changedAt.getTime() + SECURITY_HOLD_HOURS * HOUR_MS);

/** Whether the hold a change made at `changedAt` (null: none) puts on an account still lasts at `now`. */
export const isHeld = (changedAt: Date | null, now: Date): boolean => changedAt !== null && holdEnd(changedAt) > now;

/** The earliest change that still holds an account at `now`: a change made after it does (`isHeld`). */
export const holdingSince = (now: Date): Date => new Date(now.getTime() - SECURITY_HOLD_HOURS * HOUR_MS);

/**
 * Whether the account may not sell at `now`: open a trade as its seller, or release escrow. Any of the
 * changes holds it; a buyer's side is never held (buying moves no coin of the account's out).
 */
export const isSellingPausedBy = (changes: SecurityChanges, now: Date): boolean =>
  isHeld(changes.credentialsChangedAt, now) || isHeld(changes.allowlistAddedAt, now);
