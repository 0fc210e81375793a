import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import {
  selectCanSubmit,
  selectIsBusy,
  selectPassword,
  type PasswordConfirmRef,
} from '../../machines/passwordConfirm/passwordConfirm.selectors.ts';
import { Button } from '../primitives/Button.tsx';
import { Card } from '../primitives/Card.tsx';
import { Form } from '../primitives/Form.tsx';
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

/**
 * A card of the account protections, a region named by its title: the title and lead of its `texts` (with `action`
 * beside them), what it shows before it has its status (`texts.failure` if it could not get it), then `children`.
 */
export function ProtectionCard(props: {
  id: string;
  texts: { title: string; lead: string; failure: string };
  view: string;
  onRetry: () => void;
  action?: ReactNode;
  children: ReactNode;
}) {
  const heading = (
    <>
      <h2 className={s.title} id={props.id}>
        {props.texts.title}
      </h2>
      <p className={s.muted}>{props.texts.lead}</p>
    </>
  );
  return (
    <Card aria-labelledby={props.id} role="region">
      {props.action ? (
        <div className={s.head}>
          <div>{heading}</div>
          {props.action}
        </div>
      ) : (
        heading
      )}
      <LoadingOrRetry view={props.view} failure={props.texts.failure} onRetry={props.onRetry} />
      {props.children}
    </Card>
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
  return (
    <Form className={s.form} onSubmit={() => actor.send({ type: 'form.submit' })}>
      <p className={s.muted}>{lead}</p>
      <CurrentPasswordField value={password} onValueChange={(value) => actor.send({ type: 'field.change', name: 'password', value })} />
      <FormButtons
        submitLabel={submitLabel}
        variant={variant}
        canSubmit={canSubmit}
        busy={busy}
        onCancel={() => actor.send({ type: 'form.cancel' })}
      />
    </Form>
  );
}
