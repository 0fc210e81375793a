import { useSelector } from '@xstate/react';
import { selectCode, selectError, selectIsComplete, type CodeEntryRef } from '../../machines/codeEntry/codeEntry.selectors.ts';
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
      error={error}
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
