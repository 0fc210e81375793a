import { css } from 'styled-system/css';

const badge = css({
  display: 'inline-flex',
  px: '2',
  py: '0.5',
  borderRadius: 'full',
  fontSize: 'xs',
  fontWeight: 'semibold',
  textTransform: 'capitalize',
  '&[data-status=completed]': { bg: 'success.subtle', color: 'success' },
  '&[data-status=pending]': { bg: 'warning.subtle', color: 'warning' },
  '&[data-status=cancelled]': { bg: 'danger.subtle', color: 'danger' },
});

const STYLED = new Set(['completed', 'pending', 'cancelled']);

/** Trade status badges: completed success, pending warning, cancelled danger, anything else no badge. */
export function StatusBadge({ status }: { status: string }) {
  if (!STYLED.has(status)) return null;
  return (
    <span className={badge} data-status={status}>
      {status}
    </span>
  );
}
