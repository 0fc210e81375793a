/**
 * The languages the web app speaks (docs/i18n.md), and which one a visitor gets. A chart's file (machines/locale)
 * and the boot script that picks the language before the first paint (src/boot/locale.js, which must agree with
 * `pickLocale`: tests/ui/locale.test.ts runs both) read this; nothing here touches the browser.
 */
export const LOCALES = ['en', 'es', 'pt-BR', 'fr', 'ar'] as const;
/** The test locale (lingui.config.ts `pseudoLocale`): offered by no picker, chosen only by a test. */
export const PSEUDO_LOCALE = 'pseudo';
export type Locale = (typeof LOCALES)[number] | typeof PSEUDO_LOCALE;
export const SOURCE_LOCALE: Locale = 'en';

/** Each language's name in itself, as the picker lists them: a visitor looks for their own language's name. */
export const NATIVE_NAMES: Record<(typeof LOCALES)[number], string> = {
  en: 'English',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  fr: 'Français',
  ar: 'العربية',
};

/** Where the choice is kept on the device (localStorage). */
export const LOCALE_STORAGE_KEY = 'locale';

export const isLocale = (value: unknown): value is Locale =>
  value === PSEUDO_LOCALE || (LOCALES as readonly unknown[]).includes(value);

/** Right to left for Arabic; every other language left to right. */
export const directionOf = (locale: Locale): 'rtl' | 'ltr' => (locale === 'ar' ? 'rtl' : 'ltr');

/**
 * The language to show: the one chosen on this device, or else the first of the browser's languages (most preferred
 * first) the app speaks, by its language alone when its region is another (`es-AR` reads Spanish, `pt-PT` Brazilian
 * Portuguese, the only Portuguese there is), or else English.
 */
export function pickLocale(stored: string | null | undefined, languages: readonly string[]): Locale {
  if (isLocale(stored)) return stored;
  for (const language of languages) {
    const tag = language.toLowerCase();
    const exact = LOCALES.find((locale) => locale.toLowerCase() === tag);
    if (exact) return exact;
    const base = tag.split('-')[0];
    const byLanguage = LOCALES.find((locale) => locale.toLowerCase().split('-')[0] === base);
    if (byLanguage) return byLanguage;
  }
  return SOURCE_LOCALE;
}

/**
 * The locale Intl formats numbers and dates with: the language with its usual region, so English keeps the
 * product's en-US formats (src/ui/format/) and Spanish as Buenos Aires and Caracas write amounts (es-AR: a decimal comma).
 */
export const FORMAT_LOCALES: Record<Locale, string> = {
  en: 'en-US',
  es: 'es-AR',
  'pt-BR': 'pt-BR',
  fr: 'fr-FR',
  ar: 'ar-EG',
  pseudo: 'en-US',
};
