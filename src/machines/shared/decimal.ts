/**
 * Comparison of non-negative decimal strings without floats ("1500" vs "1500.00" are equal), so
 * the browser checks a typed amount against an offer's range exactly as the server will.
 */
export const isDecimalText = (value: string) => /^\d+(\.\d+)?$/.test(value.trim());

export function compareDecimal(left: string, right: string): -1 | 0 | 1 {
  const [leftWhole = '0', leftFraction = ''] = left.trim().split('.');
  const [rightWhole = '0', rightFraction = ''] = right.trim().split('.');
  const wholeA = leftWhole.replace(/^0+(?=\d)/, '');
  const wholeB = rightWhole.replace(/^0+(?=\d)/, '');
  if (wholeA.length !== wholeB.length) return wholeA.length < wholeB.length ? -1 : 1;
  if (wholeA !== wholeB) return wholeA < wholeB ? -1 : 1;
  const width = Math.max(leftFraction.length, rightFraction.length);
  const fractionA = leftFraction.padEnd(width, '0');
  const fractionB = rightFraction.padEnd(width, '0');
  if (fractionA === fractionB) return 0;
  return fractionA < fractionB ? -1 : 1;
}
