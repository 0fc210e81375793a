import { css } from 'styled-system/css';
import { Button } from './Button.tsx';

const pager = css({ display: 'flex', justifyContent: 'center', gap: '3', mt: '6' });

/** The two events every paged list's chart takes for its pages (Browse Offers, the histories, the console's lists). */
export type PageTurn = { type: 'page.previous' } | { type: 'page.next' };

/**
 * "Previous" and "Next" under a paged list, each disabled as the list's paginator says; a click is the chart's
 * `page.previous` or `page.next`.
 */
export function Pager(props: { canPrevious: boolean; canNext: boolean; actor: { send: (event: PageTurn) => void } }) {
  return (
    <nav className={pager} aria-label="Pages">
      <Button variant="outline" disabled={!props.canPrevious} onClick={() => props.actor.send({ type: 'page.previous' })}>
        Previous
      </Button>
      <Button variant="outline" disabled={!props.canNext} onClick={() => props.actor.send({ type: 'page.next' })}>
        Next
      </Button>
    </nav>
  );
}
