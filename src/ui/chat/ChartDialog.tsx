import { Dialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import type { ReactNode } from 'react';
import { css } from 'styled-system/css';
import { Button } from '../primitives/Button.tsx';
import { Form } from '../primitives/Form.tsx';
import { dialogStyles } from '../primitives/dialogStyles.ts';
import { TextAreaField } from '../primitives/TextAreaField.tsx';

const { backdrop, positioner, title, description, actions } = dialogStyles;
const content = dialogStyles.content({ size: 'md' });
const form = css({ display: 'flex', flexDirection: 'column', gap: '4' });
// Doubled class: beats the field's fixed height, so the box is several lines tall and the writer may pull it taller.
const textarea = css({ '&&': { h: 'auto', minH: '24' }, py: '2', resize: 'vertical' });

/**
 * A modal whose open state is a chart's (the trade chat's, the dispute desk's): closing it only asks the chart
 * (onDismiss), which refuses while the action runs.
 */
export function ChartDialog({
  open,
  onDismiss,
  role,
  heading,
  text,
  children,
}: {
  open: boolean;
  onDismiss: () => void;
  role?: 'dialog' | 'alertdialog';
  heading: string;
  text?: string;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} role={role} onOpenChange={(details) => !details.open && onDismiss()} lazyMount unmountOnExit>
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

/** Cancel, then the dialog's own button(s); while the action runs there is no Cancel (the chart would refuse it). */
export function DialogActions({ busy, onCancel, children }: { busy: boolean; onCancel: () => void; children: ReactNode }) {
  return (
    <div className={actions}>
      {busy ? null : (
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      )}
      {children}
    </div>
  );
}

/**
 * A required written text (a dispute's reason, a dispute's resolution), Cancel and the submit button, which reads
 * "Please wait..." while the action runs. `invalid` is the screen's call (when to show the problem as an error);
 * until then the problem shows as a hint.
 */
export function WrittenTextForm({
  label,
  name,
  placeholder,
  value,
  problem,
  invalid,
  busy,
  canSubmit,
  submitLabel,
  variant,
  onChange,
  onSubmit,
  onCancel,
}: {
  label: string;
  name: string;
  placeholder?: string;
  value: string;
  problem: string | undefined;
  invalid: boolean;
  busy: boolean;
  canSubmit: boolean;
  submitLabel: string;
  variant: 'buy' | 'destructive';
  onChange: (value: string) => void;
  onSubmit: () => void;
  onCancel: () => void;
}) {
  return (
    <Form onSubmit={onSubmit} className={form}>
      <TextAreaField
        label={label}
        name={name}
        rows={4}
        placeholder={placeholder}
        className={textarea}
        value={value}
        error={invalid ? problem : undefined}
        helperText={invalid ? undefined : problem}
        disabled={busy}
        onValueChange={onChange}
        autoFocus
      />
      <DialogActions busy={busy} onCancel={onCancel}>
        <Button type="submit" variant={variant} disabled={!canSubmit || busy} aria-busy={busy}>
          {busy ? 'Please wait...' : submitLabel}
        </Button>
      </DialogActions>
    </Form>
  );
}
