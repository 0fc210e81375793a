import type { FastifyReply } from 'fastify';
import type { Refusal, RefusalKind } from '../../refusals.ts';

/**
 * The one place a refusal becomes an HTTP status (docs/api.md "Status codes"): each code in the catalogue
 * (server/src/sentences.ts `REFUSALS`) has a kind, and the kind decides the status. A sign-in attempt that is
 * over answers 409, not 401: 401 means "your session ended" and signs the web app out.
 */
export const STATUS_OF: Readonly<Record<RefusalKind, 400 | 401 | 403 | 404 | 409 | 413 | 414 | 429 | 500 | 503>> = {
  invalidInput: 400,
  notSignedIn: 401,
  signInExpired: 409,
  notAllowed: 403,
  notFound: 404,
  stateConflict: 409,
  tooMany: 429,
  unavailable: 503,
  tooLarge: 413,
  addressTooLong: 414,
  internal: 500,
};

export const statusOf = (refusal: Pick<Refusal, 'kind'>) => STATUS_OF[refusal.kind];

/** The refusal envelope (contracts/common.ts `refusal`): the code to key on, the sentence to show. */
export const refusalBody = (refusal: Refusal) => ({ success: false as const, code: refusal.code, info: refusal.sentence });

/** Answers a refusal: its status, and the envelope with its code and sentence. */
export const sendRefusal = (reply: FastifyReply, refusal: Refusal) => reply.code(statusOf(refusal)).send(refusalBody(refusal));
