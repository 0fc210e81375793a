import { expect } from 'vitest';
import { STATUS_OF } from '../../server/src/infra/http/errors.ts';
import { REFUSALS } from '../../server/src/sentences.ts';

/** The catalogue by code (server/src/sentences.ts `REFUSALS`). */
export const CATALOGUE = new Map(Object.values(REFUSALS).map((entry) => [entry.code, entry]));

/**
 * A refusal answered in the envelope carries a code of the catalogue, with the status the code's kind maps to
 * (http/errors.ts) and, for a fixed sentence, exactly that sentence.
 */
export function expectCatalogued(status: number, body: unknown, context = ''): void {
  const where = `${context} ${status} ${JSON.stringify(body)}`.trim();
  expect(body, where).toEqual({ success: false, code: expect.any(String), info: expect.any(String) });
  const { code, info } = body as { code: string; info: string };
  const entry = CATALOGUE.get(code);
  expect(entry, `${where}: not a code of the catalogue`).toBeDefined();
  expect(status, `${where}: the status of ${code}`).toBe(STATUS_OF[entry!.kind]);
  if (typeof entry!.sentence === 'string') expect(info, `${where}: the sentence of ${code}`).toBe(entry!.sentence);
}

/**
 * The body of a refusal as most tests compare it, `{success: false, info}`: checked against the catalogue
 * first, its `code` kept but not enumerable, so `toEqual` on the sentence still holds and `body.code` reads it.
 */
export function withCodeChecked<B>(status: number, body: B): B {
  if (typeof body !== 'object' || body === null || (body as { success?: unknown }).success !== false) return body;
  expectCatalogued(status, body);
  const { code } = body as unknown as { code: string };
  delete (body as { code?: string }).code;
  Object.defineProperty(body, 'code', { value: code, enumerable: false });
  return body;
}
