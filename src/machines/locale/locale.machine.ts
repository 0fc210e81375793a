import { assign, setup } from 'xstate';
import { unboundPromise } from '../shared/unbound.ts';
import type { Locale } from '../../i18n/locales.ts';

export type LocaleContext = {
  /** The language asked for: picked on arrival, or chosen since. */
  locale: Locale;
  /** The language the page is in now; null until the first catalog has loaded. */
  shown: Locale | null;
};

export type LocaleEvent = { type: 'locale.choose'; locale: Locale };

/**
 * The language the app speaks (docs/i18n.md): the one picked on arrival from the device's remembered choice or the
 * browser's languages (src/i18n/locales.ts `pickLocale`, given as input), then whatever the visitor chooses in the
 * picker. A language shows once its catalog has loaded (each is a chunk of its own), without a reload; the page
 * stays in the language it shows until then.
 */
export const localeMachine = setup({
  types: {
    context: {} as LocaleContext,
    input: {} as { locale: Locale },
    events: {} as LocaleEvent,
  },
  actors: {
    loadCatalog: unboundPromise<void, { locale: Locale }>('loadCatalog'),
  },
  actions: {
    /** The loaded language on the page: Lingui's catalog, and `<html lang dir>`. */
    showLocale: (_: unknown, _params: { locale: Locale }) => {},
    /** The choice kept on the device, so the next visit opens in it. */
    rememberLocale: (_: unknown, _params: { locale: Locale }) => {},
  },
  guards: {
    isAnotherLocale: ({ context, event }) => event.locale !== context.locale,
    isArrivalInAnotherLanguage: ({ context }) => context.shown === null && context.locale !== 'en',
  },
}).createMachine({
  id: 'locale',
  description:
    'The language of the web app: picked on arrival (the remembered choice, else the browser’s languages, else English), then chosen in the picker; each language’s catalog loads only when it is needed.',
  context: ({ input }) => ({ locale: input.locale, shown: null }),
  initial: 'loading',
  states: {
    loading: {
      description: 'The asked-for language’s catalog is loading; the page stays in the language it shows (none yet on arrival).',
      invoke: {
        id: 'loadCatalog',
        src: 'loadCatalog',
        input: ({ context }) => ({ locale: context.locale }),
        onDone: {
          target: 'ready',
          description: 'The catalog is here: the page switches to the language, without a reload.',
          actions: [{ type: 'showLocale', params: ({ context }) => ({ locale: context.locale }) }, assign({ shown: ({ context }) => context.locale })],
        },
        onError: [
          {
            guard: 'isArrivalInAnotherLanguage',
            target: 'loading',
            reenter: true,
            description: 'On arrival the language’s catalog could not load (the network went away): English is tried instead, so the page has words.',
            actions: assign({ locale: 'en' as const }),
          },
          {
            target: 'ready',
            description: 'The catalog could not load: the page stays in the language it shows, and the picker shows that one again.',
            actions: assign({ locale: ({ context }) => context.shown ?? 'en' }),
          },
        ],
      },
      on: {
        'locale.choose': {
          guard: 'isAnotherLocale',
          target: 'loading',
          reenter: true,
          description: 'Another language chosen while one loads: the newer choice wins, and is kept.',
          actions: [assign({ locale: ({ event }) => event.locale }), { type: 'rememberLocale', params: ({ event }) => ({ locale: event.locale }) }],
        },
      },
    },
    ready: {
      description: 'The page is in the chosen language.',
      on: {
        'locale.choose': {
          guard: 'isAnotherLocale',
          target: 'loading',
          description: 'The visitor picks another language: it is kept on this device and its catalog loads.',
          actions: [assign({ locale: ({ event }) => event.locale }), { type: 'rememberLocale', params: ({ event }) => ({ locale: event.locale }) }],
        },
      },
    },
  },
});
