// zod/mini: the same schemas as zod, tree-shakable, so the browser ships only the checks it uses.
import { z } from 'zod/mini';
import { messages } from './messages.ts';

/**
 * The names the OpenAPI document gives the contracts' schemas (`components/schemas`, server/src/openapi/document.ts):
 * each is declared once, on its schema (`.register(apiNames, { id: 'OfferList' })`), and every call that takes or
 * answers that schema is documented under it. A registry of its own rather than zod's global one: z.toJSONSchema
 * turns the global ids into `$defs` inside every schema that contains a named one, and the document carries each
 * contract's JSON Schema whole.
 */
export const apiNames = z.registry<{ id: string }>();

/** The answer envelope of every call: `info` is the payload on success and one sentence on refusal. */
export const envelope = <T extends z.core.$ZodType>(info: T) => z.object({ success: z.literal(true), info });
/**
 * A refusal: `code` is stable (`area.what_went_wrong`, docs/api.md "Refusal codes") for a client to decide on,
 * `info` the sentence to show. Every refusal the server sends carries both.
 */
export const refusal = z.object({
  success: z.literal(false),
  code: z.string().check(z.regex(/^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/), z.describe('The stable code of the refusal (docs/api.md "Refusal codes").')),
  info: z.string().check(z.describe('The sentence the person at the screen reads.')),
});

export const email = z.pipe(
  z.string({ error: messages.invalidEmail }).check(z.trim(), z.toLowerCase(), z.maxLength(254, messages.invalidEmail)),
  z.email({ error: messages.invalidEmail }),
);

/** Six digits exactly: the only shape of an email or authenticator code. */
export const code = z.string({ error: messages.invalidCode }).check(z.regex(/^\d{6}$/, messages.invalidCode));

/**
 * Recovery codes (two-factor without the phone): ten letters and digits that cannot be mistaken for one
 * another (no 0/o, 1/l), shown as `abcde-fghij`. 32 symbols, so a code holds 50 random bits.
 */
export const RECOVERY_CODE_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
export const RECOVERY_CODE_LENGTH = 10;
const RECOVERY_CODE = new RegExp(`^[${RECOVERY_CODE_ALPHABET}]{${RECOVERY_CODE_LENGTH}}$`);

/** A recovery code as the server compares it (`abcdefghij`), from however it was typed; undefined when it is not one. */
export function canonicalRecoveryCode(typed: string): string | undefined {
  const bare = typed.toLowerCase().replace(/[\s-]/g, '');
  return RECOVERY_CODE.test(bare) ? bare : undefined;
}

/** A recovery code as typed: spaces, dashes and case do not matter. The parsed value is the canonical form. */
export const recoveryCode = z.pipe(
  z.string({ error: messages.invalidRecoveryCode }).check(
    z.maxLength(40, messages.invalidRecoveryCode),
    z.refine((value) => canonicalRecoveryCode(value) !== undefined, messages.invalidRecoveryCode),
  ),
  z.transform((value) => canonicalRecoveryCode(value) ?? ''),
);

/** A second factor of the account's own: a 6-digit authenticator code or one of its recovery codes. */
export const secondFactor = z.string({ error: messages.invalidSecondFactor }).check(
  z.trim(),
  z.maxLength(40, messages.invalidSecondFactor),
  z.refine((value) => /^\d{6}$/.test(value) || canonicalRecoveryCode(value) !== undefined, messages.invalidSecondFactor),
);

/** The account's current password, asked again before a change a stolen session must not make. */
export const currentPassword = z
  .string({ error: messages.currentPasswordRequired })
  .check(z.minLength(1, messages.currentPasswordRequired), z.maxLength(128, messages.passwordTooLong));

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

/** The longest device label kept: the sign-in history, "New sign-in" notifications and pushes show it. */
export const DEVICE_LABEL_MAX_LENGTH = 100;
/**
 * Control characters (C0 with CR and LF, DEL, C1), line and paragraph separators and bidirectional controls:
 * nothing a label needs, and each could forge a line or reorder the text of a notification that quotes it.
 */
const LABEL_CONTROLS = /[\p{Cc}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]+/gu;

/** A device label as it is stored: controls become spaces, spaces are collapsed, then at most 100 characters. */
export function deviceLabel(text: string): string {
  const clean = text.replace(LABEL_CONTROLS, ' ').replace(/\s+/g, ' ').trim();
  // By code points, so a cut never leaves half a surrogate pair.
  return Array.from(clean).slice(0, DEVICE_LABEL_MAX_LENGTH).join('').trim();
}

/** Free text describing the browser and OS; informative only, never trusted, stored as `deviceLabel` makes it. */
export const device = z._default(z.optional(z.pipe(z.string().check(z.maxLength(200)), z.transform(deviceLabel))), '');

/** What a device id is: 16 to 64 URL-safe characters (the web app makes 22, 128 random bits). */
export const DEVICE_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
/**
 * An addition to the sign-in calls: a random id the browser keeps (the web app: in localStorage) and sends with
 * every sign-in, so that one from a device the account knows is not announced again (server/src/accounts/README.md
 * "New sign-ins"). Not a credential: it can only ever make a sign-in count as new, never hide a new address.
 */
export const deviceId = z.optional(
  z.string().check(z.regex(DEVICE_ID_PATTERN, 'device_id must be 16 to 64 letters, digits, - or _'), z.describe('A random id the browser keeps for itself; optional.')),
);

/** Money crosses the wire as decimal strings, never as floats. */
export const decimalString = z.string().check(z.regex(/^-?\d+(\.\d+)?$/, 'must be a decimal number'));

export const emptyBody = z.looseObject({}).register(apiNames, { id: 'EmptyBody' });

/**
 * Text a person writes (a chat message, a paying account, a comment, a resolution): trimmed, then at most `max`
 * characters; with `empty`, at least one (that sentence refuses a blank one). A body over 4 × `max` is refused
 * before it is trimmed, so a huge one costs nothing. `refine` adds a rule on the trimmed text.
 */
export function writtenText(options: {
  max: number;
  tooLong: string;
  /** The refusal when it is not a string at all. */
  notText: string;
  empty?: string;
  refine?: { test: (value: string) => boolean; message: string };
}) {
  const checks: z.core.$ZodCheck<string>[] = [];
  if (options.empty !== undefined) checks.push(z.minLength(1, options.empty));
  checks.push(z.maxLength(options.max, options.tooLong));
  if (options.refine) checks.push(z.refine(options.refine.test, options.refine.message));
  return z.pipe(
    z.string({ error: options.notText }).check(z.maxLength(options.max * 4, options.tooLong)),
    z.pipe(
      z.transform((value: string) => value.trim()),
      z.string().check(...checks),
    ),
  );
}

/**
 * A whole number with en-US thousands separators (10,000), as the refusals' sentences write them. Not
 * `toLocaleString('en-US')`: its first call loads the locale's data, a few tens of milliseconds of every start of
 * the server (where the contracts' sentences are built as they load) and of the first page.
 */
export const thousands = (count: number): string => String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
