import { z } from 'zod';
import { messages } from './messages.ts';

/** The answer envelope of every call: `info` is the payload on success and one sentence on refusal. */
export const envelope = <T extends z.ZodType>(info: T) =>
  z.object({ success: z.literal(true), info });
export const refusal = z.object({ success: z.literal(false), info: z.string() });
export type Refusal = z.infer<typeof refusal>;

export const email = z
  .string({ error: messages.invalidEmail })
  .trim()
  .toLowerCase()
  .max(254, messages.invalidEmail)
  .pipe(z.email({ error: messages.invalidEmail }));

/** Six digits exactly: the only shape of an email or authenticator code. */
export const code = z.string({ error: messages.invalidCode }).regex(/^\d{6}$/, messages.invalidCode);

export const username = z
  .string({ error: messages.usernameRequired })
  .trim()
  .min(3, messages.usernameTooShort)
  .max(30, messages.usernameTooLong)
  .regex(/^[A-Za-z0-9_]+$/, messages.usernameCharacters);

export const password = z
  .string({ error: messages.passwordRequired })
  .min(6, messages.passwordTooShort)
  .max(128, messages.passwordTooLong);

/** Free text describing the browser and OS; informative only, never trusted. */
export const device = z.string().trim().max(200).optional().default('');

/** Money crosses the wire as decimal strings, never as floats. */
export const decimalString = z.string().regex(/^-?\d+(\.\d+)?$/, 'must be a decimal number');

export const emptyBody = z.object({}).loose();
