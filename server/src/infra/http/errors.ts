import type { Refusal, RefusalKind } from '../../refusals.ts';

/**
 * The one place a domain's refusal becomes an HTTP status (docs/api.md "Status codes"). A sign-in attempt
 * that is over answers 409, not 401: 401 means "your session ended" and signs the web app out.
 */
const STATUS_OF: Record<RefusalKind, 400 | 401 | 403 | 404 | 409 | 429 | 503> = {
  invalidInput: 400,
  notSignedIn: 401,
  signInExpired: 409,
  notAllowed: 403,
  notFound: 404,
  stateConflict: 409,
  tooMany: 429,
  unavailable: 503,
};

export const statusOf = (refusal: Refusal) => STATUS_OF[refusal.kind];
