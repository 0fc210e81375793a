import type { ReactNode } from 'react';
import { cardStyle } from '../primitives/Card.tsx';
import { Pager } from '../primitives/Pager.tsx';
import { PageHeader } from '../pages/PageHeader.tsx';
import { HistoryFilterBar, historyTableWrap, type HistoryFilterBarProps, type HistoryStatusFilter } from './HistoryFilterBar.tsx';

/** The events both history charts take alike (tradeHistory, walletHistory): status, coin, "Clear All", the pages. */
export type HistoryListEvent =
  | { type: 'filter.status'; value: HistoryStatusFilter }
  | { type: 'filter.coin'; value: string }
  | { type: 'filters.clear' }
  | { type: 'page.next' }
  | { type: 'page.previous' };

/**
 * The frame Recent Trades and Recent Transactions share: the header, the filter bar, the table with its column
 * headings in a card that scrolls sideways on a phone, and Previous/Next. Each screen brings its own rows and
 * table style (their columns differ); the frame holds no state, the screen's chart does.
 */
export function HistoryPage<Type extends string>(props: {
  title: string;
  subtitle: string;
  busy: boolean;
  /** The screen's own type filter (trade type, transaction type). */
  type: HistoryFilterBarProps<Type>['type'];
  status: HistoryStatusFilter;
  coinId: string;
  coins: HistoryFilterBarProps<Type>['coins'];
  /** The screen's chart: it takes the shared events. */
  send: (event: HistoryListEvent) => void;
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
}) {
  const { send } = props;
  return (
    <section aria-busy={props.busy}>
      <PageHeader title={props.title} subtitle={props.subtitle} />
      <HistoryFilterBar
        type={props.type}
        status={props.status}
        coinId={props.coinId}
        coins={props.coins}
        onStatus={(value) => send({ type: 'filter.status', value })}
        onCoin={(value) => send({ type: 'filter.coin', value })}
        onClear={() => send({ type: 'filters.clear' })}
      />

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

      <Pager
        canPrevious={props.canPrevious}
        canNext={props.canNext}
        onPrevious={() => send({ type: 'page.previous' })}
        onNext={() => send({ type: 'page.next' })}
      />
    </section>
  );
}
