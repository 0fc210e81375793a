import { z } from 'zod/mini';

/**
 * The success envelope. The payload is checked against its contract schema on the way out, so the
 * server cannot drift from what the web app parses; a mismatch is a bug and surfaces as a 500.
 */
export function ok<S extends z.core.$ZodType>(schema: S, info: z.input<S>): { success: true; info: z.output<S> } {
  return { success: true, info: z.parse(schema, info) };
}
