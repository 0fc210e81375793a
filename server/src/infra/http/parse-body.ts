import { z } from 'zod/mini';
import { refuse, sentences } from '../../sentences.ts';
import type { Refusal } from '../../refusals.ts';

type Issue = z.core.$ZodRawIssue;

const describeType = (expected: string): string =>
  ({ string: 'text', number: 'a number', int: 'a whole number', boolean: 'true or false', object: 'an object', array: 'a list' })[expected] ??
  expected;

/**
 * Sentences for the issues a contract does not word itself (a contract's own message always wins).
 * Each names its field, because the answer is one sentence and the reader must know which input is wrong.
 */
function wordIssue(issue: Issue): string | undefined {
  const path = issue.path ?? [];
  if (path.length === 0) return sentences.bodyNotObject;
  const field = path.join('.');
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? `${field} is required` : `${field} must be ${describeType(issue.expected)}`;
    case 'invalid_union':
      if (issue.input === undefined) return `${field} is required`;
      // A discriminated union (`type`) names its allowed values; zod 4 reports them as `options`.
      if ('options' in issue && Array.isArray(issue.options)) {
        return `${field} must be one of: ${issue.options.join(', ')}`;
      }
      return `${field} is not valid`;
    case 'invalid_value':
      return `${field} must be one of: ${issue.values.map(String).join(', ')}`;
    case 'too_big':
      return issue.origin === 'string'
        ? `${field} must be at most ${String(issue.maximum)} characters`
        : `${field} must be at most ${String(issue.maximum)}`;
    case 'too_small':
      return issue.origin === 'string'
        ? `${field} must be at least ${String(issue.minimum)} characters`
        : `${field} must be at least ${String(issue.minimum)}`;
    default:
      return `${field} is not valid`;
  }
}

/**
 * A message that starts with its field ("Username is required", or ours: "type must be one of: …") stands
 * alone; any other gets the field in front ("email: Please enter a valid email address").
 */
function sentenceFor(issue: z.core.$ZodIssue): string {
  if (issue.path.length === 0) return issue.message;
  const field = issue.path.join('.');
  return issue.message.toLowerCase().startsWith(field.toLowerCase()) ? issue.message : `${field}: ${issue.message}`;
}

const NUL = '\u0000';
/**
 * Half of a UTF-16 surrogate pair standing alone (`"ab\ud800cd"`, which JSON allows): not a character at all. UTF-8
 * cannot hold it, so PostgreSQL would store U+FFFD instead, and the answer showing the stored text would not be
 * what was stored. With the `u` flag a well-formed pair is one code point and does not match.
 */
const LONE_SURROGATE = /\p{Surrogate}/u;

/** A value met while walking a body, with the key it was found under and the value holding it. */
interface Walked {
  value: unknown;
  key?: string;
  parent?: Walked;
}

/** The keys from the body down to `node`, built only for the one string that is refused. */
function pathTo(node: Walked): string[] {
  const path: string[] = [];
  for (let at: Walked | undefined = node; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

/** Text no field may hold, and where the first such string is. */
export interface BadText {
  kind: 'nul' | 'lone-surrogate';
  path: string[];
}

/**
 * The first string in a JSON value that holds U+0000 or a lone surrogate, or undefined. PostgreSQL text cannot
 * store either, and nothing a person types contains them. Walked with a stack, not recursion: a 64 KB body can
 * nest thirty thousand levels deep. Each value keeps a link to its parent rather than a copy of its path: copies
 * cost the square of the depth, and twenty thousand nested lists (40 KB) held the server for 20 seconds.
 */
export function findBadText(value: unknown): BadText | undefined {
  const pending: Walked[] = [{ value }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (typeof next.value === 'string') {
      if (next.value.includes(NUL)) return { kind: 'nul', path: pathTo(next) };
      if (LONE_SURROGATE.test(next.value)) return { kind: 'lone-surrogate', path: pathTo(next) };
    } else if (typeof next.value === 'object' && next.value !== null) {
      const entries = Object.entries(next.value);
      // Reversed onto the stack, so the first field in the body is the one named.
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, child] = entries[index] as [string, unknown];
        pending.push({ value: child, key, parent: next });
      }
    }
  }
  return undefined;
}

/** The refusal of a body with bad text (its sentence names the field), or undefined when there is none. */
export function badTextRefusal(value: unknown): Refusal | undefined {
  const found = findBadText(value);
  if (!found) return undefined;
  const field = found.path.join('.');
  return found.kind === 'nul' ? refuse.nulCharacter(field) : refuse.loneSurrogate(field);
}

/** The sentence refusing a body with bad text, or undefined when there is none. */
export const badTextSentence = (value: unknown): string | undefined => badTextRefusal(value)?.sentence;

/**
 * Every request body goes through its contract schema before anything else looks at it. A missing body
 * counts as `{}` so that the answer names the first missing field instead of complaining about the body.
 * Before the schema, any text holding U+0000 or a lone surrogate is refused by name, in every field of every call.
 */
export function parseBody<S extends z.core.$ZodType>(schema: S, body: unknown): z.output<S> {
  const badText = badTextRefusal(body);
  if (badText) throw badText;
  const result = z.safeParse(schema, body === undefined ? {} : body, { error: wordIssue });
  if (result.success) return result.data;
  const [first] = result.error.issues;
  const sentence = first ? sentenceFor(first) : sentences.bodyNotObject;
  throw sentence === sentences.bodyNotObject ? refuse.bodyNotObject() : refuse.invalidField(sentence);
}
