import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** What a spreadsheet reads as the start of a formula (OWASP "CSV Injection"): such a cell is written after a `'`. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One cell of RFC 4180 CSV: quoted when it holds a comma, a quote or a line break (quotes doubled), and a text a
 * spreadsheet would run as a formula (`=HYPERLINK(…)` in a reason a trader's name put there) starts with `'`, so
 * it is shown, never run.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One record, CRLF-terminated as RFC 4180 writes them. */
export const csvLine = (cells: readonly (string | number | null)[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/**
 * Sends a CSV file as an attachment: the header, then each batch of records as it is read (a batch at a time in
 * memory, however long the file), `text/csv; charset=utf-8`.
 */
export function sendCsv(reply: FastifyReply, filename: string, header: readonly string[], records: AsyncIterable<readonly (string | number | null)[][]>) {
  async function* lines() {
    yield csvLine(header);
    for await (const batch of records) {
      if (batch.length > 0) yield batch.map(csvLine).join('');
    }
  }
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(Readable.from(lines()));
}
