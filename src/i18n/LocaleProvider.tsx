import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { createContext, useContext, type ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { localeMachine } from '../machines/locale/locale.machine.ts';

export type LocaleActor = ActorRefFrom<typeof localeMachine>;

const LocaleActorContext = createContext<LocaleActor | null>(null);

/** The language chart's actor, for the picker; null where no chart runs (the page drawn at build time, a component's test). */
export const useLocaleActor = () => useContext(LocaleActorContext);

/** Lingui's catalogs for every `Trans` and `t` below, and the language chart for the pickers. */
export function LocaleProvider({ actor, children }: { actor: LocaleActor | null; children: ReactNode }) {
  return (
    <I18nProvider i18n={i18n}>
      <LocaleActorContext.Provider value={actor}>{children}</LocaleActorContext.Provider>
    </I18nProvider>
  );
}
