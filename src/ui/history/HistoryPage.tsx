import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { ActorRef, Snapshot } from 'xstate';
import { css, cx } from 'styled-system/css';
import { historySelectors } from '../../machines/shared/pagedList.ts';
import { DataTable, type Row } from '../primitives/DataTable.tsx';
import { Pager } from '../primitives/Pager.tsx';
import { PageHeader } from '../pages/PageHeader.tsx';
import { HistoryFilterBar, historyTableWrap, STATUS_OPTIONS, type HistoryFilterBarProps, type HistoryStatusFilter } from './HistoryFilterBar.tsx';

/** The events both history charts take alike (tradeHistory, walletHistory): status, coin, "Clear All", the pages. */
export type HistoryListEvent<Status extends string = HistoryStatusFilter> =
  | { type: 'filter.status'; value: Status | '' }
  | { type: 'filter.coin'; value: string }
  | { type: 'filters.clear' }
  | { type: 'page.next' }
  | { type: 'page.previous' };

/** The filters the frame reads of a history chart, besides the screen's own type filter. */
type FrameFilters<Status extends string> = { status: Status | ''; coinId: string };

/** A history chart (tradeHistory, walletHistory) as the frame reads it (the shared selectors) and talks to it (the shared events). */
export type HistoryActor<Status extends string = HistoryStatusFilter> = ActorRef<
  Snapshot<unknown> & Parameters<typeof historySelectors.selectFilters<FrameFilters<Status>>>[0],
  HistoryListEvent<Status>
>;

/** The look of both history tables on a laptop (each screen sets its cells' side padding, `tableClassName`); on a phone, DataTable's cards. */
const table = css({
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: 'sm',
  '& th': { textAlign: 'left', color: 'fg.muted', fontWeight: 'medium', py: '3', whiteSpace: 'nowrap', borderBottomWidth: '1px', borderColor: 'border' },
  '& td': { py: '3', whiteSpace: 'nowrap', borderBottomWidth: '1px', borderColor: 'border', fontVariantNumeric: 'tabular-nums' },
  '& tr:last-child td': { borderBottomWidth: '0' },
});

/**
 * The frame Recent Trades and Recent Transactions share: the header, the filter bar, the table with its column
 * headings (DataTable: a card that scrolls sideways on a laptop too narrow for it, each row a card on a phone), and Previous/Next, as the screen's chart has them (the
 * filters, the coin choices, a page loading, the pages). Each screen brings its own type filter, rows and cell
 * padding (their columns differ); the frame holds no state.
 */
export function HistoryPage<Type extends string, Status extends string = HistoryStatusFilter>(props: {
  actor: HistoryActor<NoInfer<Status>>;
  /** The status filter's choices (default: the common ones, STATUS_OPTIONS). */
  statuses?: HistoryFilterBarProps<Type, Status>['statuses'];
  title: string;
  subtitle: string;
  /** The screen's own type filter (trade type, transaction type). */
  type: HistoryFilterBarProps<Type>['type'];
  tableClassName: string;
  columns: readonly string[];
  /** The table's rows, each its cells in the columns' order. */
  rows: readonly Row[];
  /** Inside the card, under the table. */
  belowTable?: ReactNode;
  /** Between the card and the pages. */
  belowCard?: ReactNode;
}) {
  const { actor } = props;
  const { status, coinId } = useSelector(actor, historySelectors.selectFilters);
  const coins = useSelector(actor, historySelectors.selectCoins);
  const busy = useSelector(actor, historySelectors.selectIsLoading);
  const canPrevious = useSelector(actor, historySelectors.selectCanPrevious);
  const canNext = useSelector(actor, historySelectors.selectCanNext);
  return (
    <section aria-busy={busy}>
      <PageHeader title={props.title} subtitle={props.subtitle} />
      <HistoryFilterBar
        type={props.type}
        status={status}
        // Without its own choices a screen's statuses are the common ones (its chart's filter type says so).
        statuses={props.statuses ?? (STATUS_OPTIONS as HistoryFilterBarProps<Type, Status>['statuses'])}
        coinId={coinId}
        coins={coins}
        onStatus={(value) => actor.send({ type: 'filter.status', value })}
        onCoin={(value) => actor.send({ type: 'filter.coin', value })}
        onClear={() => actor.send({ type: 'filters.clear' })}
      />

      <DataTable
        className={historyTableWrap}
        tableClassName={cx(table, props.tableClassName)}
        columns={props.columns.map((label) => ({ label }))}
        rows={props.rows}
        below={props.belowTable}
      />
      {props.belowCard}

      <Pager canPrevious={canPrevious} canNext={canNext} actor={actor} />
    </section>
  );
}
