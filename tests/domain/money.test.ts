import {
  amountRangeProblem,
  amountRangeTexts,
  compareDecimal,
  isDecimalText,
} from '../../domain/money.ts';
import { multiplyDecimals, subtractDecimals, sumDecimals } from '../../domain/decimal.ts';

describe('compareDecimal: exact comparison of decimal strings', () => {
  it.each([
    ['1500', '1500.00', 0],
    ['1500.00', '1500', 0],
    ['0100', '100', 0],
    ['0.1', '0.10', 0],
    ['99.999', '100', -1],
    ['100', '99.999', 1],
    ['1000000', '999999.99', 1],
    ['249999.999', '250000', -1],
    ['250000.001', '250000', 1],
    // A float would call these equal.
    ['0.30000000000000001', '0.3', 1],
    ['9007199254740993', '9007199254740992', 1],
  ] as const)('compares %s with %s exactly: %i', (left, right, expected) => {
    expect(compareDecimal(left, right)).toBe(expected);
  });

  it('knows what decimal text is', () => {
    expect(['0', '12', '12.5', ' 7.00 '].every(isDecimalText)).toBe(true);
    expect(['', '-1', '1e3', '1.', '.5', 'abc', '1,5'].some(isDecimalText)).toBe(false);
  });
});

describe('amountRangeProblem: the refusal of an amount outside an offer’s range, as both sides word it', () => {
  const range = { min: '100.00', max: '250.50' };
  it.each([
    ['100', undefined],
    ['100.00', undefined],
    ['250.50', undefined],
    ['250.5', undefined],
    ['99.99', 'Amount can not be less than 100.00'],
    ['0', 'Amount can not be less than 100.00'],
    ['-5', 'Amount can not be less than 100.00'],
    ['ten', 'Amount can not be less than 100.00'],
    ['250.51', 'Amount can not be greater than 250.50'],
    ['99.999', 'Amount can not be less than 100.00'],
  ])('"%s" in 100.00 – 250.50: %s', (amount, problem) => {
    expect(amountRangeProblem(amount, range)).toBe(problem);
  });

  it('words the range hint of the Trade Preview dialog', () => {
    expect(amountRangeTexts.hint('50.00', '1000.00', 'EUR')).toBe('Amount must be between 50.00 - 1000.00 EUR');
  });
});

describe('exact arithmetic on decimal strings', () => {
  it('multiplies exactly, with every place kept and never in exponent notation', () => {
    expect(multiplyDecimals('0.1', '0.2')).toBe('0.02');
    expect(multiplyDecimals('0.50000000', '60000.00')).toBe('30000');
    expect(multiplyDecimals('123456789012.12345678', '98765.4321')).toBe('12193263112460905.347422374638');
    expect(multiplyDecimals('0.00000001', '0.00000001')).toBe('0.0000000000000001');
    expect(multiplyDecimals('1530.5', '64000.25')).toBe('97952382.625');
  });

  it('adds and subtracts exactly, negatives included', () => {
    expect(sumDecimals(['0.1', '0.2'])).toBe('0.3');
    expect(sumDecimals([])).toBe('0');
    expect(sumDecimals(['999999999999999999.99999999', '0.00000001'])).toBe('1000000000000000000');
    expect(subtractDecimals('3000.10', '3000.11')).toBe('-0.01');
    expect(subtractDecimals('0.30000000000000001', '0.3')).toBe('0.00000000000000001');
  });
});
