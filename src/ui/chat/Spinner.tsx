import { css } from 'styled-system/css';

const spinner = css({
  w: '8',
  h: '8',
  borderRadius: 'full',
  borderWidth: '3px',
  borderColor: 'border',
  borderTopColor: 'accent',
  animation: 'spin',
});

/** A turning ring, announced by its label. */
export function Spinner({ label }: { label: string }) {
  return <span role="status" aria-label={label} className={spinner} />;
}
