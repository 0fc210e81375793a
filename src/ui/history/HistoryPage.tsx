import type { ReactNode } from 'react';
import { cardStyle } from '../primitives/Card.tsx';
import { Pager } from '../primitives/Pager.tsx';
import { PageHeader } from '../pages/PageHeader.tsx';
import { HistoryFilterBar, historyTableWrap, type HistoryFilterBarProps } from './HistoryFilterBar.tsx';

/**
 * The frame Recent Trades and Recent Transactions share: the header, the filter bar, the table with its column
 * headings in a card that scrolls sideways on a phone, and Previous/Next. Each screen brings its own rows and
 * table style (their columns differ); the frame holds no state, the screen's chart does.
 */
export function HistoryPage<Type extends string>(props: {
  title: string;
  subtitle: string;
  busy: boolean;
  filters: HistoryFilterBarProps<Type>;
  tableClassName: string;
  columns: readonly string[];
  /** The table's rows. */
  children: ReactNode;
  /** Inside the card, under the table. */
  belowTable?: ReactNode;
  /** Between the card and the pages. */
  belowCard?: ReactNode;
  canPrevious: boolean;
  canNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
}) {
  return (
    <section aria-busy={props.busy}>
      <PageHeader title={props.title} subtitle={props.subtitle} />
      <HistoryFilterBar {...props.filters} />

      <div className={`${cardStyle} ${historyTableWrap}`}>
        <table className={props.tableClassName}>
          <thead>
            <tr>
              {props.columns.map((column) => (
                <th key={column}>{column}</th>
              ))}
            </tr>
          </thead>
          <tbody>{props.children}</tbody>
        </table>
        {props.belowTable}
      </div>
      {props.belowCard}

      <Pager canPrevious={props.canPrevious} canNext={props.canNext} onPrevious={props.onPrevious} onNext={props.onNext} />
    </section>
  );
}
