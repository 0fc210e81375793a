import { Field } from '@ark-ui/react/field';
import { useSelector } from '@xstate/react';
import type { KeyboardEvent } from 'react';
import type { ActorRef, Snapshot } from 'xstate';
import { css } from 'styled-system/css';
import { Button } from '../primitives/Button.tsx';
import { Form } from '../primitives/Form.tsx';
import { fieldStyles } from '../primitives/TextField.tsx';

const composer = css({ display: 'flex', gap: '2', alignItems: 'flex-end' });
const field = css({ flex: '1', display: 'flex', flexDirection: 'column', gap: '1' });
// Doubled class: beats the field's fixed height, so the box grows with its text (field-sizing) up to maxH.
const textarea = css({ '&&': { h: 'auto', minH: '10', maxH: '32' }, fieldSizing: 'content', py: '2', resize: 'none', flex: '1' });
const hidden = css({ srOnly: true });

/** The chart a composer writes in (the trade chat's conversation, the dispute desk): the two events it takes from it. */
export type ComposerActor<TSnapshot extends Snapshot<unknown>> = ActorRef<TSnapshot, { type: 'message.change'; value: string } | { type: 'message.send' }>;

/** What the composer reads of that chart, through the screen's own selectors. */
export type ComposerSelectors<TSnapshot> = {
  selectDraft: (snapshot: TSnapshot) => string;
  selectDraftError: (snapshot: TSnapshot) => string | undefined;
  selectCanSend: (snapshot: TSnapshot) => boolean;
  selectIsSending: (snapshot: TSnapshot) => boolean;
};

/**
 * The box a message is written in, and Send: the trader's chat and the dispute desk both write so. The draft, its
 * problem and whether it may be sent are the chart's (`read`); this only sends the typing and the send.
 */
export function MessageComposer<TSnapshot extends Snapshot<unknown>>({
  label,
  placeholder,
  actor,
  read,
}: {
  /** The box's accessible name (visually hidden). */
  label: string;
  placeholder: string;
  actor: ComposerActor<TSnapshot>;
  read: ComposerSelectors<TSnapshot>;
}) {
  const draft = useSelector(actor, read.selectDraft);
  const problem = useSelector(actor, read.selectDraftError);
  const canSend = useSelector(actor, read.selectCanSend);
  const sending = useSelector(actor, read.selectIsSending);
  const send = () => actor.send({ type: 'message.send' });
  // Enter sends; Shift+Enter is a new line; Enter that ends an IME composition is not a send.
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  };
  return (
    <Form className={composer} onSubmit={send}>
      <Field.Root className={field} invalid={Boolean(problem)}>
        <Field.Label className={hidden}>{label}</Field.Label>
        <Field.Textarea
          name="text"
          rows={1}
          placeholder={placeholder}
          className={`${fieldStyles.input} ${textarea}`}
          value={draft}
          onChange={(event) => actor.send({ type: 'message.change', value: event.currentTarget.value })}
          onKeyDown={onKeyDown}
        />
        <Field.ErrorText className={fieldStyles.error}>{problem}</Field.ErrorText>
      </Field.Root>
      <Button type="submit" disabled={!canSend} aria-busy={sending}>
        Send
      </Button>
    </Form>
  );
}
