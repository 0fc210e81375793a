import { DateTime } from 'luxon';

/** "3 hours ago" with the exact local time on hover (the title), in a <time> element machines can read. */
export function RelativeTime({ iso }: { iso: string }) {
  const time = DateTime.fromISO(iso);
  const exact = time.toLocaleString(DateTime.DATETIME_MED_WITH_SECONDS);
  return (
    <time dateTime={iso} title={exact}>
      {time.toRelative() ?? exact}
    </time>
  );
}

/** An exact local date and time ("Nov 24, 2026, 9:41 PM"), for times the trader waits for. */
export const exactTime = (iso: string) => DateTime.fromISO(iso).toLocaleString(DateTime.DATETIME_MED);
