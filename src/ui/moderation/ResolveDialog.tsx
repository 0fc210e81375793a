import { useSelector } from '@xstate/react';
import {
  selectCanConfirm,
  selectDetail,
  selectDialogOutcome,
  selectIsResolving,
  selectResolution,
  selectResolutionError,
} from '../../machines/moderationDesk/moderationDesk.selectors.ts';
import { ChartDialog, WrittenTextForm } from '../chat/ChartDialog.tsx';
import type { DeskRef } from './types.ts';

/**
 * "Release to buyer" / "Refund seller": a required written resolution, Cancel and Confirm. Open while the chart
 * says so; dismissing asks the chart, which refuses while the settlement runs.
 */
export function ResolveDialog({ actor }: { actor: DeskRef }) {
  const outcome = useSelector(actor, selectDialogOutcome);
  const detail = useSelector(actor, selectDetail);
  const resolution = useSelector(actor, selectResolution);
  const problem = useSelector(actor, selectResolutionError);
  const canConfirm = useSelector(actor, selectCanConfirm);
  const busy = useSelector(actor, selectIsResolving);
  const dismiss = () => actor.send({ type: 'dialog.dismiss' });
  const release = outcome === 'release';
  const heading = release ? 'Release to buyer' : 'Refund seller';
  const text = release
    ? `The escrow goes to ${detail?.buyer ?? 'the buyer'}, less the fee. It cannot be undone.`
    : `The escrow goes back to ${detail?.seller ?? 'the seller'}. It cannot be undone.`;
  return (
    <ChartDialog open={outcome !== null} onDismiss={dismiss} heading={heading} text={text}>
      <WrittenTextForm
        label="Resolution"
        name="resolution"
        placeholder="What you found, and why this settles it. Both traders read it."
        value={resolution}
        problem={problem}
        // An untouched box only hints what it needs; once written in, a problem is an error.
        invalid={Boolean(problem) && resolution !== ''}
        busy={busy}
        canSubmit={canConfirm}
        submitLabel="Confirm"
        variant={release ? 'buy' : 'destructive'}
        onChange={(value) => actor.send({ type: 'resolution.change', value })}
        onSubmit={() => actor.send({ type: 'resolution.confirm' })}
        onCancel={dismiss}
      />
    </ChartDialog>
  );
}
