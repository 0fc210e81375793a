/**
 * Exact arithmetic on decimal strings for figures the browser derives. Apart from domain/money.ts so that
 * decimal.js is downloaded with the screens that compute (the dashboard, Browse Offers), not with /login,
 * whose validation only compares.
 */
import { Decimal } from 'decimal.js';

/**
 * Sums, differences and products of decimal strings, for the figures the browser derives (a holding's USD
 * value, a coin's price in a fiat currency). 60 significant digits hold any sum or product of stored amounts
 * exactly, as on the server (server/src/ledger/money.ts); a figure is rounded only where it is shown.
 */
const Exact = Decimal.clone({ precision: 60, toExpNeg: -100, toExpPos: 100 });

/** The exact product, as a plain decimal string (never exponent notation). */
export const multiplyDecimals = (left: string, right: string): string => new Exact(left).times(right).toFixed();
/** The exact difference `left − right`, possibly negative. */
export const subtractDecimals = (left: string, right: string): string => new Exact(left).minus(right).toFixed();
/** The exact sum ("0" for none). */
export const sumDecimals = (values: readonly string[]): string =>
  values.reduce((sum, value) => sum.plus(value), new Exact(0)).toFixed();

/**
 * Cuts toward zero to `places` decimals, written with exactly that many ("1.239", 2 → "1.23"). Rounding down
 * is the server's rule for a converted amount: a conversion never yields more than was typed.
 */
export const roundDownDecimal = (value: string, places: number): string => new Exact(value).toFixed(places, Decimal.ROUND_DOWN);

/** Division truncates its 60th digit too, so that cutting the quotient after never rounds it up first. */
const Truncating = Exact.clone({ rounding: Decimal.ROUND_DOWN });

/**
 * `left ÷ right` cut toward zero to `places` decimals, written with exactly that many (a USD amount in a
 * coin, to the coin's places). `right` must not be zero.
 */
export const divideDecimals = (left: string, right: string, places: number): string =>
  new Truncating(left).dividedBy(right).toFixed(places, Decimal.ROUND_DOWN);
