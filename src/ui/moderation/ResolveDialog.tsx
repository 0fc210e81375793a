import { Dialog } from '@ark-ui/react/dialog';
import { Field } from '@ark-ui/react/field';
import { Portal } from '@ark-ui/react/portal';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { css } from 'styled-system/css';
import {
  selectCanConfirm,
  selectDetail,
  selectDialogOutcome,
  selectIsResolving,
  selectResolution,
  selectResolutionError,
} from '../../machines/moderationDesk/moderationDesk.selectors.ts';
import { Button } from '../primitives/Button.tsx';
import { dialogStyles } from '../primitives/dialogStyles.ts';
import { fieldStyles } from '../primitives/TextField.tsx';
import type { DeskRef } from './types.ts';

const { backdrop, positioner, title, description, actions } = dialogStyles;
const content = dialogStyles.content({ size: 'md' });

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
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'resolution.confirm' });
  };
  const release = outcome === 'release';
  const heading = release ? 'Release to buyer' : 'Refund seller';
  const text = release
    ? `The escrow goes to ${detail?.buyer ?? 'the buyer'}, less the fee. It cannot be undone.`
    : `The escrow goes back to ${detail?.seller ?? 'the seller'}. It cannot be undone.`;
  return (
    <Dialog.Root
      open={outcome !== null}
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
              <Dialog.Description className={description}>{text}</Dialog.Description>
            </div>
            <form onSubmit={submit} className={css({ display: 'flex', flexDirection: 'column', gap: '4' })} noValidate>
              <Field.Root className={fieldStyles.root} invalid={Boolean(problem) && resolution !== ''} disabled={busy}>
                <Field.Label className={fieldStyles.label}>Resolution</Field.Label>
                <Field.Textarea
                  name="resolution"
                  rows={4}
                  placeholder="What you found, and why this settles it. Both traders read it."
                  className={`${fieldStyles.input} ${css({ '&&': { h: 'auto', minH: '24' }, py: '2', resize: 'vertical' })}`}
                  value={resolution}
                  onChange={(event) => actor.send({ type: 'resolution.change', value: event.currentTarget.value })}
                  autoFocus
                />
                <Field.HelperText className={fieldStyles.helper}>{problem}</Field.HelperText>
              </Field.Root>
              <div className={actions}>
                {busy ? null : (
                  <Button variant="ghost" onClick={() => actor.send({ type: 'dialog.dismiss' })}>
                    Cancel
                  </Button>
                )}
                <Button type="submit" variant={release ? 'buy' : 'destructive'} disabled={!canConfirm || busy} aria-busy={busy}>
                  {busy ? 'Please wait...' : 'Confirm'}
                </Button>
              </div>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
