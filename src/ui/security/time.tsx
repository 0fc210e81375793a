import { DateTime } from 'luxon';
import { formatRelative } from '../format/relative.ts';

/** "3 hours ago" (or "just now") with the exact local time on hover (the title), in a <time> element machines can read. */
export function RelativeTime({ iso }: { iso: string }) {
  const exact = DateTime.fromISO(iso).toLocaleString(DateTime.DATETIME_MED_WITH_SECONDS);
  return (
    <time dateTime={iso} title={exact}>
      {formatRelative(iso) || exact}
    </time>
  );
}

/** An exact local date and time ("Nov 24, 2026, 9:41 PM"), for times the trader waits for. */
export const exactTime = (iso: string) => DateTime.fromISO(iso).toLocaleString(DateTime.DATETIME_MED);
