import { formatLocale } from './locale.ts';

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

/**
 * `value` written by `formatter`, in the reading locale's way (src/ui/format/locale.ts): French amounts group
 * thousands with a dot ("1.234,56 €", as docs/i18n.md "Formats" decides), not CLDR's narrow space.
 */
function write(formatter: Intl.NumberFormat, value: string, locale: string): string {
  if (!DOT_GROUPED.has(locale)) return formatter.format(asDecimal(value));
  return formatter
    .formatToParts(asDecimal(value))
    .map((part) => (part.type === 'group' ? '.' : part.value))
    .join('');
}
const DOT_GROUPED = new Set(['fr-FR']);

/** The reading locale's digits with between `min` and `max` decimals: en "1,500.00", pt-BR "1.500,00". */
const decimals = (min: number, max = min) => {
  const locale = formatLocale();
  const formatter = numberFormat(locale, { minimumFractionDigits: min, maximumFractionDigits: max });
  return { format: (value: string) => write(formatter, value, locale) };
};

/** USD with exactly 2 decimals, "$0.00" when missing (pt-BR "US$ 0,00"). */
export function formatUsd(value: string | null | undefined): string {
  return formatMoney(value ?? '0', 'USD');
}

/**
 * A fiat amount with its currency's sign, each in the reading locale's convention and 2 places: en NGN "₦1,234.56",
 * pt-BR BRL "R$ 1.234,56", fr EUR "1.234,56 €" (the sign and the number kept together by a no-break space, as Intl
 * writes them).
 */
export function formatMoney(value: string, currency: string): string {
  const locale = formatLocale();
  const options = { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 } as const;
  // The locale's own sign ("US$" for a Brazilian, "$" in en-US); where it has none but the code ("NGN" in en-US),
  // the currency's everyday sign ("₦").
  const symbol = numberFormat(locale, options);
  const bare = symbol.formatToParts(0).some((part) => part.type === 'currency' && part.value === currency);
  return write(bare ? numberFormat(locale, { ...options, currencyDisplay: 'narrowSymbol' }) : symbol, value, locale);
}

/** A crypto amount with the coin's decimal places (every one of them: nothing is rounded away) and its upper-case ticker. */
export function formatCrypto(value: string, decimalPlaces: number, ticker: string): string {
  return `${decimals(Math.min(Math.max(decimalPlaces, 0), 20)).format(value)} ${ticker.toUpperCase()}`;
}

/** Offer amounts: exactly 2 decimals with the reading locale's grouping (en "1,500.00", pt-BR "193.614,50"), whatever the fiat. */
export const formatFiat = (value: string): string => decimals(2).format(value);

/** A rate as fiat per 1 USD: at least 2 decimals, and every decimal the trader set. */
export const formatRate = (value: string): string => decimals(2, 8).format(value);

/** Fiat with 2 places and its currency, "975.00 USD". */
export const fiatAmount = (amount: string, currency: string): string => `${formatFiat(amount)} ${currency}`;

/** A rate as the offer card states it (after "Rate: "): "1.00 USD = 1,025.50 EUR". */
export const formatRateLine = (rate: string, currency: string): string => `${formatFiat('1')} USD = ${formatRate(rate)} ${currency}`;
