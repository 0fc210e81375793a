/**
 * Request bodies for the hostile-input table (tests/server/hostile-input.test.ts): fast-check arbitraries
 * derived from a call's own zod schema (through `z.toJSONSchema`, the input side), and the same bodies broken
 * in the ways a hostile client breaks them, as the raw JSON text that goes over the wire.
 */
import fc from 'fast-check';
import { z } from 'zod/mini';

/** The part of JSON Schema (draft 2020-12) that `z.toJSONSchema` writes for the contracts. */
export interface JsonSchema {
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'object' | 'array';
  const?: unknown;
  enum?: unknown[];
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
}

/** Strings of a generated body stay short: the huge ones are a breakage of their own. */
const GENERATED_STRING_MAX = 80;
const GENERATED_ARRAY_MAX = 6;

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? GENERATED_STRING_MAX, GENERATED_STRING_MAX));
  if (schema.pattern !== undefined) {
    const pattern = new RegExp(schema.pattern, 'u');
    // A pattern with its own lengths ({1,15}) can exceed maxLength: such strings are simply not generated.
    return fc
      .stringMatching(pattern)
      .filter((value) => value.length >= minLength && value.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY));
  }
  // Mostly plain text (it gets past the first checks); also any code point, astral and odd ones (bidi overrides) included.
  return fc.oneof(
    { arbitrary: fc.string({ unit: 'grapheme-ascii', minLength, maxLength }), weight: 3 },
    { arbitrary: fc.string({ unit: 'binary', minLength, maxLength }), weight: 1 },
  );
}

function integerArbitrary(schema: JsonSchema): fc.Arbitrary<number> {
  const min = schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : (schema.minimum ?? Number.MIN_SAFE_INTEGER);
  const max = schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : (schema.maximum ?? Number.MAX_SAFE_INTEGER);
  // Small ids and pages are the interesting ones (they exist); the bounds are too.
  return fc.oneof(
    fc.integer({ min: Math.max(min, -20), max: Math.min(max, 50) }),
    fc.constantFrom(min, max),
    fc.maxSafeInteger().filter((value) => value >= min && value <= max),
  );
}

/** A value the JSON schema accepts (its refinements aside: a zod `refine` has no JSON Schema). */
export function arbitraryOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.oneOf ?? schema.anyOf;
  if (choices) return fc.oneof(...choices.map(arbitraryOf));
  switch (schema.type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return integerArbitrary(schema);
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: schema.minimum, max: schema.maximum });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schema.items ? arbitraryOf(schema.items) : fc.jsonValue(), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? GENERATED_ARRAY_MAX, GENERATED_ARRAY_MAX)),
      });
    case 'object': {
      const properties = schema.properties ?? {};
      const model = Object.fromEntries(Object.entries(properties).map(([key, child]) => [key, arbitraryOf(child)]));
      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
    }
    default:
      // `unrepresentable: 'any'` (a transform's output side): anything JSON.
      return fc.jsonValue();
  }
}

/** The JSON Schema of what a call's zod schema accepts as input. */
export const jsonSchemaOf = (schema: z.core.$ZodType): JsonSchema =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

/** Bodies a call's own schema describes (most of them valid; a `refine` may still refuse some). */
export const bodiesOf = (schema: z.core.$ZodType | JsonSchema): fc.Arbitrary<unknown> =>
  arbitraryOf('_zod' in schema ? jsonSchemaOf(schema) : schema);

// ---------------------------------------------------------------------------------------------------------
// Breaking a body

/** One broken body: what was done to it and the raw text sent. */
export interface BrokenBody {
  breakage: string;
  raw: string;
}

/** Placeholders for raw JSON text that JSON.stringify cannot write (1e400, 20,000 levels of nesting). */
const RAW_MARK = '~raw~';
const rawValue = (text: string) => `${RAW_MARK}${text}${RAW_MARK}`;
const RAW_VALUES = new RegExp(`"${RAW_MARK}(.*?)${RAW_MARK}"`, 'gs');
/** JSON.stringify, then every placeholder replaced by its raw text. */
const serialise = (value: unknown): string =>
  JSON.stringify(value).replace(RAW_VALUES, (_whole, text: string) => JSON.parse(`"${text}"`) as string);

/** Over the app's 64 KiB body limit on its own. */
export const HUGE_STRING_LENGTH = 70_000;
const DEEP_NESTING = 20_000;

const wrongValues: ReadonlyArray<readonly [string, unknown]> = [
  ['a number', 7],
  ['a negative float', -0.5],
  ['a boolean', true],
  ['null', null],
  ['a list', ['x', 1]],
  ['an object', { type: 'list', nested: { value: 1 } }],
  ['a string', 'not-what-was-asked'],
  ['an empty string', ''],
  ['a numeric string', '12'],
  ['1e400 (infinite as a JS number)', rawValue('1e400')],
  ['-1e400', rawValue('-1e400')],
  ['2^53 + 1', rawValue('9007199254740993')],
  ['a number with 400 digits', rawValue(`1${'0'.repeat(400)}`)],
  ['a tiny number', rawValue('1e-400')],
];

