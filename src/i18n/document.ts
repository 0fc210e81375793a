import { i18n, type Messages } from '@lingui/core';
import { directionOf, type Locale } from './locales.ts';

/**
 * A loaded language on the page: Lingui's active catalog (every `Trans` and `t` re-renders through I18nProvider),
 * and `<html lang dir>`, which screen readers, hyphenation and the mirrored layout of Arabic follow. The mark the
 * boot script left while a prerendered English page waited for another language (src/boot/locale.js) goes.
 */
export function showLocale(locale: Locale, messages: Messages, root: HTMLElement | undefined = globalThis.document?.documentElement) {
  i18n.loadAndActivate({ locale, messages });
  if (!root) return;
  root.lang = locale === 'pseudo' ? 'en-XA' : locale;
  root.dir = directionOf(locale);
  root.removeAttribute('data-locale-pending');
}
