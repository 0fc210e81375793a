import { css } from 'styled-system/css';
import { PageHeader } from './PageHeader.tsx';

const empty = css({
  mt: '6',
  borderWidth: '1px',
  borderStyle: 'dashed',
  borderColor: 'border',
  borderRadius: 'xl',
  py: '16',
  px: '4',
  textAlign: 'center',
  color: 'fg.muted',
  bg: 'bg.surface',
});

/** A screen whose capability lands in a later release: its title and an honest empty state. */
export function ComingSoon({ title, subtitle, empty: emptyText }: { title: string; subtitle: string; empty: string }) {
  return (
    <section>
      <PageHeader title={title} subtitle={subtitle} />
      <div className={empty}>{emptyText}</div>
    </section>
  );
}
