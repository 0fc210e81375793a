import { css, cva } from 'styled-system/css';

/** The look every modal dialog shares (Ark's Dialog parts): a dimmed page, the panel centred in it. */
export const dialogStyles = {
  backdrop: css({ position: 'fixed', inset: '0', bg: 'bg.overlay', zIndex: 40 }),
  positioner: css({ position: 'fixed', inset: '0', display: 'flex', alignItems: 'center', justifyContent: 'center', p: '4', zIndex: 41 }),
  /** A panel taller than the window scrolls inside it. */
  content: cva({
    base: {
      bg: 'bg.surface',
      color: 'fg',
      borderRadius: 'xl',
      borderWidth: '1px',
      borderColor: 'border',
      boxShadow: 'xl',
      width: '100%',
      maxH: 'calc(100vh - 2rem)',
      overflowY: 'auto',
      p: { base: '4', md: '6' },
      display: 'flex',
      flexDirection: 'column',
      gap: '4',
    },
    variants: { size: { md: { maxW: 'md' }, lg: { maxW: 'lg' } } },
    defaultVariants: { size: 'md' },
  }),
  title: css({ fontSize: 'xl', fontWeight: 'bold' }),
  description: css({ color: 'fg.muted', fontSize: 'sm', mt: '1' }),
  /** The buttons at the foot, Cancel before the main one. */
  actions: css({ display: 'flex', justifyContent: 'flex-end', gap: '2' }),
};
