import type { ReactNode } from 'react';
import { cx } from 'styled-system/css';
import { emptyRow, longText, nowrap, stacked, table, tableCard } from './styles.ts';

/** A column: its heading, and how its cells sit (figures to the right, short values on one line, long text wrapped). */
export type Column = { label: string; numeric?: boolean; nowrap?: boolean; long?: boolean };

/** A row: its key, its cells in the columns' order, and any `data-` attributes the row carries (what tests and styles read). */
export type Row = { key: string | number; cells: ReactNode[]; data?: Record<`data-${string}`, string | number | boolean> };

/**
 * The console's tables: a card that scrolls sideways on a wide table, and on a phone each row a card of its own
 * whose lines are named by the column (styles.ts `stacked`). `empty` shows in place of no rows, once `loaded`.
 */
export function DataTable({
  columns,
  rows,
  empty,
  loaded = true,
  className,
  children,
}: {
  columns: readonly Column[];
  rows: readonly Row[];
  empty?: string;
  loaded?: boolean;
  className?: string;
  /** Inside the card, above the table (a network's name and watcher). */
  children?: ReactNode;
}) {
  const cellClass = (column: Column) => (column.long ? longText : column.nowrap ? nowrap : undefined);
  return (
    <div className={cx(tableCard, className)}>
      {children}
      <table className={cx(table, stacked)}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.label} data-numeric={column.numeric || undefined}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} {...row.data}>
              {row.cells.map((cell, index) => {
                const column = columns[index]!;
                return (
                  <td key={column.label} data-label={column.label} data-numeric={column.numeric || undefined} className={cellClass(column)}>
                    {cell}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {loaded && rows.length === 0 && empty ? <p className={emptyRow}>{empty}</p> : null}
    </div>
  );
}
