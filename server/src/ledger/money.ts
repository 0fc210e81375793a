import { Decimal } from 'decimal.js';

/**
 * The decimal type of every amount the server computes (docs/rules.md "Money"). decimal.js keeps 20
 * significant digits by default, which a balance of 10^12 with 8 places already exceeds; 60 digits hold
 * any sum or product of stored amounts exactly. Rounding toward zero is the default so that the one place
 * an operation is inexact (a division) can only err downwards, never up across a rounding boundary that
 * an explicit `toDecimalPlaces(…, ROUND_DOWN)` would then round to the wrong side of.
 */
export const Money = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_DOWN, toExpNeg: -100, toExpPos: 100 });
export type Money = Decimal;

export { FIAT_PLACES } from '../../../domain/money.ts';

/** An exact decimal string with exactly `places` places (never exponent notation). */
export const fixed = (value: Decimal.Value, places: number): string => new Money(value).toFixed(places, Decimal.ROUND_DOWN);

/** A derived figure for display (a USD value): rounded half up to `places`, as people round. */
export const rounded = (value: Decimal.Value, places: number): string =>
  new Money(value).toFixed(places, Decimal.ROUND_HALF_UP);

/** Rounds down (toward zero) to `places`: what a crypto amount the platform pays out is rounded to. */
export const roundDown = (value: Decimal.Value, places: number): Decimal =>
  new Money(value).toDecimalPlaces(places, Decimal.ROUND_DOWN);
