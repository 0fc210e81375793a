import { css, cx } from 'styled-system/css';
import { dashedPlaceholder } from '../primitives/looks.ts';
import { PageHeader } from './PageHeader.tsx';

const empty = cx(dashedPlaceholder, css({ mt: '6', bg: 'bg.surface' }));

/** A screen whose capability lands in a later release: its title and an honest empty state. */
export function ComingSoon({ title, subtitle, empty: emptyText }: { title: string; subtitle: string; empty: string }) {
  return (
    <section>
      <PageHeader title={title} subtitle={subtitle} />
      <div className={empty}>{emptyText}</div>
    </section>
  );
}
