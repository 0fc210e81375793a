import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import { selectDetailView } from '../../machines/moderationDesk/moderationDesk.selectors.ts';
import { Spinner } from '../chat/Spinner.tsx';
import { PageHeader } from '../pages/PageHeader.tsx';
import { Button } from '../primitives/Button.tsx';
import { DisputeList } from './DisputeList.tsx';
import { DisputePane } from './DisputePane.tsx';
import type { DeskRef } from './types.ts';

const layout = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', md: '18rem 1fr', lg: '20rem 1fr' },
  gap: '4',
  mt: '4',
  // From md up both panes fill the window below the bar and scroll inside; a phone scrolls the page.
  h: { md: 'calc(100dvh - 15rem)' },
  minH: { md: '30rem' },
  // Small screens show one column at a time: the list, or the dispute with a way back.
  '&[data-view=dispute] > [data-column=list]': { display: { base: 'none', md: 'flex' } },
  '&[data-view=list] > [data-column=dispute]': { display: { base: 'none', md: 'flex' } },
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
const placeholder = css({
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

/**
 * /moderation: the open disputes on the left, the selected one on the right (one at a time on a phone).
 * Everything shown is the desk's chart; choosing and leaving a dispute also set the URL (the route).
 */
export function ModerationScreen({
  actor,
  onSelect,
  onBack,
}: {
  actor: DeskRef;
  onSelect: (channel: string) => void;
  onBack: () => void;
}) {
  const view = useSelector(actor, selectDetailView);
  return (
    <section>
      <PageHeader title="Disputes" subtitle="Weigh the facts and the chat, then settle: release to the buyer or refund the seller." />
      <div className={layout} data-view={view === 'none' ? 'list' : 'dispute'}>
        <div className={column} data-column="list">
          <DisputeList actor={actor} onSelect={onSelect} />
        </div>
        <div className={column} data-column="dispute">
          {view === 'open' ? (
            <DisputePane actor={actor} onBack={onBack} />
          ) : view === 'loading' ? (
            <div className={placeholder}>
              <Spinner label="Loading the dispute" />
            </div>
          ) : view === 'failed' ? (
            <div className={placeholder} role="alert">
              <p>This dispute could not be loaded.</p>
              <div className={css({ display: 'flex', gap: '2' })}>
                <Button size="sm" variant="outline" onClick={() => actor.send({ type: 'detail.retry' })}>
                  Try again
                </Button>
                <Button size="sm" variant="ghost" onClick={onBack}>
                  Back to disputes
                </Button>
              </div>
            </div>
          ) : (
            <p className={placeholder}>Select a dispute</p>
          )}
        </div>
      </div>
    </section>
  );
}
