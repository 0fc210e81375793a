import { fromPromise } from 'xstate';
import type { Messages } from '@lingui/core';
import type { Locale } from '../../i18n/locales.ts';
import { localeMachine } from './locale.machine.ts';

export type LocaleDeps = {
  loadCatalog: (locale: Locale) => Promise<Messages>;
  show: (locale: Locale, messages: Messages) => void;
  remember: (locale: Locale) => void;
};

/** The language chart bound to the catalogs (src/i18n/catalogs.ts), the page (src/i18n/document.ts) and the device's storage. */
export function bindLocale(deps: LocaleDeps) {
  const loaded = new Map<Locale, Messages>();
  return localeMachine.provide({
    actors: {
      loadCatalog: fromPromise(async ({ input }: { input: { locale: Locale } }) => {
        loaded.set(input.locale, await deps.loadCatalog(input.locale));
      }),
    },
    actions: {
      showLocale: (_, { locale }) => deps.show(locale, loaded.get(locale) ?? {}),
      rememberLocale: (_, { locale }) => deps.remember(locale),
    },
  });
}
