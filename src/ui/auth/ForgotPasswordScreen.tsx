import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { ResetField, passwordResetMachine } from '../../machines/passwordReset/passwordReset.machine.ts';
import { selectCodeEntry, selectErrors, selectIsBusy, selectStep } from '../../machines/passwordReset/passwordReset.selectors.ts';
import { Button } from '../primitives/Button.tsx';
import { AuthCard, fullWidth, linkStyle } from './AuthLayout.tsx';
import { CodeEntryField, EmailField, NewPasswordFields } from './fields.tsx';

export function ForgotPasswordScreen({ actor }: { actor: ActorRefFrom<typeof passwordResetMachine> }) {
  const step = useSelector(actor, selectStep);
  const busy = useSelector(actor, selectIsBusy);
  const errors = useSelector(actor, selectErrors);
  const values = useSelector(actor, (snapshot) => snapshot.context);
  const codeEntry = useSelector(actor, selectCodeEntry);
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
        <EmailField value={values.email} error={errors.email} onValueChange={change('email')} />
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
      <EmailField value={values.email} readOnly />
      <CodeEntryField entry={codeEntry} label="Verification code" submitted={values.code} />
      <NewPasswordFields
        passwordLabel="New password"
        password={values.password}
        confirmPassword={values.confirmPassword}
        errors={errors}
        onChange={(name, value) => change(name)(value)}
      />
      <Button type="submit" className={fullWidth} disabled={busy}>
        {busy ? 'Submitting...' : 'Submit'}
      </Button>
    </AuthCard>
  );
}
