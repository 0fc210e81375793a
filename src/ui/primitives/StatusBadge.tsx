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
      // Darker (lighter in dark mode) than the danger token, as success and warning are: the token on its subtle shade
      // reads below 4.5:1 in both modes, and the token itself stays the destructive buttons' background under white text.
      danger: { bg: 'danger.subtle', color: { base: 'red.700', _dark: 'red.300' } },
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

/**
 * Trade and transaction status badges: completed success, pending warning, review info, cancelled danger, anything else
 * no badge. `label` says the status in other words (a trade's stage in the chat's list), in the status's colour.
 */
export function StatusBadge({ status, label: words }: { status: string; label?: string }) {
  const tone = TONES[status];
  if (!tone) return null;
  const label = words ?? LABELS[status];
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
