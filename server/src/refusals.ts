/**
 * What a domain (accounts, offers, trades) answers when it will not do what was asked: the kind of refusal,
 * in the domain's own terms, with the one sentence the person at the screen reads. Domains throw these and
 * know nothing of HTTP; infra/http/errors.ts is the one place that turns each kind into a status code. Anything
 * else thrown is a bug, answered as such without detail.
 */
export abstract class Refusal extends Error {
  abstract readonly kind: RefusalKind;
  constructor(readonly sentence: string) {
    super(sentence);
  }
}

export type RefusalKind =
  | 'invalidInput'
  | 'notSignedIn'
  | 'signInExpired'
  | 'notAllowed'
  | 'notFound'
  | 'stateConflict'
  | 'tooMany'
  | 'unavailable';

/** The request itself is wrong: a field out of its rules, a wrong code or password. */
export class InvalidInput extends Refusal {
  readonly kind = 'invalidInput';
}

/** No live session calls: none was sent, or it expired or was revoked. */
export class NotSignedIn extends Refusal {
  readonly kind = 'notSignedIn';
}

/**
 * The sign-in attempt between password and second factor is over (expired, used, out of tries): only a new
 * sign-in with the password goes on. Not a session refusal, so the web app tells the trader in words.
 */
export class SignInExpired extends Refusal {
  readonly kind = 'signInExpired';
}

/** The caller is who they say, but this is not theirs to do (someone else's role in a trade, their own offer). */
export class NotAllowed extends Refusal {
  readonly kind = 'notAllowed';
}

/** No such thing, as far as the caller may know: unknown, or someone else's that they may not see. */
export class NotFound extends Refusal {
  readonly kind = 'notFound';
}

/** The thing is not in a state that allows this now (a trade no longer pending, a taken email, a changed rate). */
export class StateConflict extends Refusal {
  readonly kind = 'stateConflict';
}

/** Too many of these, too soon (rate limits, lockouts, code limits). */
export class TooMany extends Refusal {
  readonly kind = 'tooMany';
}

/** Something the request needs is down for now (the mail server, the database). */
export class Unavailable extends Refusal {
  readonly kind = 'unavailable';
}
