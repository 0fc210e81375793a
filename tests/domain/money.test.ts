import { amountRangeProblem, amountRangeTexts, compareDecimal, isDecimalText } from '../../domain/money.ts';

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
