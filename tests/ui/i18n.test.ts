import { readFileSync } from 'node:fs';
import { setupI18n } from '@lingui/core';
import { createActor, waitFor } from 'xstate';
import { showLocale } from '../../src/i18n/document.ts';
import { LOCALES, pickLocale } from '../../src/i18n/locales.ts';
import { knownSentences, translateSentence } from '../../src/i18n/sentences.ts';
import { bindLocale } from '../../src/machines/locale/locale.actors.ts';
import { messages as spanish } from '../../src/locales/es.po';
import { messages as brazilian } from '../../src/locales/pt-BR.po';
import { messages as rules } from '../../contracts/messages.ts';

const CATALOGS = ['en', 'es', 'pt-BR', 'fr', 'ar'];

/** A .po file's entries: msgid → msgstr, obsolete ones (#~) apart. */
function readPo(locale: string) {
  const text = readFileSync(`src/locales/${locale}.po`, 'utf8');
  const entries = new Map<string, string>();
  const unquote = (quoted: string) => JSON.parse(quoted) as string;
  for (const match of text.matchAll(/^msgid (".*")\nmsgstr (".*")$/gm)) entries.set(unquote(match[1]!), unquote(match[2]!));
  entries.delete('');
  return { entries, obsolete: /^#~ /m.test(text) };
}

describe('the catalogs (src/locales/*.po)', () => {
  const english = readPo('en').entries;

  it('hold the source messages', () => {
    expect(english.size).toBeGreaterThan(50);
    expect(english.get('Welcome back')).toBe('Welcome back');
  });

  it.each(CATALOGS.slice(1))('%s translates every message of the source, and holds none it does not', (locale) => {
    const { entries, obsolete } = readPo(locale);
    const missing = [...english.keys()].filter((id) => !entries.get(id));
    expect(missing, `untranslated in ${locale}`).toEqual([]);
    expect([...entries.keys()].filter((id) => !english.has(id)), `not in the source`).toEqual([]);
    expect(obsolete, `${locale} keeps entries no code uses (#~): run npx lingui extract --clean`).toBe(false);
    // A placeholder the translation lost would drop the value (an email, minutes) from the sentence.
    for (const [id, translated] of entries) {
      const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}|<(\d+)>/g)].map((match) => match[0]).sort();
      expect(placeholders(translated), `${locale}: ${id}`).toEqual(placeholders(id));
    }
  });
});

describe('picking the language (src/i18n/locales.ts, src/boot/locale.js)', () => {
  const cases: [string | null, string[], string][] = [
    [null, ['pt-BR', 'en'], 'pt-BR'],
    [null, ['pt-PT'], 'pt-BR'],
    [null, ['es-AR', 'en-US'], 'es'],
    [null, ['fr-SN'], 'fr'],
    [null, ['ar-EG'], 'ar'],
    [null, ['de-DE', 'fr'], 'fr'],
    [null, ['de-DE'], 'en'],
    [null, [], 'en'],
    [null, ['en-NG', 'yo'], 'en'],
    ['es', ['ar'], 'es'],
    ['pseudo', ['ar'], 'pseudo'],
    ['klingon', ['ar'], 'ar'],
  ];

  it.each(cases)('remembered %s, browser %j → %s', (stored, languages, expected) => {
    expect(pickLocale(stored, languages)).toBe(expected);
  });

  it.each(cases)('the boot script picks alike: remembered %s, browser %j → %s', (stored, languages, expected) => {
    const source = readFileSync('src/boot/locale.js', 'utf8');
    Object.defineProperty(navigator, 'languages', { value: languages, configurable: true });
    localStorage.clear();
    if (stored !== null) localStorage.setItem('locale', stored);
    const root = document.documentElement;
    root.removeAttribute('data-locale-pending');
    new Function(source)();
    expect(root.lang).toBe(expected === 'pseudo' ? 'en-XA' : expected);
    expect(root.dir).toBe(expected === 'ar' ? 'rtl' : 'ltr');
    expect(root.hasAttribute('data-locale-pending'), 'the English page drawn at build time hidden').toBe(expected !== 'en');
    localStorage.clear();
  });

  it('offers exactly the five languages', () => {
    expect([...LOCALES]).toEqual(CATALOGS);
  });
});

describe('the language chart bound (src/machines/locale/locale.actors.ts)', () => {
  it('loads the picked language, shows it on the page, and a choice is kept and shown without a reload', async () => {
    const remembered: string[] = [];
    const loads: string[] = [];
    const root = document.createElement('html');
    root.setAttribute('data-locale-pending', '');
    const actor = createActor(
      bindLocale({
        loadCatalog: async (locale) => {
          loads.push(locale);
          return locale === 'es' ? spanish : brazilian;
        },
        show: (locale, messages) => showLocale(locale, messages, root),
        remember: (locale) => void remembered.push(locale),
      }),
      { input: { locale: 'es' } },
    ).start();
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect([root.lang, root.dir, root.hasAttribute('data-locale-pending')]).toEqual(['es', 'ltr', false]);
    expect(remembered, 'what the browser said is not a choice').toEqual([]);
    actor.send({ type: 'locale.choose', locale: 'pt-BR' });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect([root.lang, root.dir]).toEqual(['pt-BR', 'ltr']);
    expect(remembered).toEqual(['pt-BR']);
    expect(loads).toEqual(['es', 'pt-BR']);
    actor.stop();
  });
});

describe('sentences the app receives (src/i18n/sentences.ts)', () => {
  it('each is keyed by its English exactly as it arrives', () => {
    for (const { english, descriptor } of knownSentences()) expect(descriptor.message).toBe(english);
    // The field rules' every message is among them.
    const keys = new Set(knownSentences().map(({ english }) => english));
    expect(Object.values(rules).filter((sentence) => !keys.has(sentence))).toEqual([]);
  });

  it('reads them in the active language, values kept, and leaves an unknown sentence as it came', () => {
    const i18n = setupI18n({ locale: 'pt-BR', messages: { 'pt-BR': brazilian } });
    expect(translateSentence('Passwords do not match', i18n)).toBe('As senhas não coincidem');
    expect(translateSentence('A verification code has been sent to ana@example.com', i18n)).toBe('Enviamos um código de verificação para ana@example.com');
    expect(translateSentence('Too many failed sign-in attempts. Please try again in 15 minutes.', i18n)).toBe(
      'Muitas tentativas de login sem sucesso. Tente novamente em 15 minutos.',
    );
    expect(translateSentence('Something the app has never heard', i18n)).toBe('Something the app has never heard');
  });
});
