import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { translateOptional } from '../../i18n/sentences.ts';
import { selectCode, selectError, selectIsComplete, type CodeEntryRef } from '../../machines/codeEntry/codeEntry.selectors.ts';
import { PasswordField } from '../primitives/PasswordField.tsx';
import { TextField } from '../primitives/TextField.tsx';
import { AuthCard, SubmitButton } from './AuthLayout.tsx';

/** The fields the signup, reset and login screens share, named by their payload field. */

export function EmailField({
  value,
  error,
  onValueChange,
  readOnly,
}: {
  value: string;
  error?: string;
  onValueChange?: (value: string) => void;
  readOnly?: boolean;
}) {
  const { t } = useLingui();
  return (
    <TextField
      label={t`Email`}
      name="email"
      type="email"
      value={value}
      error={translateOptional(error)}
      onValueChange={onValueChange}
      readOnly={readOnly}
      autoComplete="email"
      autoFocus={!readOnly}
    />
  );
}

/** The username, as signing in and signing up ask for it. */
export function UsernameField({ value, error, onValueChange }: { value: string; error: string | undefined; onValueChange: (value: string) => void }) {
  const { t } = useLingui();
  return <TextField label={t`Username`} name="username" value={value} error={translateOptional(error)} onValueChange={onValueChange} autoComplete="username" autoFocus />;
}

/**
 * The 6-digit code field of a flow's code entry chart (machines/codeEntry): it shows and sends to that child, so
 * every screen that asks for a code follows one rule. Once the flow has left the code step (the code is being
 * checked) the child is gone, and the field shows the code the flow kept. Each new entry gets a fresh field,
 * focused again, so a refused code is typed anew at once.
 */
export function CodeEntryField({ entry, label, submitted }: { entry: CodeEntryRef | undefined; label: string; submitted: string }) {
  const code = useSelector(entry, (snapshot) => snapshot && selectCode(snapshot));
  const error = useSelector(entry, (snapshot) => snapshot && selectError(snapshot));
  return (
    <TextField
      key={entry?.sessionId ?? 'submitted'}
      label={label}
      name="code"
      value={code ?? submitted}
      error={translateOptional(error ?? undefined)}
      onValueChange={(value) => entry?.send({ type: 'code.change', value })}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      autoFocus
    />
  );
}

/** Whether the code entry holds all six digits (false while the flow has none): the code screens' buttons. */
export const useIsCodeComplete = (entry: CodeEntryRef | undefined) =>
  useSelector(entry, (snapshot) => snapshot !== undefined && selectIsComplete(snapshot));

type NewPasswordField = 'password' | 'confirmPassword';

/** A new password and its confirmation, each with the show/hide toggle; `change` sends a field's typing to the flow. */
export function NewPasswordFields({
  passwordLabel,
  values,
  errors,
  change,
}: {
  passwordLabel: string;
  values: Record<NewPasswordField, string>;
  errors: Partial<Record<NewPasswordField, string>>;
  change: (name: NewPasswordField) => (value: string) => void;
}) {
  const { t } = useLingui();
  return (
    <>
      {(['password', 'confirmPassword'] as const).map((name) => (
        <PasswordField
          key={name}
          label={name === 'password' ? passwordLabel : t`Confirm password`}
          name={name}
          value={values[name]}
          error={translateOptional(errors[name])}
          onValueChange={change(name)}
          autoComplete="new-password"
        />
      ))}
    </>
  );
}

/** The first step of signing up and of a password reset (machines/shared/emailStep.ts): the email, and Continue sends a code to it. */
export function EmailStep(props: {
  title: string;
  lead: string;
  footer: ReactNode;
  email: string;
  error: string | undefined;
  busy: boolean;
  onChange: (value: string) => void;
  onSubmit: () => void;
}) {
  const { t } = useLingui();
  return (
    <AuthCard title={props.title} lead={props.lead} onSubmit={props.onSubmit} footer={props.footer}>
      <EmailField value={props.email} error={props.error} onValueChange={props.onChange} />
      <SubmitButton busy={props.busy} busyLabel={t`Sending...`} label={t`Continue`} />
    </AuthCard>
  );
}
