import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import {
  selectCanSubmit,
  selectIsBusy,
  selectPassword,
  type PasswordConfirmRef,
} from '../../machines/passwordConfirm/passwordConfirm.selectors.ts';
import { Button } from '../primitives/Button.tsx';
import { PasswordField } from '../primitives/PasswordField.tsx';
import { securityStyles as s } from './styles.ts';

/** What a card of /settings/security shows before it has its status: "Loading...", or why not and a retry. */
export function LoadingOrRetry({ view, failure, onRetry }: { view: string; failure: string; onRetry: () => void }) {
  if (view === 'loading') return <p className={s.muted}>Loading...</p>;
  if (view !== 'unavailable') return null;
  return (
    <div className={s.form}>
      <p className={s.muted}>{failure}</p>
      <Button variant="outline" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

/** The account's password, which every change on this page asks for. */
export function CurrentPasswordField({ value, onValueChange }: { value: string; onValueChange: (value: string) => void }) {
  return <PasswordField label="Your password" name="password" value={value} onValueChange={onValueChange} autoComplete="current-password" />;
}

export type FormButtonsProps = {
  submitLabel: string;
  variant?: 'default' | 'destructive';
  /** The chart's answer to `form.submit`. */
  canSubmit: boolean;
  busy: boolean;
  onCancel: () => void;
};

/** A change's submit ("Please wait..." while its call runs) and Cancel. */
export function FormButtons({ submitLabel, variant = 'default', canSubmit, busy, onCancel }: FormButtonsProps) {
  return (
    <div className={s.actions}>
      <Button type="submit" variant={variant} disabled={!canSubmit || busy} aria-busy={busy}>
        {busy ? 'Please wait...' : submitLabel}
      </Button>
      <Button variant="ghost" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
    </div>
  );
}

/**
 * A change the password alone confirms (removing the anti-phishing code, turning the allowlist off): the
 * passwordConfirm chart the card's chart invoked, shown while it runs.
 */
export function PasswordConfirmForm({
  actor,
  lead,
  submitLabel,
  variant,
}: { actor: PasswordConfirmRef | undefined; lead: string } & Pick<FormButtonsProps, 'submitLabel' | 'variant'>) {
  if (!actor) return null;
  return <PasswordConfirmation actor={actor} lead={lead} submitLabel={submitLabel} variant={variant} />;
}

function PasswordConfirmation({ actor, lead, submitLabel, variant }: { actor: PasswordConfirmRef; lead: string } & Pick<FormButtonsProps, 'submitLabel' | 'variant'>) {
  const password = useSelector(actor, selectPassword);
  const canSubmit = useSelector(actor, selectCanSubmit);
  const busy = useSelector(actor, selectIsBusy);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'form.submit' });
  };
  return (
    <form className={s.form} onSubmit={submit} noValidate>
      <p className={s.muted}>{lead}</p>
      <CurrentPasswordField value={password} onValueChange={(value) => actor.send({ type: 'field.change', name: 'password', value })} />
      <FormButtons
        submitLabel={submitLabel}
        variant={variant}
        canSubmit={canSubmit}
        busy={busy}
        onCancel={() => actor.send({ type: 'form.cancel' })}
      />
    </form>
  );
}
