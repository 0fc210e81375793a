import type { HTMLAttributes } from 'react';
import { css, cva, cx } from 'styled-system/css';

const badge = cva({
  base: { display: 'inline-flex', px: '2', py: '0.5', borderRadius: 'full', fontSize: 'xs', fontWeight: 'semibold', whiteSpace: 'nowrap' },
  variants: {
    tone: {
      neutral: { bg: 'bg.muted', color: 'fg.muted' },
      info: { bg: 'bg.muted', color: 'fg' },
      success: { bg: 'success.subtle', color: 'success' },
      warning: { bg: 'warning.subtle', color: 'warning' },
      danger: { bg: 'danger.subtle', color: 'danger' },
      // An offer's side, in the buttons' shades (panda.config.ts) in both colour modes: white on the buy/sell text tokens reads below 4.5:1.
      buy: { bg: 'emerald.700', color: 'white', fontWeight: 'bold', textTransform: 'uppercase' },
      sell: { bg: 'rose.700', color: 'white', fontWeight: 'bold', textTransform: 'uppercase' },
    },
  },
  defaultVariants: { tone: 'neutral' },
});
const capitalized = css({ textTransform: 'capitalize' });

export type BadgeTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger' | 'buy' | 'sell';

/** A short label in a pill, coloured by what it means: neutral (muted) unless told otherwise. */
export function Badge({ tone, className, ...span }: { tone?: BadgeTone } & HTMLAttributes<HTMLSpanElement>) {
  return <span className={cx(badge({ tone }), className)} {...span} />;
}

const TONES: Record<string, BadgeTone> = { completed: 'success', pending: 'warning', review: 'info', cancelled: 'danger' };
/** Statuses whose word is not the label: a withdrawal waiting for an operator's decision. */
const LABELS: Record<string, string> = { review: 'Waiting for review' };

/** Trade and transaction status badges: completed success, pending warning, review info, cancelled danger, anything else no badge. */
export function StatusBadge({ status }: { status: string }) {
  const tone = TONES[status];
  if (!tone) return null;
  const label = LABELS[status];
  if (label) {
    return (
      <Badge tone={tone} data-status={status}>
        {label}
      </Badge>
    );
  }
  return (
    <Badge tone={tone} className={capitalized} data-status={status}>
      {status}
    </Badge>
  );
}
