import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import {
  selectCanConfirmRelease,
  selectCanSubmitDispute,
  selectConversation,
  selectDialog,
  selectIsActionBusy,
  selectIsCheckingRelease,
  selectProof,
  selectReason,
  selectReasonError,
  selectReleaseProblem,
  selectReleaseProof,
  type ConversationRef,
} from '../../machines/tradeChat/tradeChat.selectors.ts';
import { Button } from '../primitives/Button.tsx';
import { Form } from '../primitives/Form.tsx';
import { PasswordField } from '../primitives/PasswordField.tsx';
import { TextField } from '../primitives/TextField.tsx';
import { ChartDialog, DialogActions, WrittenTextForm } from './ChartDialog.tsx';

const releaseForm = css({ display: 'flex', flexDirection: 'column', gap: '4' });
const refusal = css({ fontSize: 'sm', color: 'danger', bg: 'danger.subtle', borderRadius: 'md', px: '3', py: '2' });

/**
 * "Release Crypto" asks once: it cannot be undone. With it goes the second proof the server asks for (docs/rules.md
 * "Trades"): the password, or the authenticator code with two-factor on, or nothing while a proof given in the last
 * 10 minutes covers this session. A refusal (a wrong password, the security hold) shows here, not as a toast.
 */
export function ReleaseDialog({ actor }: { actor: ConversationRef }) {
  const open = useSelector(actor, (snapshot) => selectDialog(snapshot) === 'release');
  const busy = useSelector(actor, selectIsActionBusy);
  const checking = useSelector(actor, selectIsCheckingRelease);
  const canConfirm = useSelector(actor, selectCanConfirmRelease);
  const asked = useSelector(actor, selectReleaseProof);
  const proof = useSelector(actor, selectProof);
  const problem = useSelector(actor, selectReleaseProblem);
  const { partner } = useSelector(actor, selectConversation);
  const dismiss = () => actor.send({ type: 'dialog.dismiss' });
  const change = (value: string) => actor.send({ type: 'proof.change', value });
  return (
    <ChartDialog
      open={open}
      onDismiss={dismiss}
      role="alertdialog"
      heading="Release Crypto"
      text={`Release the crypto to ${partner} only once their payment has arrived. It cannot be undone.`}
    >
      <Form onSubmit={() => actor.send({ type: 'release.confirm' })} className={releaseForm} aria-busy={checking || busy}>
        {asked === 'password' ? (
          <PasswordField label="Your password" name="password" value={proof} onValueChange={change} autoComplete="current-password" />
        ) : null}
        {asked === 'code' ? (
          <TextField
            label="Authenticator code"
            name="code"
            value={proof}
            onValueChange={change}
            inputMode="numeric"
            autoComplete="one-time-code"
            helperText="The 6-digit code your authenticator app shows now."
          />
        ) : null}
        {problem ? (
          <p className={refusal} role="alert">
            {problem}
          </p>
        ) : null}
        <DialogActions busy={busy} onCancel={dismiss}>
          <Button type="submit" variant="buy" disabled={!canConfirm || busy} aria-busy={busy}>
            {busy ? 'Please wait...' : 'Confirm Release'}
          </Button>
        </DialogActions>
      </Form>
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
