/**
 * A refusal with its HTTP status and the one sentence the user reads. Anything else that is thrown is a
 * bug: the error handler answers it with a 500 that reveals nothing.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: 400 | 401 | 403 | 404 | 409 | 413 | 429 | 503,
    readonly sentence: string,
  ) {
    super(sentence);
  }
}

export const badRequest = (sentence: string) => new HttpError(400, sentence);
export const forbidden = (sentence: string) => new HttpError(403, sentence);
export const notFound = (sentence: string) => new HttpError(404, sentence);
export const conflict = (sentence: string) => new HttpError(409, sentence);
export const tooManyRequests = (sentence: string) => new HttpError(429, sentence);
export const unavailable = (sentence: string) => new HttpError(503, sentence);
