import { createActor, type AnyMachineSnapshot } from 'xstate';
import type { Locale } from '../../src/i18n/locales.ts';
import { localeMachine } from '../../src/machines/locale/locale.machine.ts';
import { selectChosenLocale, selectIsSwitching, selectShownLocale } from '../../src/machines/locale/locale.selectors.ts';
import { describeModel, replay, scriptedActors, walk, type ModelEvent, type ModelPath, type Coverage } from '../support/machines.ts';

const input = { locale: 'pt-BR' as Locale };
const choose = (locale: Locale): ModelEvent => ({ type: 'locale.choose', locale });

/** What the visitor and the network can do: pick English, Arabic or Brazilian Portuguese at any time; a catalog arrives or fails. */
function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const list: ModelEvent[] = [choose('en'), choose('ar'), choose('pt-BR')];
  if (snapshot.matches('loading')) {
    list.push({ type: 'xstate.done.actor.loadCatalog', output: undefined }, { type: 'xstate.error.actor.loadCatalog', error: new Error('offline') });
  }
  return list;
}

const model = walk(localeMachine, { events, input });

/**
 * The oracle, written apart from the chart: the language the picker shows, the one the page is in, which catalog
 * loads, and what is kept on the device. A choice of the language already asked for does nothing; a failed catalog
 * leaves the page in the language it shows, and on arrival loads English instead.
 */
async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['loadCatalog']);
  const shown: Locale[] = [];
  const remembered: Locale[] = [];
  const actor = createActor(
    localeMachine.provide({
      actors: fakes.actors as never,
      actions: {
        showLocale: (_, { locale }) => void shown.push(locale),
        rememberLocale: (_, { locale }) => void remembered.push(locale),
      },
    }),
    { input, inspect: coverage?.inspect },
  ).start();
  let asked: Locale = input.locale;
  let page: Locale | null = null;
  let loading = true;
  const expectedLoads: Locale[] = [asked];
  const expectedShown: Locale[] = [];
  const expectedRemembered: Locale[] = [];
  await replay(actor, path, fakes, (snapshot, step, index) => {
    if (index > 0) {
      const event = step.event;
      if (event.type === 'locale.choose' && event.locale !== asked) {
        asked = event.locale as Locale;
        loading = true;
        expectedLoads.push(asked);
        expectedRemembered.push(asked);
      } else if (event.type === 'xstate.done.actor.loadCatalog') {
        page = asked;
        loading = false;
        expectedShown.push(asked);
      } else if (event.type === 'xstate.error.actor.loadCatalog') {
        if (page === null && asked !== 'en') {
          // Arriving, the page has no words yet: English is loaded instead.
          asked = 'en';
          expectedLoads.push('en');
        } else {
          asked = page ?? 'en';
          loading = false;
        }
      }
    }
    expect(selectChosenLocale(snapshot as never)).toBe(asked);
    expect(selectShownLocale(snapshot as never)).toBe(page);
    expect(selectIsSwitching(snapshot as never)).toBe(loading);
  });
  expect(fakes.calls.map((call) => (call.input as { locale: Locale }).locale)).toEqual(expectedLoads);
  expect(shown).toEqual(expectedShown);
  expect(remembered).toEqual(expectedRemembered);
  actor.stop();
}

describeModel('locale', localeMachine, model, 4, run);
