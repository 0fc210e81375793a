/**
 * A trader's figures as the offer cards and the profile word them (docs/rules.md "Reputation"). The server sends
 * decimal strings; Intl rounds such strings exactly, with no float in between.
 */
import { numberFormat } from '../format/money.ts';

const asDecimal = (value: string) => value as `${number}`;
const EXACTLY_ALL = /^100(\.0*)?$/;

/**
 * "★ 4.33 by 12 traders": the average and how many distinct traders it is over (each counts once, with their
 * latest rating; docs/rules.md "Reputation"), or "No ratings yet" while nobody has rated them.
 */
export function formatRating(rating: string, raters: number): string {
  if (raters === 0) return 'No ratings yet';
  return `★ ${rating} by ${formatRatedBy(raters)}`;
}

/** "1 trader", "12 traders". */
export const formatRatedBy = (raters: number) => `${raters.toLocaleString('en-US')} ${raters === 1 ? 'trader' : 'traders'}`;

/** "Today", "1 day", "412 days": an account's age. */
export const formatAccountAge = (days: number) => (days === 0 ? 'Less than a day' : `${days.toLocaleString('en-US')} ${days === 1 ? 'day' : 'days'}`);

/** The completion rate in whole percent ("96.55" → "97%"), or null while no trade of theirs got that far. */
export function formatCompletionPercent(rate: string | null): string | null {
  if (rate === null) return null;
  const whole = numberFormat('en-US', { maximumFractionDigits: 0 }).format(asDecimal(rate));
  // Rounding 99.5 up would claim that no trade of theirs ever failed.
  return `${whole === '100' && !EXACTLY_ALL.test(rate) ? '99' : whole}%`;
}

/** "97% completion", or "New trader" with no record yet. */
export function formatCompletion(rate: string | null): string {
  const percent = formatCompletionPercent(rate);
  return percent === null ? 'New trader' : `${percent} completion`;
}

/** "12 trades", "1 trade". */
export const formatTrades = (count: number) => `${count.toLocaleString('en-US')} ${count === 1 ? 'trade' : 'trades'}`;
