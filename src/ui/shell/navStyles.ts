import { css } from 'styled-system/css';

export const bar = css({
  position: 'sticky',
  top: '0',
  zIndex: 10,
  bg: 'bg.surface',
  borderBottomWidth: '1px',
  borderColor: 'border',
});
export const inner = css({
  maxW: '7xl',
  mx: 'auto',
  px: { base: '4', md: '6' },
  h: '16',
  display: 'flex',
  alignItems: 'center',
  gap: '6',
});
export const right = css({ display: 'flex', alignItems: 'center', gap: '2', marginInlineStart: 'auto' });
