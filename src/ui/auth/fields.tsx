import { useSelector } from '@xstate/react';
import { selectCode, selectError, type CodeEntryRef } from '../../machines/codeEntry/codeEntry.selectors.ts';
import { PasswordField } from '../primitives/PasswordField.tsx';
import { TextField } from '../primitives/TextField.tsx';

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
  return (
    <TextField
      label="Email"
      name="email"
      type="email"
      value={value}
      error={error}
      onValueChange={onValueChange}
      readOnly={readOnly}
      autoComplete="email"
      autoFocus={!readOnly}
    />
  );
}

/** A 6-digit code from an email or an authenticator app. */
export function CodeField({
  label,
  value,
  error,
  onValueChange,
}: {
  label: string;
  value: string;
  error?: string;
  onValueChange: (value: string) => void;
}) {
  return (
    <TextField
      label={label}
      name="code"
      value={value}
      error={error}
      onValueChange={onValueChange}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      autoFocus
    />
  );
}

/**
 * The code field of a flow's code entry chart (machines/codeEntry): it shows and sends to that child, so
 * every screen that asks for a code follows one rule. Once the flow has left the code step (the code is
 * being checked) the child is gone, and the field shows the code the flow kept.
 */
export function CodeEntryField({ entry, label, submitted }: { entry: CodeEntryRef | undefined; label: string; submitted: string }) {
  return entry ? <LiveCodeField entry={entry} label={label} /> : <CodeField label={label} value={submitted} onValueChange={() => {}} />;
}

function LiveCodeField({ entry, label }: { entry: CodeEntryRef; label: string }) {
  const code = useSelector(entry, selectCode);
  const error = useSelector(entry, selectError);
  return <CodeField label={label} value={code} error={error} onValueChange={(value) => entry.send({ type: 'code.change', value })} />;
}

/** A new password and its confirmation, each with the show/hide toggle. */
export function NewPasswordFields({
  passwordLabel,
  password,
  confirmPassword,
  errors,
  onChange,
}: {
  passwordLabel: string;
  password: string;
  confirmPassword: string;
  errors: { password?: string; confirmPassword?: string };
  onChange: (name: 'password' | 'confirmPassword', value: string) => void;
}) {
  return (
    <>
      <PasswordField
        label={passwordLabel}
        name="password"
        value={password}
        error={errors.password}
        onValueChange={(value) => onChange('password', value)}
        autoComplete="new-password"
      />
      <PasswordField
        label="Confirm password"
        name="confirmPassword"
        value={confirmPassword}
        error={errors.confirmPassword}
        onValueChange={(value) => onChange('confirmPassword', value)}
        autoComplete="new-password"
      />
    </>
  );
}
