import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import { selectDetailView } from '../../machines/moderationDesk/moderationDesk.selectors.ts';
import { ColumnFailed, ColumnLoading, SplitView, splitPlaceholder } from '../chat/SplitView.tsx';
import { PageHeader } from '../pages/PageHeader.tsx';
import { Button } from '../primitives/Button.tsx';
import { DisputeList } from './DisputeList.tsx';
import { DisputePane } from './DisputePane.tsx';
import type { DeskRef } from './types.ts';

const sizes = css({
  gridTemplateColumns: { base: '1fr', md: '18rem 1fr', lg: '20rem 1fr' },
  // From md up both panes fill the window below the bar and scroll inside; a phone scrolls the page.
  h: { md: 'calc(100dvh - 15rem)' },
  minH: { md: '30rem' },
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
      <SplitView
        sizes={sizes}
        view={view === 'none' ? 'list' : 'dispute'}
        detailName="dispute"
        list={<DisputeList actor={actor} onSelect={onSelect} />}
        detail={
          view === 'open' ? (
            <DisputePane actor={actor} onBack={onBack} />
          ) : view === 'loading' ? (
            <ColumnLoading label="Loading the dispute" />
          ) : view === 'failed' ? (
            <ColumnFailed text="This dispute could not be loaded." onRetry={() => actor.send({ type: 'detail.retry' })}>
              <Button size="sm" variant="ghost" onClick={onBack}>
                Back to disputes
              </Button>
            </ColumnFailed>
          ) : (
            <p className={splitPlaceholder}>Select a dispute</p>
          )
        }
      />
    </section>
  );
}
