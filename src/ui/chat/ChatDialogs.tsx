import { Dialog } from '@ark-ui/react/dialog';
import { Field } from '@ark-ui/react/field';
import { Portal } from '@ark-ui/react/portal';
import { useSelector } from '@xstate/react';
import type { FormEvent, ReactNode } from 'react';
import { css } from 'styled-system/css';
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
import { dialogStyles } from '../primitives/dialogStyles.ts';
import { fieldStyles } from '../primitives/TextField.tsx';

const { backdrop, positioner, title, description, actions } = dialogStyles;
const content = dialogStyles.content({ size: 'md' });

/** A modal whose open state is the chart's; dismissing asks the chart, which refuses while the action runs. */
function ChatDialog({
  actor,
  open,
  role,
  heading,
  text,
  children,
}: {
  actor: ConversationRef;
  open: boolean;
  role?: 'dialog' | 'alertdialog';
  heading: string;
  text?: string;
  children: ReactNode;
}) {
  return (
    <Dialog.Root
      open={open}
      role={role}
      onOpenChange={(details) => !details.open && actor.send({ type: 'dialog.dismiss' })}
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop className={backdrop} />
        <Dialog.Positioner className={positioner}>
          <Dialog.Content className={content}>
            <div>
              <Dialog.Title className={title}>{heading}</Dialog.Title>
              {text ? <Dialog.Description className={description}>{text}</Dialog.Description> : null}
            </div>
            {children}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/** "Release Crypto" asks once: it cannot be undone. */
export function ReleaseDialog({ actor }: { actor: ConversationRef }) {
  const open = useSelector(actor, (snapshot) => selectDialog(snapshot) === 'release');
  const busy = useSelector(actor, selectIsActionBusy);
  const canConfirm = useSelector(actor, selectCanConfirmRelease);
  const { partner } = useSelector(actor, selectConversation);
  return (
    <ChatDialog
      actor={actor}
      open={open}
      role="alertdialog"
      heading="Release Crypto"
      text={`Release the crypto to ${partner} only once their payment has arrived. It cannot be undone.`}
    >
      <div className={actions}>
        {busy ? null : (
          <Button variant="ghost" onClick={() => actor.send({ type: 'dialog.dismiss' })}>
            Cancel
          </Button>
        )}
        <Button variant="buy" disabled={!canConfirm || busy} aria-busy={busy} onClick={() => actor.send({ type: 'release.confirm' })}>
          {busy ? 'Please wait...' : 'Confirm Release'}
        </Button>
      </div>
    </ChatDialog>
  );
}

/** "Raise Dispute": a reason (required), Cancel and Submit. */
export function DisputeDialog({ actor }: { actor: ConversationRef }) {
  const open = useSelector(actor, (snapshot) => selectDialog(snapshot) === 'dispute');
  const busy = useSelector(actor, selectIsActionBusy);
  const reason = useSelector(actor, selectReason);
  const problem = useSelector(actor, selectReasonError);
  const canSubmit = useSelector(actor, selectCanSubmitDispute);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'dispute.submit' });
  };
  return (
    <ChatDialog actor={actor} open={open} heading="Raise Dispute">
      <form onSubmit={submit} className={css({ display: 'flex', flexDirection: 'column', gap: '4' })} noValidate>
        <Field.Root className={fieldStyles.root} invalid={Boolean(problem)} disabled={busy}>
          <Field.Label className={fieldStyles.label}>Reason</Field.Label>
          <Field.Textarea
            name="reason"
            rows={4}
            className={`${fieldStyles.input} ${css({ '&&': { h: 'auto', minH: '24' }, py: '2', resize: 'vertical' })}`}
            value={reason}
            onChange={(event) => actor.send({ type: 'dispute.reason.change', value: event.currentTarget.value })}
            autoFocus
          />
          <Field.ErrorText className={fieldStyles.error}>{problem}</Field.ErrorText>
        </Field.Root>
        <div className={actions}>
          {busy ? null : (
            <Button variant="ghost" onClick={() => actor.send({ type: 'dialog.dismiss' })}>
              Cancel
            </Button>
          )}
          <Button type="submit" variant="destructive" disabled={!canSubmit || busy} aria-busy={busy}>
            {busy ? 'Please wait...' : 'Submit'}
          </Button>
        </div>
      </form>
    </ChatDialog>
  );
}
