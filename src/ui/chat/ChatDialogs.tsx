import { useSelector } from '@xstate/react';
import {
  selectCanConfirmRelease,
  selectCanSubmitDispute,
  selectConversation,
  selectDialog,
  selectIsActionBusy,
  selectReason,
  selectReasonError,
  type ConversationRef,
} from '../../machines/tradeChat/tradeChat.selectors.ts';
import { Button } from '../primitives/Button.tsx';
import { ChartDialog, DialogActions, WrittenTextForm } from './ChartDialog.tsx';

/** "Release Crypto" asks once: it cannot be undone. */
export function ReleaseDialog({ actor }: { actor: ConversationRef }) {
  const open = useSelector(actor, (snapshot) => selectDialog(snapshot) === 'release');
  const busy = useSelector(actor, selectIsActionBusy);
  const canConfirm = useSelector(actor, selectCanConfirmRelease);
  const { partner } = useSelector(actor, selectConversation);
  const dismiss = () => actor.send({ type: 'dialog.dismiss' });
  return (
    <ChartDialog
      open={open}
      onDismiss={dismiss}
      role="alertdialog"
      heading="Release Crypto"
      text={`Release the crypto to ${partner} only once their payment has arrived. It cannot be undone.`}
    >
      <DialogActions busy={busy} onCancel={dismiss}>
        <Button variant="buy" disabled={!canConfirm || busy} aria-busy={busy} onClick={() => actor.send({ type: 'release.confirm' })}>
          {busy ? 'Please wait...' : 'Confirm Release'}
        </Button>
      </DialogActions>
    </ChartDialog>
  );
}

/** "Raise Dispute": a reason (required), Cancel and Submit. */
export function DisputeDialog({ actor }: { actor: ConversationRef }) {
  const open = useSelector(actor, (snapshot) => selectDialog(snapshot) === 'dispute');
  const busy = useSelector(actor, selectIsActionBusy);
  const reason = useSelector(actor, selectReason);
  const problem = useSelector(actor, selectReasonError);
  const canSubmit = useSelector(actor, selectCanSubmitDispute);
  const dismiss = () => actor.send({ type: 'dialog.dismiss' });
  return (
    <ChartDialog open={open} onDismiss={dismiss} heading="Raise Dispute">
      <WrittenTextForm
        label="Reason"
        name="reason"
        value={reason}
        problem={problem}
        invalid={Boolean(problem)}
        busy={busy}
        canSubmit={canSubmit}
        submitLabel="Submit"
        variant="destructive"
        onChange={(value) => actor.send({ type: 'dispute.reason.change', value })}
        onSubmit={() => actor.send({ type: 'dispute.submit' })}
        onCancel={dismiss}
      />
    </ChartDialog>
  );
}
