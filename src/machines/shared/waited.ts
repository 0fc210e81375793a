const MINUTE_MS = 60_000;
const MINUTES_PER_HOUR = 60;
const MINUTES_PER_DAY = 24 * MINUTES_PER_HOUR;

/**
 * How long something has waited, from `since` (ISO 8601) to `now` (ms), as the dispute desk and the trade chat
 * word it: "less than a minute", "14 min", "2 h 5 min", "1 d 3 h" (days and hours past a day). Never negative,
 * whatever the clocks say.
 */
export function waitedSince(since: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(since)) / MINUTE_MS));
  if (minutes < 1) return 'less than a minute';
  const days = Math.floor(minutes / MINUTES_PER_DAY);
  const hours = Math.floor((minutes % MINUTES_PER_DAY) / MINUTES_PER_HOUR);
  const rest = minutes % MINUTES_PER_HOUR;
  const parts = days > 0 ? [`${days} d`, hours > 0 ? `${hours} h` : ''] : [hours > 0 ? `${hours} h` : '', rest > 0 ? `${rest} min` : ''];
  return parts.filter(Boolean).join(' ');
}

/**
 * The region that reads the time once a minute, so the waits a page shows (`waitedSince`) stay current; the
 * chart declares in `setup` the action `tick` (bound: the browser's clock) and the delay `waitingTick`.
 */
export const clockRegion = (description: string) => ({
  description,
  initial: 'ticking' as const,
  states: {
    ticking: { entry: 'tick' as const, after: { waitingTick: { target: 'ticking', reenter: true } } },
  },
});

/**
 * How long is left until `until` (ISO 8601) from `now` (ms), as a countdown reads it: "14:32", "1:05:00" past an
 * hour; whole seconds rounded up, so it reads "0:01" until the very end. Null once `until` has come.
 */
export function leftUntil(until: string, now: number): string | null {
  const seconds = Math.ceil((Date.parse(until) - now) / 1000);
  if (!(seconds > 0)) return null;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}
