import type { ReactNode } from 'react';
import { css, cx } from 'styled-system/css';
import { rowButton } from '../primitives/looks.ts';

const list = css({ flex: '1', overflowY: 'auto', minH: '0' });
const entry = cx(rowButton, css({ borderBottomWidth: '1px', borderColor: 'border', '&[aria-current=true]': { bg: 'accent.subtle' } }));

/**
 * The left column's trades, one button each, the open one marked current: /chat's conversations and the dispute
 * desk's disputes. `layout` is the screen's own arrangement of an entry (its display, direction, gaps, side padding).
 */
export function ChannelList<Row extends { channel: string }>({
  label,
  busy,
  rows,
  selected,
  onSelect,
  layout,
  marks,
  children,
}: {
  label: string;
  busy: boolean;
  rows: readonly Row[];
  selected: string | null | undefined;
  onSelect: (channel: string) => void;
  layout: string;
  /** More data-* attributes on each item, e.g. the chat's partner and status. */
  marks?: (row: Row, current: boolean) => Record<`data-${string}`, boolean | string>;
  children: (row: Row) => ReactNode;
}) {
  return (
    <ul className={list} aria-label={label} aria-busy={busy}>
      {rows.map((row) => {
        const current = row.channel === selected;
        return (
          <li key={row.channel} data-channel={row.channel} {...marks?.(row, current)}>
            <button type="button" className={`${entry} ${layout}`} aria-current={current} onClick={() => onSelect(row.channel)}>
              {children(row)}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
