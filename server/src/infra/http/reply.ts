import { z } from 'zod/mini';

/**
 * The success envelope. The payload is checked against its contract schema on the way out, so the
 * server cannot drift from what the web app parses; a mismatch is a bug and surfaces as a 500.
 */
export function ok<S extends z.core.$ZodType>(schema: S, info: z.input<S>): { success: true; info: z.output<S> } {
  return { success: true, info: z.parse(schema, info) };
}

/** What Fastify sends a JSON answer as. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The success envelope around a payload that is JSON text already (Browse Offers' page, which the database writes),
 * to send as it is with JSON_TYPE. Nothing checks it on the way out, so its tests hold the text to its contract
 * (tests/server/offers.test.ts).
 */
export const okText = (info: string): string => `{"success":true,"info":${info}}`;
