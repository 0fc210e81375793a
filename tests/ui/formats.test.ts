import { i18n } from '@lingui/core';
import { DateTime } from 'luxon';
import { messages as arabic } from '../../src/locales/ar.po';
import { messages as english } from '../../src/locales/en.po';
import { messages as spanish } from '../../src/locales/es.po';
import { messages as french } from '../../src/locales/fr.po';
import { messages as brazilian } from '../../src/locales/pt-BR.po';
import { formatDate, formatDateTime } from '../../src/ui/format/dates.ts';
import { fiatAmount, formatCrypto, formatFiat, formatMoney, formatRate, formatRateLine, formatUsd } from '../../src/ui/format/money.ts';
import { decimalMarkOf, parseAmount } from '../../src/ui/format/parse.ts';
import { formatRelative } from '../../src/ui/format/relative.ts';

const CATALOGS = { en: english, es: spanish, 'pt-BR': brazilian, fr: french, ar: arabic };
const reading = (locale: keyof typeof CATALOGS) => i18n.loadAndActivate({ locale, messages: CATALOGS[locale] });
/** Intl keeps a currency's sign and its number together with a no-break space; the examples are written with plain ones. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

afterEach(() => reading('en'));

describe('formats follow the language the page shows (src/ui/format/)', () => {
  it('en: exactly the product’s en-US output', () => {
    reading('en');
    expect(formatMoney('1234.56', 'NGN')).toBe('₦1,234.56');
    expect(formatUsd('1234.5')).toBe('$1,234.50');
    expect(formatFiat('193614.5')).toBe('193,614.50');
    expect(formatCrypto('0.12345678', 8, 'btc')).toBe('0.12345678 BTC');
    expect(formatRateLine('1025.5', 'EUR')).toBe('1.00 USD = 1,025.50 EUR');
    expect(fiatAmount('975', 'USD')).toBe('975.00 USD');
  });

  it('pt-BR: R$ 1.234,56, and a Brazilian trader reads 193.614,50', () => {
    reading('pt-BR');
    expect(plain(formatMoney('1234.56', 'BRL'))).toBe('R$ 1.234,56');
    expect(formatFiat('193614.5')).toBe('193.614,50');
    expect(plain(formatUsd('1234.5'))).toBe('US$ 1.234,50');
    expect(formatRate('5.4321')).toBe('5,4321');
    expect(formatRateLine('5.5', 'BRL')).toBe('1,00 USD = 5,50 BRL');
  });

  it('fr: 1.234,56 €', () => {
    reading('fr');
    expect(plain(formatMoney('1234.56', 'EUR'))).toBe('1.234,56 €');
    expect(formatFiat('1234567.8')).toBe('1.234.567,80');
    expect(plain(formatMoney('1500000', 'XOF'))).toBe('1.500.000,00 F CFA');
  });

  it('es: as Buenos Aires and Caracas write amounts', () => {
    reading('es');
    expect(formatFiat('193614.5')).toBe('193.614,50');
    expect(plain(formatMoney('1234.56', 'ARS'))).toBe('$ 1.234,56');
    expect(plain(formatMoney('1234.56', 'USD'))).toBe('US$ 1.234,56');
  });

  it('crypto amounts keep every place of the coin, in every language (nothing rounded away)', () => {
    for (const locale of Object.keys(CATALOGS) as (keyof typeof CATALOGS)[]) {
      reading(locale);
      const written = formatCrypto('12345.123456789012345678', 18, 'eth');
      const digits = written.replace(/\D/g, '');
      // Arabic writes Arabic-Indic digits: compare the count of digits, which must all be there.
      expect([...written].filter((char) => /\p{Nd}/u.test(char)).length, `${locale}: ${written}`).toBe(23);
      if (locale !== 'ar') expect(digits).toBe('12345123456789012345678');
    }
    reading('pt-BR');
    expect(formatCrypto('0.00000001', 8, 'btc')).toBe('0,00000001 BTC');
  });

  it('dates and relative times through luxon in the language', () => {
    const moment = '2026-11-27T15:05:00.000Z';
    reading('en');
    expect(formatDate(moment)).toBe('Nov 27, 2026');
    expect(formatRelative('2026-11-27T15:00:00Z', DateTime.fromISO('2026-11-27T15:00:30Z'))).toBe('just now');
    reading('pt-BR');
    expect(formatDate(moment)).toBe('27 de nov. de 2026');
    expect(formatDateTime(moment)).toMatch(/^27 de nov\. de 2026/);
    expect(formatRelative('2026-11-27T15:00:00Z', DateTime.fromISO('2026-11-27T15:05:00Z'))).toBe('há 5 minutos');
    expect(formatRelative('2026-11-27T15:00:00Z', DateTime.fromISO('2026-11-27T15:00:30Z'))).toBe('agora mesmo');
    reading('fr');
    expect(formatRelative('2026-11-27T15:00:00Z', DateTime.fromISO('2026-11-27T17:00:00Z'))).toBe('il y a 2 heures');
  });
});

describe('an amount typed in the locale’s form (src/ui/format/parse.ts)', () => {
  it.each([
    ['1.234,56', ',', '1234.56'],
    ['193.614,50', ',', '193614.50'],
    ['0,5', ',', '0.5'],
    ['0.5', ',', '0.5'],
    ['1.234', ',', '1234'],
    ['1 234,56', ',', '1234.56'],
    ['1,234.56', '.', '1234.56'],
    ['1,234', '.', '1234'],
    ['1234,56', '.', '1234.56'],
    ['0,00000001', ',', '0.00000001'],
  ] as const)('%s with a decimal %s reads %s', (typed, mark, amount) => {
    expect(parseAmount(typed, mark)).toBe(amount);
  });

  it.each(['', 'abc', '1,2,3.4.5', '1.', '-5'])('%j is not an amount', (typed) => {
    expect(parseAmount(typed, ',')).toBeUndefined();
  });

  it('knows each language’s decimal mark', () => {
    expect(['en-US', 'es-AR', 'pt-BR', 'fr-FR'].map(decimalMarkOf)).toEqual(['.', ',', ',', ',']);
  });
});
