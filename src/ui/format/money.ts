/**
 * Amounts arrive as decimal strings; Intl formats such strings exactly (no float round trip),
 * so "0.30000000000000001" never turns into "0.3" by accident.
 */
const asDecimal = (value: string) => value as `${number}`;

/** USD with exactly 2 decimals in en-US format, "0.00" when missing. */
export function formatUsd(value: string | null | undefined): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    asDecimal(value ?? '0'),
  );
}

/** A crypto amount with the coin's decimal places and its upper-case ticker. */
export function formatCrypto(value: string, decimalPlaces: number, ticker: string): string {
  const places = Math.min(Math.max(decimalPlaces, 0), 20);
  const amount = new Intl.NumberFormat('en-US', { minimumFractionDigits: places, maximumFractionDigits: places }).format(
    asDecimal(value),
  );
  return `${amount} ${ticker.toUpperCase()}`;
}

/** Offer amounts: exactly 2 decimals with en-US grouping ("1,500.00"), whatever the fiat currency. */
export function formatFiat(value: string): string {
  return new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(asDecimal(value));
}

/** A rate as fiat per 1 USD: at least 2 decimals, and every decimal the trader set. */
export function formatRate(value: string): string {
  return new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 8 }).format(asDecimal(value));
}

/** Fiat with 2 places and its currency, "975.00 USD". */
export const fiatAmount = (amount: string, currency: string): string => `${formatFiat(amount)} ${currency}`;

/** A rate as the offer card states it (after "Rate: "): "1.00 USD = 1,025.50 EUR". */
export const formatRateLine = (rate: string, currency: string): string => `1.00 USD = ${formatRate(rate)} ${currency}`;
