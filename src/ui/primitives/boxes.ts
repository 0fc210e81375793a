import { css, cva, cx } from 'styled-system/css';
import { cardStyle } from './Card.tsx';

/**
 * Looks only signed-in screens share, as Panda class names: kept out of looks.ts, which the first page's scripts
 * carry (bench/bundle-size.ts). As there, a screen adds its own with `cx`, and only properties these do not set.
 */

/**
 * A box set apart from the page in a tone: a rounded box of small text, tinted in its tone and bordered in it unless
 * `bordered: false` (a shortage on the console's overview, a notice over the review queue, a trader's suspension, the
 * account a buyer paid from; unbordered, the chat's offline banner and a failed export). Each sets its padding and layout.
 */
export const callout = cva({
  base: { borderRadius: 'lg', fontSize: 'sm' },
  variants: {
    tone: {
      danger: { borderColor: 'danger', bg: 'danger.subtle' },
      warning: { borderColor: 'warning', bg: 'warning.subtle' },
      accent: { borderColor: 'accent', bg: 'accent.subtle' },
    },
    bordered: { true: { borderWidth: '1px' }, false: {} },
  },
  defaultVariants: { bordered: true },
});

/** Facts as a `dl` of names and values side by side, the names muted (a trader, a dispute, a withdrawal). Each sets its columns and row gap. */
export const factList = css({ display: 'grid', columnGap: '3', fontSize: 'sm', '& dt': { color: 'fg.muted' } });

/** The filters above a list (role "search"): a card whose fields line up at their foot. Each sets its columns. */
export const filterBar = cx(cardStyle, css({ display: 'grid', gap: '3', alignItems: 'end', mt: '6' }));
