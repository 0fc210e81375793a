import { t } from '@lingui/core/macro';
import { DateTime } from 'luxon';
import { formatLocale } from './locale.ts';

/**
 * Under this long ago a moment reads "just now": luxon would say "0 seconds ago", "12 seconds ago", a count nobody
 * needs for something that has just happened.
 */
const JUST_NOW_MS = 60_000;

/**
 * "5 minutes ago" style (in the reading locale: pt-BR "há 5 minutos"), for a moment that has happened (a notification, a sign-in, a rating, a trade opened):
 * "just now" under a minute, and for a moment the browser's clock puts ahead of now (the server's clock a little
 * ahead of it), which has happened all the same. Its own module: luxon is a fifth of a page's script, and every page
 * that formats money (Browse Offers, the wallets) would otherwise download it.
 */
export function formatRelative(iso: string, now: DateTime = DateTime.now()): string {
  const time = DateTime.fromISO(iso).setLocale(formatLocale());
  if (!time.isValid) return '';
  if (now.toMillis() - time.toMillis() < JUST_NOW_MS) return t`just now`;
  return time.toRelative({ base: now }) ?? '';
}
