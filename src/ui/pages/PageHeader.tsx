import type { ReactNode } from 'react';
import { css } from 'styled-system/css';

const header = css({
  display: 'flex',
  flexDirection: { base: 'column', sm: 'row' },
  alignItems: { base: 'flex-start', sm: 'center' },
  justifyContent: 'space-between',
  gap: '3',
});
const title = css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'bold', letterSpacing: '-0.02em' });
const subtitle = css({ color: 'fg.muted', mt: '1' });

export function PageHeader({ title: text, subtitle: sub, actions }: { title: string; subtitle?: string; actions?: ReactNode }) {
  return (
    <header className={header}>
      <div>
        <h1 className={title}>{text}</h1>
        {sub ? <p className={subtitle}>{sub}</p> : null}
      </div>
      {actions}
    </header>
  );
}
