import type { HTMLAttributes } from 'react';
import { css, cx } from 'styled-system/css';

export const cardStyle = css({
  bg: 'bg.surface',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'xl',
  p: { base: '4', md: '6' },
  boxShadow: 'xs',
});

export function Card({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cx(cardStyle, className)} {...props} />;
}
