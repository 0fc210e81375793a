import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { ResetField, passwordResetMachine } from '../../machines/passwordReset/passwordReset.machine.ts';
import { selectErrors, selectIsBusy, selectStep } from '../../machines/passwordReset/passwordReset.selectors.ts';
import { Button } from '../primitives/Button.tsx';
import { PasswordField } from '../primitives/PasswordField.tsx';
import { TextField } from '../primitives/TextField.tsx';
import { AuthCard, fullWidth, linkStyle } from './AuthLayout.tsx';

export function ForgotPasswordScreen({ actor }: { actor: ActorRefFrom<typeof passwordResetMachine> }) {
  const step = useSelector(actor, selectStep);
  const busy = useSelector(actor, selectIsBusy);
  const errors = useSelector(actor, selectErrors);
  const values = useSelector(actor, (snapshot) => snapshot.context);
  const change = (name: ResetField) => (value: string) => actor.send({ type: 'field.change', name, value });
  const submit = () => actor.send({ type: 'form.submit' });
  const backToLogin = (
    <Link to="/login" className={linkStyle}>
      Back to Login
    </Link>
  );

  if (step === 'email') {
    return (
      <AuthCard
        title="Forgot your password?"
        lead="Enter your email and we will send you a code to reset it."
        onSubmit={submit}
        footer={backToLogin}
      >
        <TextField
          label="Email"
          name="email"
          type="email"
          value={values.email}
          error={errors.email}
          onValueChange={change('email')}
          autoComplete="email"
          autoFocus
        />
        <Button type="submit" className={fullWidth} disabled={busy}>
          {busy ? 'Sending...' : 'Continue'}
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Complete your account"
      lead="Enter the code from your email and choose a new password."
      onSubmit={submit}
      footer={backToLogin}
    >
      <TextField label="Email" name="email" type="email" value={values.email} readOnly />
      <TextField
        label="Verification code"
        name="code"
        value={values.code}
        error={errors.code}
        onValueChange={change('code')}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        autoFocus
      />
      <PasswordField
        label="New password"
        name="password"
        value={values.password}
        error={errors.password}
        onValueChange={change('password')}
        autoComplete="new-password"
      />
      <PasswordField
        label="Confirm password"
        name="confirmPassword"
        value={values.confirmPassword}
        error={errors.confirmPassword}
        onValueChange={change('confirmPassword')}
        autoComplete="new-password"
      />
      <Button type="submit" className={fullWidth} disabled={busy}>
        {busy ? 'Submitting...' : 'Submit'}
      </Button>
    </AuthCard>
  );
}
