import { Toast, Toaster as ArkToaster, createToaster } from '@ark-ui/react/toast';
import { useLingui } from '@lingui/react/macro';
import { css } from 'styled-system/css';
import { CloseIcon } from './icons.tsx';
import { WIDE_SCREEN, matchesMedia, useMediaQuery } from './useMediaQuery.ts';

/**
 * Where toasts show: from the top, right-aligned on a laptop and across a phone. The bottom of the screen is the
 * chat's message input and Send, and on a phone the trade's buttons, which a toast must never cover.
 */
const toastPlacement = (wide: boolean) => (wide ? 'top-end' : 'top');

/**
 * The product's toast limits: at most 3 at once, 4000 ms each; they start below the top bar (navStyles.ts `inner`,
 * 4rem high and sticky), so the bell, the menu and the profile stay in reach while one shows.
 */
export const toaster = createToaster({
  placement: toastPlacement(matchesMedia(WIDE_SCREEN)),
  offsets: { top: '4.5rem', right: '1rem', bottom: '1rem', left: '1rem' },
  max: 3,
  duration: 4000,
  overlap: false,
  gap: 12,
});

const root = css({
  width: 'min(22rem, calc(100vw - 2rem))',
  bg: 'bg.surface',
  color: 'fg',
  borderWidth: '1px',
  borderColor: 'border',
  borderLeftWidth: '4px',
  borderRadius: 'lg',
  boxShadow: 'lg',
  p: '4',
  pr: '10',
  position: 'relative',
  translate: 'var(--x) var(--y)',
  scale: 'var(--scale)',
  zIndex: 'var(--z-index)',
  height: 'var(--height)',
  opacity: 'var(--opacity)',
  willChange: 'translate, opacity, scale',
  transition: 'translate 400ms, scale 400ms, opacity 400ms, height 400ms',
  '&[data-type=error]': { borderLeftColor: 'danger', bg: 'danger.subtle' },
  '&[data-type=success]': { borderLeftColor: 'success' },
  '&[data-type=info]': { borderLeftColor: 'accent' },
});
const title = css({ fontWeight: 'semibold', fontSize: 'sm' });
const description = css({ fontSize: 'sm', color: 'fg.muted', mt: '1' });
const close = css({
  position: 'absolute',
  top: '2',
  right: '2',
  color: 'fg.muted',
  cursor: 'pointer',
  p: '1',
  borderRadius: 'sm',
  _hover: { color: 'fg' },
});

export function Toaster() {
  const { t } = useLingui();
  const placement = toastPlacement(useMediaQuery(WIDE_SCREEN));
  // The group reads the store's placement as it renders: a window that crossed the breakpoint gets a new group
  // (the key), which picks up the toasts already showing.
  toaster.attrs.placement = placement;
  return (
    <ArkToaster key={placement} toaster={toaster}>
      {(toast) => (
        <Toast.Root key={toast.id} className={root}>
          <Toast.Title className={title}>{toast.title}</Toast.Title>
          {toast.description ? <Toast.Description className={description}>{toast.description}</Toast.Description> : null}
          <Toast.CloseTrigger className={close} aria-label={t`Dismiss`}>
            <CloseIcon width={14} height={14} />
          </Toast.CloseTrigger>
        </Toast.Root>
      )}
    </ArkToaster>
  );
}
