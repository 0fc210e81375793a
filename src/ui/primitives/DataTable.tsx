import type { ReactNode } from 'react';
import { css, cx } from 'styled-system/css';
import { cardStyle } from './Card.tsx';

/** A column: its heading, and how its cells sit (figures to the right, short values on one line, long text wrapped). */
export type Column = { label: string; numeric?: boolean; nowrap?: boolean; long?: boolean };

/** A row: its key, its cells in the columns' order, and any `data-` attributes the row carries (what tests and styles read). */
export type Row = { key: string | number; cells: ReactNode[]; data?: Record<`data-${string}`, string | number | boolean> };

/** The card a table sits in: no padding of its own, and a wide table scrolls sideways inside it on a laptop. */
const tableCard = cx(cardStyle, css({ p: '0!', overflowX: 'auto' }));

/** The console's look of a table (the default): cells padded alike, aligned to their tops, figures to the right. */
const consoleTable = css({
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: 'sm',
  '& th': {
    textAlign: 'left',
    color: 'fg.muted',
    fontWeight: 'medium',
    px: '4',
    py: '3',
    whiteSpace: 'nowrap',
    borderBottomWidth: '1px',
    borderColor: 'border',
  },
  '& td': { px: '4', py: '3', borderBottomWidth: '1px', borderColor: 'border', fontVariantNumeric: 'tabular-nums', verticalAlign: 'top' },
  '& tr:last-child td': { borderBottomWidth: '0' },
  '& th[data-numeric], & td[data-numeric]': { textAlign: 'right', whiteSpace: 'nowrap' },
});

/**
 * On a phone every table reads as cards: each row a block, each cell a line with its column's name (the cell's
 * `data-label`, drawn by `::before`, so a cell's text stays its own) on the left and its value on the right,
 * wrapping rather than running past the screen's edge. From md up it is the table again. It is the same table
 * restyled, so the rows and cells keep their roles (said explicitly as well, as a table whose parts are no longer
 * laid out as one may otherwise lose them); the headings, hidden, still name the columns.
 */
const stacked = css({
  mdDown: {
    '& thead': { display: 'none' },
    '& tbody, & tr': { display: 'block' },
    '& tr': { py: '2', borderBottomWidth: '1px', borderColor: 'border' },
    '& tr:last-child': { borderBottomWidth: '0' },
    '& td, & td[data-numeric]': {
      display: 'flex',
      justifyContent: 'space-between',
      alignItems: 'baseline',
      gap: '3',
      // One inset for every line of the card, whatever side padding the table gives its columns on a laptop.
      px: '4',
      py: '1',
      borderBottomWidth: '0',
      textAlign: 'right',
      whiteSpace: 'normal',
      overflowWrap: 'anywhere',
      minW: '0',
      maxW: 'none',
    },
    '& td[data-label]::before': { content: 'attr(data-label)', color: 'fg.muted', textAlign: 'left', flexShrink: 0, whiteSpace: 'nowrap' },
  },
});
/** A cell that must not wrap (a date, an amount, a name). */
const nowrap = css({ whiteSpace: 'nowrap' });
/** A cell of long text (a reason, an address): it wraps anywhere rather than widen the table past reason. */
export const longText = css({ minW: '12rem', maxW: '28rem', overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' });
/** The sentence in an empty table's place. */
const emptyRow = css({ p: '6', textAlign: 'center', color: 'fg.muted', fontSize: 'sm' });

/**
 * Every data table of the product (the histories, the operator console): a card that scrolls sideways on a wide
 * table, and on a phone each row a card of its own whose lines are named by the column. `empty` shows in place of
 * no rows, once `loaded`; `tableClassName` gives a table another look than the console's (the histories').
 */
export function DataTable({
  columns,
  rows,
  empty,
  loaded = true,
  className,
  tableClassName = consoleTable,
  children,
  below,
}: {
  columns: readonly Column[];
  rows: readonly Row[];
  empty?: string;
  loaded?: boolean;
  className?: string;
  tableClassName?: string;
  /** Inside the card, above the table (a network's name and watcher). */
  children?: ReactNode;
  /** Inside the card, under the table (a sentence of the screen's own in place of no rows). */
  below?: ReactNode;
}) {
  const cellClass = (column: Column) => (column.long ? longText : column.nowrap ? nowrap : undefined);
  return (
    <div className={cx(tableCard, className)}>
      {children}
      <table className={cx(tableClassName, stacked)}>
        <thead role="rowgroup">
          <tr role="row">
            {columns.map((column) => (
              <th key={column.label} role="columnheader" data-numeric={column.numeric || undefined}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {rows.map((row) => (
            <tr key={row.key} role="row" {...row.data}>
              {row.cells.map((cell, index) => {
                const column = columns[index]!;
                return (
                  <td key={column.label} role="cell" data-label={column.label} data-numeric={column.numeric || undefined} className={cellClass(column)}>
                    {cell}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {loaded && rows.length === 0 && empty ? <p className={emptyRow}>{empty}</p> : null}
      {below}
    </div>
  );
}
