import type { ReactNode } from 'react';
import { css } from 'styled-system/css';
import { Button } from '../primitives/Button.tsx';
import { Spinner } from './Spinner.tsx';

const layout = css({
  display: 'grid',
  gap: '4',
  mt: '4',
  // Small screens show one column at a time: the list, or the chosen item with a way back.
  '&:not([data-view=list]) > [data-column=list]': { display: { base: 'none', md: 'flex' } },
  '&[data-view=list] > [data-column]:not([data-column=list])': { display: { base: 'none', md: 'flex' } },
});
const column = css({
  display: 'flex',
  flexDirection: 'column',
  minH: '0',
  bg: 'bg.surface',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'xl',
  overflow: 'hidden',
});

/** What the detail column shows while nothing is open in it (a hint, a spinner, a failure and its retry). */
export const splitPlaceholder = css({
  flex: '1',
  display: 'flex',
  flexDirection: 'column',
  gap: '3',
  alignItems: 'center',
  justifyContent: 'center',
  color: 'fg.muted',
  p: '6',
  textAlign: 'center',
});

const retryRow = css({ display: 'flex', gap: '2' });

/** A column waiting for what it shows: the spinner, announced by `label`. `className` places it (splitPlaceholder unless told). */
export function ColumnLoading({ label, className = splitPlaceholder }: { label: string; className?: string }) {
  return (
    <div className={className}>
      <Spinner label={label} />
    </div>
  );
}

/** A column whose content could not be loaded: why, "Try again", and any other way out (`children`). */
export function ColumnFailed({
  text,
  onRetry,
  className = splitPlaceholder,
  children,
}: {
  text: string;
  onRetry: () => void;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <div className={className} role="alert">
      <p>{text}</p>
      <div className={retryRow}>
        <Button size="sm" variant="outline" onClick={onRetry}>
          Try again
        </Button>
        {children}
      </div>
    </div>
  );
}

/**
 * A list on the left and the chosen item on the right, one at a time on a phone: /chat's conversations and the
 * dispute desk's disputes. `sizes` is the screen's own: its columns' widths and its height in the window.
 * `view` is "list" while nothing is chosen, else the detail column's name.
 */
export function SplitView({
  sizes,
  view,
  detailName,
  list,
  detail,
  offline,
}: {
  sizes: string;
  view: string;
  detailName: string;
  list: ReactNode;
  detail: ReactNode;
  /** Marks the layout data-offline (the chat shrinks under its reconnecting banner). */
  offline?: boolean;
}) {
  return (
    <div className={`${layout} ${sizes}`} data-view={view} data-offline={offline || undefined}>
      <div className={column} data-column="list">
        {list}
      </div>
      <div className={column} data-column={detailName}>
        {detail}
      </div>
    </div>
  );
}
