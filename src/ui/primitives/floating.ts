import { css } from 'styled-system/css';

/**
 * What floats over the page from its trigger (a select's list, the profile menu, the notifications dropdown): a
 * raised surface with a border and a shadow. Each adds its own size, padding and stacking, none of these properties.
 */
export const floatingPanel = css({
  bg: 'bg.surface',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'lg',
  boxShadow: 'lg',
  _focusVisible: { outline: 'none' },
});

/** One choice of a floating list (a select's option, a menu item), lit while the pointer or the keyboard is on it. */
export const floatingItem = css({ display: 'flex', px: '3', py: '2', fontSize: 'sm', borderRadius: 'md', cursor: 'pointer', '&[data-highlighted]': { bg: 'bg.muted' } });
