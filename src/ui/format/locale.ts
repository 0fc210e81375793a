import { i18n } from '@lingui/core';
import { FORMAT_LOCALES, isLocale } from '../../i18n/locales.ts';

/**
 * The locale numbers, money and dates are written in: the language the page shows (src/i18n/locales.ts
 * FORMAT_LOCALES: English keeps en-US), read when a text is written, so a switch of language re-renders into it.
 */
export const formatLocale = (): string => (isLocale(i18n.locale) ? FORMAT_LOCALES[i18n.locale] : 'en-US');
