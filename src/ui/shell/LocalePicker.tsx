import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import { LOCALES, NATIVE_NAMES, isLocale, type Locale } from '../../i18n/locales.ts';
import { useLocaleActor, type LocaleActor } from '../../i18n/LocaleProvider.tsx';
import { selectChosenLocale } from '../../machines/locale/locale.selectors.ts';

const select = css({
  h: '8',
  px: '2',
  fontSize: 'sm',
  bg: 'bg.surface',
  color: 'fg',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'md',
  cursor: 'pointer',
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '1px' },
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
  return (
    <select
      className={select}
      aria-label={t`Language`}
      name="locale"
      value={value ?? i18n.locale}
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
  );
}
