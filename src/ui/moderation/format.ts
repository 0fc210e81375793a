import { DateTime } from 'luxon';
import type { DisputeOutcome } from '../../../contracts/index.ts';

/** A moment on the desk, e.g. "Mar 05, 02:07 PM". */
export const formatMoment = (iso: string) => DateTime.fromISO(iso).toFormat('LLL dd, hh:mm a');

/** The escrow as the server states it (already to the coin's places), with its ticker. */
export const cryptoAmount = (amount: string, ticker: string) => `${amount} ${ticker.toUpperCase()}`;

/** What a settlement did, as the desk words it. */
export const outcomeText: Record<DisputeOutcome, string> = {
  release: 'Released to the buyer',
  refund: 'Refunded to the seller',
};
