import { formatCrypto, formatUsd } from '../format/money.ts';

/** A moment in the console, in the operator's time zone: "Mar 05, 2026, 14:07". */
export const formatMoment = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'short', day: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    new Date(iso),
  );

/** A moment or "Never" / "—" when there is none. */
export const formatMaybe = (iso: string | null, none = '—') => (iso ? formatMoment(iso) : none);

/** A coin amount to its coin's places, with its ticker. */
export const coinAmount = (amount: string, places: number, ticker: string) => formatCrypto(amount, places, ticker);

/** A USD figure with 2 places. */
export const usd = formatUsd;

/** A whole count with en-US grouping. */
export const count = (value: number) => value.toLocaleString('en-US');
