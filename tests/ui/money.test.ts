import { formatCrypto, formatFiat, formatRate, formatUsd, numberFormat } from '../../src/ui/format/money.ts';

describe('format/money: amounts as the screens write them', () => {
  it('writes decimal strings exactly, en-US, with the places each kind of amount has', () => {
    expect(formatUsd('1234.5')).toBe('$1,234.50');
    expect(formatUsd(null)).toBe('$0.00');
    expect(formatCrypto('0.12345678', 8, 'btc')).toBe('0.12345678 BTC');
    expect(formatCrypto('2', 0, 'doge')).toBe('2 DOGE');
    expect(formatFiat('0.30000000000000001')).toBe('0.30');
    expect(formatRate('1025.5')).toBe('1,025.50');
    expect(formatRate('1.123456789')).toBe('1.12345679');
  });

  it('creates one formatter per locale and options, however many amounts it writes', () => {
    const RealNumberFormat = Intl.NumberFormat;
    const created = vi
      .spyOn(Intl, 'NumberFormat')
      .mockImplementation(function (this: unknown, ...args: ConstructorParameters<typeof Intl.NumberFormat>) {
        return new RealNumberFormat(...args);
      } as unknown as typeof Intl.NumberFormat);
    try {
      // Places no other test here uses: the formatter is made in this test or not at all.
      for (let index = 0; index < 50; index += 1) formatCrypto(`${index}.5`, 13, 'eth');
      expect(created).toHaveBeenCalledTimes(1);
      expect(numberFormat('en-US', { minimumFractionDigits: 13, maximumFractionDigits: 13 })).toBe(
        numberFormat('en-US', { minimumFractionDigits: 13, maximumFractionDigits: 13 }),
      );
      expect(created).toHaveBeenCalledTimes(1);
      expect(numberFormat('de-DE', { minimumFractionDigits: 13, maximumFractionDigits: 13 }).format(1.5)).toBe('1,5000000000000');
    } finally {
      created.mockRestore();
    }
  });
});
