import { DateTime } from 'luxon';

/**
 * "5 minutes ago" style, as the dashboard's recent trades show it. Its own module: luxon is a fifth of a page's
 * script, and every page that formats money (Browse Offers, the wallets) would otherwise download it.
 */
export function formatRelative(iso: string, now: DateTime = DateTime.now()): string {
  return DateTime.fromISO(iso).toRelative({ base: now }) ?? '';
}
