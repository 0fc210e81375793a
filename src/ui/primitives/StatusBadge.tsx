import type { ReactNode } from 'react';
import { css, cx } from 'styled-system/css';

export type BadgeTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

const badge = css({
  display: 'inline-flex',
  px: '2',
  py: '0.5',
  borderRadius: 'full',
  fontSize: 'xs',
  fontWeight: 'semibold',
  whiteSpace: 'nowrap',
  bg: 'bg.muted',
  color: 'fg.muted',
  '&[data-tone=info]': { color: 'fg' },
  '&[data-tone=success]': { bg: 'success.subtle', color: 'success' },
  '&[data-tone=warning]': { bg: 'warning.subtle', color: 'warning' },
  '&[data-tone=danger]': { bg: 'danger.subtle', color: 'danger' },
});
const capitalized = css({ textTransform: 'capitalize' });

/** A short label in a pill, coloured by what it means: neutral (muted) unless told otherwise. */
export function Badge({ tone = 'neutral', className, children }: { tone?: BadgeTone; className?: string; children: ReactNode }) {
  return (
    <span className={cx(badge, className)} data-tone={tone}>
      {children}
    </span>
  );
}

const TONES: Record<string, BadgeTone> = { completed: 'success', pending: 'warning', cancelled: 'danger' };

/** Trade status badges: completed success, pending warning, cancelled danger, anything else no badge. */
export function StatusBadge({ status }: { status: string }) {
  const tone = TONES[status];
  if (!tone) return null;
  return (
    <span className={cx(badge, capitalized)} data-tone={tone} data-status={status}>
      {status}
    </span>
  );
}
