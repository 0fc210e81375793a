import { css } from 'styled-system/css';
import type { PriceDirection } from '../../machines/livePrices/livePrices.machine.ts';
import { ArrowDownIcon, ArrowUpIcon } from '../primitives/icons.tsx';

/** A live figure coloured by its last move; `data-direction` carries the move to CSS (and to tests). */
export const movingFigure = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '1',
  fontVariantNumeric: 'tabular-nums',
  transition: 'color 0.3s',
  '&[data-direction=up]': { color: 'success' },
  '&[data-direction=down]': { color: 'danger' },
});
const hidden = css({ srOnly: true });

/** The arrow of a price's last move, with words for screen readers; nothing before the first move. */
export function PriceMove({ direction }: { direction: PriceDirection | null }) {
  if (direction === null) return null;
  return (
    <>
      {direction === 'up' ? <ArrowUpIcon width={14} height={14} /> : <ArrowDownIcon width={14} height={14} />}
      <span className={hidden}>{direction === 'up' ? 'price up' : 'price down'}</span>
    </>
  );
}
