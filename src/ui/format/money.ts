/**
 * Amounts arrive as decimal strings; Intl formats such strings exactly (no float round trip),
 * so "0.30000000000000001" never turns into "0.3" by accident.
 */
const asDecimal = (value: string) => value as `${number}`;

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * The one formatter of a locale and options, created on first use: creating one costs far more than formatting with
 * it (a page of offers formats a hundred amounts), and a page's first creation loads ICU's locale data (started early
 * off the main thread, src/boot/after-paint.js).
 */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}${JSON.stringify(options)}`;
  let formatter = formatters.get(key);
  if (!formatter) formatters.set(key, (formatter = new Intl.NumberFormat(locale, options)));
  return formatter;
}

/** en-US with between `min` and `max` decimals: "1,500.00". */
const decimals = (min: number, max = min) => numberFormat('en-US', { minimumFractionDigits: min, maximumFractionDigits: max });

/** USD with exactly 2 decimals in en-US format, "0.00" when missing. */
export function formatUsd(value: string | null | undefined): string {
  return numberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    asDecimal(value ?? '0'),
  );
}

/** A crypto amount with the coin's decimal places and its upper-case ticker. */
export function formatCrypto(value: string, decimalPlaces: number, ticker: string): string {
  return `${decimals(Math.min(Math.max(decimalPlaces, 0), 20)).format(asDecimal(value))} ${ticker.toUpperCase()}`;
}

/** Offer amounts: exactly 2 decimals with en-US grouping ("1,500.00"), whatever the fiat currency. */
export const formatFiat = (value: string): string => decimals(2).format(asDecimal(value));

/** A rate as fiat per 1 USD: at least 2 decimals, and every decimal the trader set. */
export const formatRate = (value: string): string => decimals(2, 8).format(asDecimal(value));

/** Fiat with 2 places and its currency, "975.00 USD". */
export const fiatAmount = (amount: string, currency: string): string => `${formatFiat(amount)} ${currency}`;

/** A rate as the offer card states it (after "Rate: "): "1.00 USD = 1,025.50 EUR". */
export const formatRateLine = (rate: string, currency: string): string => `1.00 USD = ${formatRate(rate)} ${currency}`;
