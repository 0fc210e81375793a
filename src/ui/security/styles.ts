import { css } from 'styled-system/css';

/** The look the security page's protection cards share with its two-factor card (SecurityScreen); badges are the Badge primitive. */
export const securityStyles = {
  head: css({ display: 'flex', gap: '3', alignItems: 'flex-start', justifyContent: 'space-between', flexWrap: 'wrap' }),
  title: css({ fontSize: 'lg', fontWeight: 'semibold' }),
  muted: css({ color: 'fg.muted', fontSize: 'sm' }),
  form: css({ display: 'flex', flexDirection: 'column', gap: '3', mt: '4', maxW: 'sm' }),
  actions: css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center' }),
  /** A sentence the server answered, kept on the card. */
  notice: css({ mt: '3', fontSize: 'sm', bg: 'success.subtle', color: 'fg', px: '3', py: '2', borderRadius: 'md' }),
  list: css({ listStyle: 'none', mt: '4', display: 'flex', flexDirection: 'column', borderTopWidth: '1px', borderColor: 'border' }),
  row: css({
    display: 'flex',
    gap: '3',
    alignItems: 'center',
    justifyContent: 'space-between',
    flexWrap: 'wrap',
    py: '3',
    borderBottomWidth: '1px',
    borderColor: 'border',
  }),
  rowMain: css({ display: 'flex', flexDirection: 'column', gap: '0.5', minW: '0', flex: '1 1 16rem' }),
  rowTitle: css({ fontWeight: 'medium', fontSize: 'sm', overflowWrap: 'anywhere' }),
  mono: css({ fontFamily: 'mono', fontSize: 'sm', overflowWrap: 'anywhere' }),
  badges: css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center' }),
};
