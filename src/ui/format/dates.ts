import { DateTime } from 'luxon';
import { formatLocale } from './locale.ts';

/**
 * A moment as the reading locale writes a date and time (luxon with the locale): en "Nov 27, 2026, 3:05 PM", pt-BR
 * "27 de nov. de 2026, 15:05", ar with Arabic digits. The signed-in screens still write theirs with their own en-US
 * patterns (docs/i18n.md "What is left").
 */
export function formatDateTime(iso: string): string {
  const time = DateTime.fromISO(iso, { setZone: false });
  return time.isValid ? time.setLocale(formatLocale()).toLocaleString(DateTime.DATETIME_MED) : '';
}

/** A day as the reading locale writes it: en "Nov 27, 2026", fr "27 nov. 2026". */
export function formatDate(iso: string): string {
  const time = DateTime.fromISO(iso);
  return time.isValid ? time.setLocale(formatLocale()).toLocaleString(DateTime.DATE_MED) : '';
}
