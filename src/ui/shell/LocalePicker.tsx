import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import { LOCALES, NATIVE_NAMES, isLocale, type Locale } from '../../i18n/locales.ts';
import { useLocaleActor, type LocaleActor } from '../../i18n/LocaleProvider.tsx';
import { selectChosenLocale } from '../../machines/locale/locale.selectors.ts';

/** The language as a phone's bar shows it (the picker's select lists the full names). */
const SHORT_NAMES: Record<Locale, string> = {
  en: 'EN',
  es: 'ES',
  'pt-BR': 'PT',
  fr: 'FR',
  ar: 'عربي',
  pseudo: 'XA',
};

const wrap = css({
  position: 'relative',
  display: 'inline-flex',
  alignItems: 'center',
});
/** On a phone the bar shows the language's short name, the select (transparent) over it still taking the taps. */
const short = css({
  display: { base: 'inline-flex', sm: 'none' },
  alignItems: 'center',
  h: '8',
  px: '2',
  fontSize: 'sm',
  fontWeight: 'medium',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'md',
});
const select = css({
  position: { base: 'absolute', sm: 'static' },
  inset: '0',
  opacity: { base: 0, sm: 1 },
  w: { base: '100%', sm: 'auto' },
  h: '8',
  px: '2',
  fontSize: 'sm',
  bg: 'bg.surface',
  color: 'fg',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'md',
  cursor: 'pointer',
  _focusVisible: {
    outline: '2px solid',
    outlineColor: 'accent',
    outlineOffset: '1px',
  },
});

/**
 * The language picker of the signed-out pages: the browser's own select (a keyboard, a screen reader and a phone's
 * wheel each work with it), each language named in itself, so a visitor finds theirs whatever the page is in now.
 * Choosing sends `locale.choose` to the language chart; the page switches once the catalog is here.
 */
export function LocalePicker() {
  const actor = useLocaleActor();
  return actor ? <ChartPicker actor={actor} /> : <Picker value={null} />;
}

function ChartPicker({ actor }: { actor: LocaleActor }) {
  const chosen = useSelector(actor, selectChosenLocale);
  return <Picker value={chosen} onChoose={(locale) => actor.send({ type: 'locale.choose', locale })} />;
}

function Picker({ value, onChoose }: { value: Locale | null; onChoose?: (locale: Locale) => void }) {
  const { t, i18n } = useLingui();
  const current = value ?? (isLocale(i18n.locale) ? i18n.locale : 'en');
  return (
    <span className={wrap}>
      <span className={short} aria-hidden="true">
        {SHORT_NAMES[current]} ▾
      </span>
      <select
        className={select}
        aria-label={t`Language`}
        name="locale"
        value={current}
        onChange={(event) => {
          if (isLocale(event.target.value)) onChoose?.(event.target.value);
        }}
      >
        {LOCALES.map((locale) => (
          <option key={locale} value={locale} lang={locale} dir={locale === 'ar' ? 'rtl' : 'ltr'}>
            {NATIVE_NAMES[locale]}
          </option>
        ))}
      </select>
    </span>
  );
}
