import { css } from 'styled-system/css';
import { Button } from './Button.tsx';

const pager = css({ display: 'flex', justifyContent: 'center', gap: '3', mt: '6' });

/** "Previous" and "Next" under a paged list, each disabled as the list's paginator says. */
export function Pager(props: { canPrevious: boolean; canNext: boolean; onPrevious: () => void; onNext: () => void }) {
  return (
    <nav className={pager} aria-label="Pages">
      <Button variant="outline" disabled={!props.canPrevious} onClick={props.onPrevious}>
        Previous
      </Button>
      <Button variant="outline" disabled={!props.canNext} onClick={props.onNext}>
        Next
      </Button>
    </nav>
  );
}
