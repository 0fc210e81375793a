import { css, cx } from 'styled-system/css';

/**
 * Looks several components share, as Panda class names. A component adds its own with `cx`, and only properties
 * these do not set: two atomic classes for one property would leave the winner to the stylesheet's order.
 */

/**
 * What floats over the page from its trigger (a select's list, the profile menu, the notifications dropdown): a
 * raised surface with a border and a shadow. Each adds its own size, padding and stacking.
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

/** A button that is only an icon (back, the menu, the bell, show/hide): the icon centred, lit under the pointer. Each sets its size and corners. */
export const iconButton = css({ display: 'inline-flex', alignItems: 'center', justifyContent: 'center', flexShrink: 0, cursor: 'pointer', _hover: { bg: 'bg.muted' } });

/** The keyboard's focus ring on a control of the product's own (the Button recipe draws the same). Each sets its offset. */
export const focusRing = css({ _focusVisible: { outline: '2px solid', outlineColor: 'accent' } });

/** A whole row of a list that is one button (a conversation, a dispute, a notification). Each sets its layout and side padding. */
export const rowButton = cx(
  focusRing,
  css({ width: '100%', textAlign: 'left', py: '3', cursor: 'pointer', color: 'fg', _hover: { bg: 'bg.muted' }, _focusVisible: { outlineOffset: '-2px' } }),
);

/** A trader's initial in a circle of the accent colour (a conversation, a profile, the account menu). Each sets its size. */
export const initialAvatar = css({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  flexShrink: 0,
  borderRadius: 'full',
  bg: 'accent',
  color: 'accent.fg',
  fontWeight: 'bold',
});

/** Where something will show once there is something to show: a dashed outline around a muted, centred sentence. */
export const dashedPlaceholder = css({
  borderWidth: '1px',
  borderStyle: 'dashed',
  borderColor: 'border',
  borderRadius: 'xl',
  py: '16',
  px: '4',
  textAlign: 'center',
  color: 'fg.muted',
});