const oddStrings: ReadonlyArray<readonly [string, string]> = [
  ['a NUL byte', 'ab\u0000cd'],
  ['a lone high surrogate', 'ab\ud800cd'],
  ['a lone low surrogate', '\udc00'],
  ['a reversed surrogate pair', '\udc00\ud800'],
  ['a bidi override', 'abc\u202edcba'],
  ['HTML', '<img src=x onerror=alert(1)>'],
  ['SQL', "'; DROP TABLE users; --"],
  ['a long string (5,000 characters)', 'y'.repeat(5_000)],
  ['line breaks', 'a\r\nb\u2028c'],
  ['only spaces', '     '],
];

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A field of the body to break: one of its keys, or a new one when it has none. */
const fieldOf = (body: Json, pick: number): string => {
  const keys = Object.keys(body);
  return keys.length === 0 ? 'field' : (keys[pick % keys.length] as string);
};

/** Every way of breaking a body given one generated value of it; `pick` chooses the field and the variant. */
function breakBody(body: unknown, kind: number, pick: number): BrokenBody {
  const object: Json = isRecord(body) ? { ...body } : { value: body };
  const field = fieldOf(object, pick);
  switch (kind) {
    case 0: {
      const [name, value] = wrongValues[pick % wrongValues.length] as readonly [string, unknown];
      return { breakage: `${field} is ${name}`, raw: serialise({ ...object, [field]: value }) };
    }
    case 1: {
      const { [field]: _dropped, ...rest } = object;
      return { breakage: `${field} is missing`, raw: serialise(rest) };
    }
    case 2: {
      const [name, value] = oddStrings[pick % oddStrings.length] as readonly [string, string];
      return { breakage: `${field} holds ${name}`, raw: serialise({ ...object, [field]: value }) };
    }
    case 3:
      return { breakage: `${field} is a huge string`, raw: serialise({ ...object, [field]: 'x'.repeat(HUGE_STRING_LENGTH) }) };
    case 4:
      return {
        breakage: `${field} is nested ${DEEP_NESTING} levels deep`,
        raw: serialise({ ...object, [field]: rawValue(pick % 2 === 0 ? `${'['.repeat(DEEP_NESTING)}${']'.repeat(DEEP_NESTING)}` : `${'{"a":'.repeat(DEEP_NESTING)}1${'}'.repeat(DEEP_NESTING)}`) }),
      };
    case 5: {
      // Extra fields, one of them with an odd value; the body is otherwise as generated.
      const [name, value] = oddStrings[pick % oddStrings.length] as readonly [string, string];
      return { breakage: `extra fields (one holding ${name})`, raw: serialise({ ...object, is_admin: true, role: 'moderator', user_id: 1, extra: value }) };
    }
    case 6: {
      // Prototype poisoning: the key written first, as raw text, so JSON.stringify cannot drop it.
      const poison = pick % 2 === 0 ? '"__proto__":{"role":"moderator","is_admin":true}' : '"constructor":{"prototype":{"role":"moderator"}}';
      const rest = serialise(object);
      return { breakage: `a ${pick % 2 === 0 ? '__proto__' : 'constructor.prototype'} key`, raw: rest === '{}' ? `{${poison}}` : `{${poison},${rest.slice(1)}` };
    }
    case 7: {
      const shapes: ReadonlyArray<readonly [string, string]> = [
        ['a list of the body', serialise([object])],
        ['a bare string', serialise('list')],
        ['a bare number', '1e400'],
        ['null', 'null'],
        ['the body twice over', `${serialise(object)}${serialise(object)}`],
        ['the body cut short', serialise(object).slice(0, -1)],
        ['a duplicated type key', `{"type":"list",${serialise(object).slice(1)}`],
      ];
      const [name, raw] = shapes[pick % shapes.length] as readonly [string, string];
      return { breakage: `the body is ${name}`, raw };
    }
    default:
      throw new Error(`no breakage ${kind}`);
  }
}

const BREAKAGES = 8;

/** A body the schema describes, broken one way: the raw JSON text to send. */
export const brokenBodiesOf = (bodies: fc.Arbitrary<unknown>): fc.Arbitrary<BrokenBody> =>
  fc
    .tuple(bodies, fc.nat({ max: BREAKAGES - 1 }), fc.nat({ max: 1_000 }))
    .map(([body, kind, pick]) => breakBody(body, kind, pick));

/** A client address per request, so that per-address limits never answer for the body (198.18.0.0/15, RFC 2544). */
export const benchmarkAddress = (): string => `198.18.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;
