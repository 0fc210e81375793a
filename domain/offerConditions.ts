/**
 * An offer's counterparty conditions, as the server refuses an open and as Browse Offers tells a taker before
 * they try (docs/rules.md "Offers"): one rule and one sentence per condition, so the trader reads the same
 * words on the card and in a refusal.
 */
import { z } from 'zod/mini';
import { thousands } from '../contracts/common.ts';
import { offerConditionFields, type OfferConditions } from '../contracts/market.ts';

/** A taker's facts the conditions weigh (the `standing` call answers exactly these). */
export interface TakerStanding {
  /** Completed trades as reputation counts them. */
  completed_trades: number;
  /** Whole days since the account was made. */
  account_age_days: number;
  two_factor: boolean;
}

const plural = (count: number, one: string, many: string) => `${thousands(count)} ${count === 1 ? one : many}`;

/** The refusal of each condition, naming it. */
export const conditionTexts = {
  completedTrades: (count: number) => `This offer is for traders with at least ${plural(count, 'completed trade', 'completed trades')}.`,
  accountDays: (days: number) => `This offer is for traders whose account is at least ${plural(days, 'day', 'days')} old.`,
  twoFactor: 'This offer is for traders with two-factor authentication on.',
} as const;

/** Whether the offer asks anything of a taker at all (most do not, and then nobody's standing needs reading). */
export const hasConditions = (offer: OfferConditions): boolean =>
  offer.min_completed_trades > 0 || offer.min_account_days > 0 || offer.require_two_factor;

/** The first condition of the offer the taker does not meet, as its sentence; null when they meet them all. */
export function unmetCondition(offer: OfferConditions, taker: TakerStanding): string | null {
  if (taker.completed_trades < offer.min_completed_trades) return conditionTexts.completedTrades(offer.min_completed_trades);
  if (taker.account_age_days < offer.min_account_days) return conditionTexts.accountDays(offer.min_account_days);
  if (offer.require_two_factor && !taker.two_factor) return conditionTexts.twoFactor;
  return null;
}

/** Whole days from `created` to `now`: an account made 23 hours ago is 0 days old. */
export const accountAgeDays = (created: Date, now: Date): number => Math.max(0, Math.floor((now.getTime() - created.getTime()) / 86_400_000));

/** The offer form's number fields of the conditions, as typed. */
export const CONDITION_NUMBER_FIELDS = ['min_completed_trades', 'min_account_days', 'max_open_trades'] as const;
export type ConditionNumberField = (typeof CONDITION_NUMBER_FIELDS)[number];

/**
 * The typed text of a number field as the payload carries it: a blank minimum is no condition (null); anything
 * else is the number written, which `conditionFieldProblem` has checked. Whole digits only, so "1e3" or "2.0"
 * never become a number the trader did not type.
 */
function conditionNumberOf(text: string): number | null {
  const trimmed = text.trim();
  return /^\d{1,9}$/.test(trimmed) ? Number(trimmed) : trimmed === '' ? null : Number.NaN;
}

/**
 * Why a typed number field would be refused, in the contract's words (the server checks with the same schema), or
 * undefined when it is fine. A blank minimum is fine (no condition); the cap of open trades must be given.
 */
export function conditionFieldProblem(field: ConditionNumberField, text: string): string | undefined {
  const value = conditionNumberOf(text);
  if (value === null && field !== 'max_open_trades') return undefined;
  const result = z.safeParse(offerConditionFields[field], value === null ? Number.NaN : value);
  return result.success ? undefined : result.error.issues[0]?.message;
}
