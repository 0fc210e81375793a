/**
 * An amount as a trader types it, read into the decimal string the server takes ("1.234,56" → "1234.56"), in the
 * reading locale's form: where the decimal mark is a comma (pt-BR, es, fr, ar as written with Latin digits) a comma
 * is the decimal mark and a dot or space groups thousands; in English the reverse. A single separator followed by
 * other than three digits is the decimal mark whatever the locale ("0,5" and "0.5" both read 0.5), so an amount typed
 * the other way is not read a thousand times too large. Undefined when the text is not an amount.
 */
export function parseAmount(text: string, decimalMark: '.' | ','): string | undefined {
  const compact = text.trim().replace(/[\s\u00a0\u202f']/g, '');
  if (!/^\d[\d.,]*$/.test(compact)) return undefined;
  const marks = compact.replace(/\d/g, '');
  let decimal: '.' | ',' | undefined;
  if (marks.length === 0) return stripZeros(compact);
  if (new Set(marks).size === 2) decimal = compact.lastIndexOf(',') > compact.lastIndexOf('.') ? ',' : '.';
  else if (marks.length > 1) decimal = undefined; // "1.234.567": groups only
  else {
    const after = compact.length - compact.indexOf(marks) - 1;
    decimal = after === 3 ? (marks === decimalMark ? marks : undefined) : (marks as '.' | ',');
  }
  const group = decimal === ',' ? '.' : decimal === '.' ? ',' : marks[0]!;
  const [whole, fraction, ...rest] = compact.split(group).join('').split(decimal ?? '\u0000');
  if (rest.length > 0 || whole === undefined || (decimal && !fraction)) return undefined;
  return stripZeros(fraction === undefined ? whole : `${whole}.${fraction}`);
}

const stripZeros = (amount: string) => amount.replace(/^0+(?=\d)/, '');

/** The reading locale's decimal mark, as Intl writes it. */
export const decimalMarkOf = (locale: string): '.' | ',' =>
  new Intl.NumberFormat(locale).formatToParts(1.5).find((part) => part.type === 'decimal')?.value === ',' ? ',' : '.';
