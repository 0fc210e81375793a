import type { Messages } from '@lingui/core';
import type { Locale } from './locales.ts';

/**
 * A language's compiled catalog (src/locales/<locale>.po, compiled by @lingui/vite-plugin when imported), each a
 * chunk of its own: a visitor downloads only their language's. A literal import each, so the build sees them all.
 */
export function loadCatalog(locale: Locale): Promise<Messages> {
  switch (locale) {
    case 'es':
      return import('../locales/es.po').then((module) => module.messages);
    case 'pt-BR':
      return import('../locales/pt-BR.po').then((module) => module.messages);
    case 'fr':
      return import('../locales/fr.po').then((module) => module.messages);
    case 'ar':
      return import('../locales/ar.po').then((module) => module.messages);
    case 'pseudo':
      return import('../locales/pseudo.po').then((module) => module.messages);
    default:
      return import('../locales/en.po').then((module) => module.messages);
  }
}
