/**
 * What a chart reads of a failed call (an `ApiError` from src/services/api.ts, or anything thrown): its HTTP
 * status to decide on, and its sentence to show as it comes (docs/web-app.md "Failures"). A chart decides on the
 * status (or the stable code), never on the words.
 */

/** The refusal's HTTP status; 0 for a failure that has none (the network, a bug). */
export const refusalStatus = (error: unknown): number =>
  typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number' ? error.status : 0;

/** The sentence to show: the server's, or the product's for a failure without one. */
export const refusalText = (error: unknown): string =>
  error instanceof Error && error.message.trim() !== '' ? error.message : 'An unknown error occurred';
