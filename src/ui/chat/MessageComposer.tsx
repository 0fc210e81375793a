import { Field } from '@ark-ui/react/field';
import type { FormEvent, KeyboardEvent } from 'react';
import { css } from 'styled-system/css';
import { Button } from '../primitives/Button.tsx';
import { fieldStyles } from '../primitives/TextField.tsx';

const composer = css({ display: 'flex', gap: '2', alignItems: 'flex-end' });
const field = css({ flex: '1', display: 'flex', flexDirection: 'column', gap: '1' });
// Doubled class: beats the field's fixed height, so the box grows with its text (field-sizing) up to maxH.
const textarea = css({ '&&': { h: 'auto', minH: '10', maxH: '32' }, fieldSizing: 'content', py: '2', resize: 'none', flex: '1' });
const hidden = css({ srOnly: true });

/**
 * The box a message is written in, and Send: the trader's chat and the dispute desk both write so. The draft, its
 * problem and whether it may be sent are the screen's chart's; this only reports the typing and the send.
 */
export function MessageComposer({
  label,
  placeholder,
  draft,
  problem,
  canSend,
  sending,
  onChange,
  onSend,
}: {
  /** The box's accessible name (visually hidden). */
  label: string;
  placeholder: string;
  draft: string;
  problem: string | undefined;
  canSend: boolean;
  sending: boolean;
  onChange: (value: string) => void;
  onSend: () => void;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSend();
  };
  // Enter sends; Shift+Enter is a new line; Enter that ends an IME composition is not a send.
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    onSend();
  };
  return (
    <form className={composer} onSubmit={submit} noValidate>
      <Field.Root className={field} invalid={Boolean(problem)}>
        <Field.Label className={hidden}>{label}</Field.Label>
        <Field.Textarea
          name="text"
          rows={1}
          placeholder={placeholder}
          className={`${fieldStyles.input} ${textarea}`}
          value={draft}
          onChange={(event) => onChange(event.currentTarget.value)}
          onKeyDown={onKeyDown}
        />
        <Field.ErrorText className={fieldStyles.error}>{problem}</Field.ErrorText>
      </Field.Root>
      <Button type="submit" disabled={!canSend} aria-busy={sending}>
        Send
      </Button>
    </form>
  );
}
