/**
 * What the server answers when it will not do what was asked: a stable `code` that the web app and the tests
 * key on, the kind of refusal in the domain's own terms, and the one sentence the person at the screen reads.
 * Each refusal is declared once, its code and kind beside its sentence, in its feature's sentences file
 * (server/src/*\/sentences.ts); server/src/sentences.ts gathers them into `REFUSALS`, the catalogue that
 * docs/api.md "Refusal codes" lists and tests/server/refusal-codes.test.ts pins. A throw site names one
 * entry: `throw refuse.tradeNotPending()`. Domains know nothing of HTTP; infra/http/errors.ts is the one place that
 * turns each kind into a status code. Anything else thrown is a bug, answered as such without detail.
 */
export class Refusal extends Error {
  constructor(
    readonly kind: RefusalKind,
    readonly code: string,
    readonly sentence: string,
  ) {
    super(sentence);
  }
}

export type RefusalKind =
  /** The request itself is wrong: a field out of its rules, a wrong code or password. */
  | 'invalidInput'
  /** No live session calls: none was sent, or it expired or was revoked. */
  | 'notSignedIn'
  /**
   * The sign-in attempt between password and second factor is over (expired, used, out of tries): only a new
   * sign-in with the password goes on. Not a session refusal, so the web app tells the trader in words.
   */
  | 'signInExpired'
  /** The caller is who they say, but this is not theirs to do (someone else's role in a trade, their own offer). */
  | 'notAllowed'
  /** No such thing, as far as the caller may know: unknown, or someone else's that they may not see. */
  | 'notFound'
  /** The thing is not in a state that allows this now (a trade no longer pending, a taken email, a changed rate). */
  | 'stateConflict'
  /** Too many of these, too soon (rate limits, lockouts, code limits). */
  | 'tooMany'
  /** Something the request needs is down for now (the mail server, the database), or the server is restarting. */
  | 'unavailable'
  /** The request is larger than any call takes (the body limit). */
  | 'tooLarge'
  /** The address is longer than the router reads. */
  | 'addressTooLong'
  /** A bug on our side: answered without detail, logged whole. */
  | 'internal';

/** A sentence as declared: a fixed text, or a function of what the sentence names (one code either way). */
export type Wording = string | ((...args: never[]) => string);

/** One entry of the catalogue: the code, the kind of refusal, and its sentence. */
export interface RefusalDeclaration<W extends Wording = Wording> {
  readonly code: string;
  readonly kind: RefusalKind;
  readonly sentence: W;
}

const declare =
  (kind: RefusalKind) =>
  <W extends Wording>(code: string, sentence: W): RefusalDeclaration<W> => ({ code, kind, sentence });

/** Declarations by kind, so that an entry reads `tradeNotPending: stateConflict('trade.not_pending', '…')`. */
export const invalidInput = declare('invalidInput');
export const notSignedIn = declare('notSignedIn');
export const signInExpired = declare('signInExpired');
export const notAllowed = declare('notAllowed');
export const notFound = declare('notFound');
export const stateConflict = declare('stateConflict');
export const tooMany = declare('tooMany');
export const unavailable = declare('unavailable');
export const tooLarge = declare('tooLarge');
export const addressTooLong = declare('addressTooLong');
export const internal = declare('internal');

type Declarations = Readonly<Record<string, RefusalDeclaration>>;

/** The sentences of a table of declarations, as they were before codes: a text, or a function of its parameters. */
export type SentencesOf<T extends Declarations> = { readonly [K in keyof T]: T[K]['sentence'] };
/** The refusals of a table of declarations, each built from the sentence's parameters. */
export type RefusersOf<T extends Declarations> = {
  readonly [K in keyof T]: T[K]['sentence'] extends (...args: infer A) => string ? (...args: A) => Refusal : () => Refusal;
};

export const sentencesOf = <T extends Declarations>(table: T): SentencesOf<T> =>
  Object.fromEntries(Object.entries(table).map(([key, entry]) => [key, entry.sentence])) as SentencesOf<T>;

export const refusersOf = <T extends Declarations>(table: T): RefusersOf<T> =>
  Object.fromEntries(
    Object.entries(table).map(([key, { code, kind, sentence }]) => [
      key,
      (...args: never[]) => new Refusal(kind, code, typeof sentence === 'string' ? sentence : sentence(...args)),
    ]),
  ) as RefusersOf<T>;
