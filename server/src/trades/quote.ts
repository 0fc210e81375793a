import { Decimal } from 'decimal.js';
import type { TradePreview } from '../../../contracts/trade.ts';
import { FIAT_PLACES, Money, roundDown } from '../ledger/money.ts';

/** What a trade's figures are computed from: the offer's rate, the coin's price, the fee. */
export interface QuoteInput {
  /** Fiat as the taker asked, at most 2 places. */
  amount: string;
  /** Fiat per 1 USD (the offer's rate). */
  rate: string;
  /** USD per coin. */
  usdPrice: string;
  /** The coin's places: no crypto figure has more. */
  decimalPlaces: number;
  /** The platform's fee in percent of the trade (TRADE_FEE_PERCENT), 0 ≤ fee < 100. */
  feePercent: string;
}

/**
 * The preview figures (docs/rules.md "Trades"), exact decimal strings:
 * - trading_amount_crypto = amount / (rate × USD price), rounded DOWN to the coin's places: the escrow.
 * - amount_crypto: the buyer's share, the escrow less the fee, rounded down; fee_crypto is the rest, so
 *   fee_crypto + amount_crypto = trading_amount_crypto exactly and no fraction of a unit is ever lost or
 *   invented. The fee is thus never below the percentage; it exceeds it by less than one unit of the
 *   coin's last place.
 * - amount_local and fee_local split the fiat amount the same way at 2 places.
 * Undefined when the amount is too small to buy one unit of the coin's last place for the buyer.
 */
export function quoteTrade(input: QuoteInput): TradePreview | undefined {
  const amount = new Money(input.amount);
  const perCoin = new Money(input.rate).times(input.usdPrice);
  // Money divides rounding toward zero at 60 digits, so rounding down afterwards can never land a unit
  // above the exact quotient's floor.
  const tradingCrypto = roundDown(amount.dividedBy(perCoin), input.decimalPlaces);
  const keep = new Money(100).minus(input.feePercent).dividedBy(100);
  const amountCrypto = roundDown(tradingCrypto.times(keep), input.decimalPlaces);
  const feeCrypto = tradingCrypto.minus(amountCrypto);
  const amountLocal = roundDown(amount.times(keep), FIAT_PLACES);
  const feeLocal = amount.minus(amountLocal);
  if (amountCrypto.lte(0) || amountLocal.lte(0)) return undefined;
  const crypto = (value: Decimal) => value.toFixed(input.decimalPlaces, Decimal.ROUND_DOWN);
  const fiat = (value: Decimal) => value.toFixed(FIAT_PLACES, Decimal.ROUND_DOWN);
  return {
    trading_amount: fiat(amount),
    trading_amount_crypto: crypto(tradingCrypto),
    fee_local: fiat(feeLocal),
    fee_crypto: crypto(feeCrypto),
    amount_local: fiat(amountLocal),
    amount_crypto: crypto(amountCrypto),
  };
}
