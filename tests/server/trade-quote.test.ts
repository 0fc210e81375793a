import { Decimal as BaseDecimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quoteTrade } from '../../server/src/trades/quote.ts';

/** The test's own arithmetic, at far more digits than any figure here has, so it checks rather than echoes. */
const Decimal = BaseDecimal.clone({ precision: 200 });

/** A decimal string with up to `places` places and up to `digits` integer digits, above zero. */
const decimalText = (digits: number, places: number) =>
  fc
    .tuple(fc.bigInt({ min: 0n, max: 10n ** BigInt(digits) - 1n }), fc.bigInt({ min: 0n, max: 10n ** BigInt(places) - 1n }))
    .filter(([whole, fraction]) => whole > 0n || fraction > 0n)
    .map(([whole, fraction]) => (places === 0 ? `${whole}` : `${whole}.${fraction.toString().padStart(places, '0')}`));

const quoteInput = fc.record({
  amount: decimalText(9, 2),
  rate: decimalText(5, 8),
  usdPrice: fc.oneof(decimalText(6, 2), decimalText(1, 8)),
  decimalPlaces: fc.integer({ min: 0, max: 18 }),
  feePercent: fc.oneof(fc.constant('1'), fc.constant('0'), decimalText(2, 4).filter((fee) => new Decimal(fee).lt(100))),
});

const placesOf = (text: string) => new Decimal(text).decimalPlaces();
const scaleOf = (text: string) => text.split('.')[1]?.length ?? 0;

describe('the trade figures (quoteTrade)', () => {
  it('keeps fee + buyer\'s share = the whole exactly, in crypto and fiat, at the coin\'s places, rounded down', () => {
    fc.assert(
      fc.property(quoteInput, (input) => {
        const quote = quoteTrade(input);
        const exactCrypto = new Decimal(input.amount).dividedBy(new Decimal(input.rate).times(input.usdPrice));
        if (!quote) {
          // Refused only when the buyer's share rounds to nothing.
          const keep = new Decimal(100).minus(input.feePercent).dividedBy(100);
          const escrow = exactCrypto.toDecimalPlaces(input.decimalPlaces, Decimal.ROUND_DOWN);
          expect(escrow.times(keep).toDecimalPlaces(input.decimalPlaces, Decimal.ROUND_DOWN).isZero() || new Decimal(input.amount).times(keep).toDecimalPlaces(2, Decimal.ROUND_DOWN).isZero()).toBe(true);
          return;
        }
        const crypto = [quote.trading_amount_crypto, quote.fee_crypto, quote.amount_crypto];
        for (const figure of crypto) expect(scaleOf(figure)).toBe(input.decimalPlaces);
        for (const figure of [quote.trading_amount, quote.fee_local, quote.amount_local]) expect(scaleOf(figure)).toBe(2);
        expect(new Decimal(quote.fee_crypto).plus(quote.amount_crypto).eq(quote.trading_amount_crypto)).toBe(true);
        expect(new Decimal(quote.fee_local).plus(quote.amount_local).eq(quote.trading_amount)).toBe(true);
        expect(new Decimal(quote.trading_amount).eq(input.amount)).toBe(true);
        // Rounded down, and by less than one unit of the last place: never more crypto than the fiat buys.
        const unit = new Decimal(10).pow(-input.decimalPlaces);
        const escrow = new Decimal(quote.trading_amount_crypto);
        expect(escrow.lte(exactCrypto)).toBe(true);
        expect(exactCrypto.minus(escrow).lt(unit)).toBe(true);
        // The fee is at least the percentage and exceeds it by less than one unit.
        const percentFee = escrow.times(input.feePercent).dividedBy(100);
        expect(new Decimal(quote.fee_crypto).gte(percentFee)).toBe(true);
        expect(new Decimal(quote.fee_crypto).minus(percentFee).lt(unit)).toBe(true);
        expect(new Decimal(quote.amount_crypto).gt(0)).toBe(true);
        expect(placesOf(quote.fee_crypto)).toBeLessThanOrEqual(input.decimalPlaces);
      }),
      { numRuns: 3000 },
    );
  });

  it('computes a known trade to the unit', () => {
    // 100 EUR at 0.93 EUR per USD for BTC at 97,000 USD: 100 / 90,210 = 0.001108524…
    expect(quoteTrade({ amount: '100', rate: '0.93', usdPrice: '97000.00', decimalPlaces: 8, feePercent: '1' })).toEqual({
      trading_amount: '100.00',
      trading_amount_crypto: '0.00110852',
      fee_crypto: '0.00001109',
      amount_crypto: '0.00109743',
      fee_local: '1.00',
      amount_local: '99.00',
    });
    // The fee's fraction of a unit goes to the platform, never to nobody: 0.000101 × 0.99 = 0.00009999, of which the buyer gets 0.000099.
    expect(quoteTrade({ amount: '1.00', rate: '1', usdPrice: '9900.00', decimalPlaces: 6, feePercent: '1' })).toMatchObject({
      trading_amount_crypto: '0.000101',
      amount_crypto: '0.000099',
      fee_crypto: '0.000002',
    });
  });

  it('refuses an amount whose crypto or fiat share rounds to nothing', () => {
    expect(quoteTrade({ amount: '0.01', rate: '1650', usdPrice: '97000.00', decimalPlaces: 8, feePercent: '1' })).toBeUndefined();
    expect(quoteTrade({ amount: '0.01', rate: '1', usdPrice: '1', decimalPlaces: 6, feePercent: '1' })).toBeUndefined();
  });
});
