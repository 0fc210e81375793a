// zod/mini: the same schemas as zod, tree-shakable, so the browser ships only the checks it uses.
import { z } from 'zod/mini';
import { messages } from './messages.ts';

/** The answer envelope of every call: `info` is the payload on success and one sentence on refusal. */
export const envelope = <T extends z.core.$ZodType>(info: T) => z.object({ success: z.literal(true), info });
export const refusal = z.object({ success: z.literal(false), info: z.string() });

export const email = z.pipe(
  z.string({ error: messages.invalidEmail }).check(z.trim(), z.toLowerCase(), z.maxLength(254, messages.invalidEmail)),
  z.email({ error: messages.invalidEmail }),
);

/** Six digits exactly: the only shape of an email or authenticator code. */
export const code = z.string({ error: messages.invalidCode }).check(z.regex(/^\d{6}$/, messages.invalidCode));

export const username = z
  .string({ error: messages.usernameRequired })
  .check(
    z.trim(),
    z.minLength(3, messages.usernameTooShort),
    z.maxLength(30, messages.usernameTooLong),
    z.regex(/^[A-Za-z0-9_]+$/, messages.usernameCharacters),
  );

export const password = z
  .string({ error: messages.passwordRequired })
  .check(z.minLength(6, messages.passwordTooShort), z.maxLength(128, messages.passwordTooLong));

/** Free text describing the browser and OS; informative only, never trusted. */
export const device = z._default(z.optional(z.string().check(z.trim(), z.maxLength(200))), '');

/** Money crosses the wire as decimal strings, never as floats. */
export const decimalString = z.string().check(z.regex(/^-?\d+(\.\d+)?$/, 'must be a decimal number'));

export const emptyBody = z.looseObject({});
