import { z } from 'zod/mini';
import { positiveDecimal, type WalletAddressEntry, type WithdrawalMode } from '../../../contracts/index.ts';
import { divideDecimals, multiplyDecimals, roundDownDecimal } from '../../../domain/decimal.ts';
import { FIAT_PLACES, compareDecimal, isDecimalText } from '../../../domain/money.ts';
import type { WithdrawalFields } from './withdrawal.machine.ts';

/**
 * The Withdraw form's rules on exact decimals: the balance check, the amount's shape and the USD/crypto
 * conversion. The chart names them (guards `isOverBalance`, `canPreview`, the action `toggleMode`) and
 * withdrawal.actors.ts binds them, so that the chart's file needs nothing but xstate; the selectors word
 * the inline message with them.
 */

export const withdrawalTexts = {
  overBalance: 'This amount is higher than your balance',
} as const;

export const coinOf = (coins: readonly WalletAddressEntry[], ticker: string) => coins.find((entry) => entry.coin.ticker === ticker);

/** Places an amount may have: cents in USD, the coin's own places in crypto (what the server accepts). */
const placesOf = (mode: WithdrawalMode, entry: WalletAddressEntry | undefined) =>
  mode === 'usd' ? FIAT_PLACES : (entry?.coin.decimal_places ?? Number.POSITIVE_INFINITY);

/**
 * Why a typed amount cannot be previewed (not a number, zero, too many places), worded by the contract the
 * server checks with; undefined when it is fine or still empty.
 */
export function amountProblem(fields: Pick<WithdrawalFields, 'coins' | 'ticker' | 'amount' | 'mode'>): string | undefined {
  if (fields.amount.trim() === '') return undefined;
  const places = placesOf(fields.mode, coinOf(fields.coins, fields.ticker));
  // Before a coin is chosen, a crypto amount's places cannot be judged yet.
  const schema = positiveDecimal('Amount', Number.isFinite(places) ? places : 18);
  const result = z.safeParse(schema, fields.amount);
  return result.success ? undefined : result.error.issues[0]?.message;
}

/**
 * The typed amount in the coin: as typed in crypto mode; in USD mode divided by the coin's current price and
 * cut to its places, as the server converts it. Undefined while it cannot be known (no coin, not a number,
 * no price).
 */
export function amountInCrypto(fields: Pick<WithdrawalFields, 'coins' | 'ticker' | 'amount' | 'mode'>): string | undefined {
  const entry = coinOf(fields.coins, fields.ticker);
  const amount = fields.amount.trim();
  if (!entry || !isDecimalText(amount)) return undefined;
  if (fields.mode === 'crypto') return amount;
  if (compareDecimal(entry.coin.price, '0') <= 0) return undefined;
  return divideDecimals(amount, entry.coin.price, entry.coin.decimal_places);
}

/** The amount (converted to crypto in USD mode) is more than the coin's available balance. */
export function isOverBalance(fields: Pick<WithdrawalFields, 'coins' | 'ticker' | 'amount' | 'mode'>): boolean {
  const entry = coinOf(fields.coins, fields.ticker);
  const crypto = amountProblem(fields) === undefined ? amountInCrypto(fields) : undefined;
  return entry !== undefined && crypto !== undefined && compareDecimal(crypto, entry.balance) > 0;
}

/** Coin, network, recipient and a well-formed amount are all there, within the balance: a preview may be asked for. */
export function canPreview(fields: WithdrawalFields): boolean {
  const entry = coinOf(fields.coins, fields.ticker);
  return (
    entry !== undefined &&
    entry.networks.some((network) => network.key === fields.network) &&
    fields.recipient.trim() !== '' &&
    fields.amount.trim() !== '' &&
    amountProblem(fields) === undefined &&
    !isOverBalance(fields)
  );
}

/** The other unit of the amount toggle. */
export const otherMode = (mode: WithdrawalMode): WithdrawalMode => (mode === 'usd' ? 'crypto' : 'usd');

/**
 * The typed amount in the other unit at the coin's current price: crypto to USD with 2 decimals, USD to
 * crypto with the coin's places, both cut toward zero so that a toggle never turns an amount within the
 * balance into one above it. Text that is not a number, or an amount without a coin or a price, stays as typed.
 */
export function convertAmount(fields: Pick<WithdrawalFields, 'coins' | 'ticker' | 'amount' | 'mode'>): string {
  const entry = coinOf(fields.coins, fields.ticker);
  const amount = fields.amount.trim();
  if (!entry || !isDecimalText(amount)) return fields.amount;
  if (fields.mode === 'crypto') return roundDownDecimal(multiplyDecimals(amount, entry.coin.price), FIAT_PLACES);
  return amountInCrypto(fields) ?? fields.amount;
}

/** A holding's worth in USD at the coin's current price (the coin selector shows it), unrounded. */
export const usdValueOf = (entry: WalletAddressEntry) => multiplyDecimals(entry.balance, entry.coin.price);
