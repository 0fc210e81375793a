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
