import { defineConfig } from '@lingui/conf';

/**
 * The web app's catalogs (docs/i18n.md): English is the source, written in the code through Lingui's macros;
 * `npx lingui extract` writes every message into each language's .po file, and @lingui/vite-plugin compiles a
 * catalog when it is imported (src/i18n/catalogs.ts), one chunk per language. `pseudo` is the test locale: its
 * catalog is the English turned into accented, lengthened text, so untranslated or truncated text shows.
 */
export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'es', 'pt-BR', 'fr', 'ar', 'pseudo'],
  pseudoLocale: 'pseudo',
  fallbackLocales: { default: 'en' },
  catalogs: [{ path: '<rootDir>/src/locales/{locale}', include: ['<rootDir>/src'], exclude: ['**/node_modules/**'] }],
  orderBy: 'messageId',
});
