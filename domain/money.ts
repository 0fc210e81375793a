/**
 * Money rules the browser and the server apply alike, so that what the Trade Preview dialog accepts is
 * exactly what the server accepts. Exact, on decimal strings: no float ever touches an amount.
 */
/** Places of a fiat amount (and of a USD figure). */
export const FIAT_PLACES = 2;

/** A non-negative decimal as typed or stored: digits, optionally a point and more digits. */
export const isDecimalText = (value: string) => /^\d+(\.\d+)?$/.test(value.trim());

/** Compares two non-negative decimal strings exactly ("1500" and "1500.00" are equal). */
export function compareDecimal(left: string, right: string): -1 | 0 | 1 {
  const [leftWhole = '0', leftFraction = ''] = left.trim().split('.');
  const [rightWhole = '0', rightFraction = ''] = right.trim().split('.');
  const wholeA = leftWhole.replace(/^0+(?=\d)/, '');
  const wholeB = rightWhole.replace(/^0+(?=\d)/, '');
  if (wholeA.length !== wholeB.length) return wholeA.length < wholeB.length ? -1 : 1;
  if (wholeA !== wholeB) return wholeA < wholeB ? -1 : 1;
  const width = Math.max(leftFraction.length, rightFraction.length);
  const fractionA = leftFraction.padEnd(width, '0');
  const fractionB = rightFraction.padEnd(width, '0');
  if (fractionA === fractionB) return 0;
  return fractionA < fractionB ? -1 : 1;
}

/** The refusals of an amount outside an offer's range, word for word as traders read them. */
export const amountRangeTexts = {
  belowMin: (min: string) => `Amount can not be less than ${min}`,
  aboveMax: (max: string) => `Amount can not be greater than ${max}`,
  hint: (min: string, max: string, currency: string) => `Amount must be between ${min} - ${max} ${currency}`,
} as const;

/**
 * Why a fiat amount falls outside an offer's range (min and max as the offer shows them, with 2 places), or
 * undefined when it lies within. Text that is not a decimal counts as below the minimum.
 */
export function amountRangeProblem(amount: string, range: { min: string; max: string }): string | undefined {
  if (!isDecimalText(amount) || compareDecimal(amount, range.min) < 0) return amountRangeTexts.belowMin(range.min);
  if (compareDecimal(amount, range.max) > 0) return amountRangeTexts.aboveMax(range.max);
  return undefined;
}
