import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { css } from 'styled-system/css';
import type { SignupField, signupMachine } from '../../machines/signup/signup.machine.ts';
import { selectCodeEntry, selectErrors, selectIsBusy, selectIsResending, selectStep } from '../../machines/signup/signup.selectors.ts';
import { Button } from '../primitives/Button.tsx';
import { TextField } from '../primitives/TextField.tsx';
import { AuthCard, fullWidth, linkStyle } from './AuthLayout.tsx';
import { CodeEntryField, EmailField, NewPasswordFields } from './fields.tsx';

const row = css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: '2', flexWrap: 'wrap' });

const loginLink = (
  <>
    Already have an account?{' '}
    <Link to="/login" className={linkStyle}>
      Login
    </Link>
  </>
);

export function SignupScreen({ actor }: { actor: ActorRefFrom<typeof signupMachine> }) {
  const step = useSelector(actor, selectStep);
  const busy = useSelector(actor, selectIsBusy);
  const resending = useSelector(actor, selectIsResending);
  const errors = useSelector(actor, selectErrors);
  const values = useSelector(actor, (snapshot) => snapshot.context);
  const codeEntry = useSelector(actor, selectCodeEntry);
  const change = (name: SignupField) => (value: string) => actor.send({ type: 'field.change', name, value });
  const submit = () => actor.send({ type: 'form.submit' });

  if (step === 'email') {
    return (
      <AuthCard title="Create your account" lead="Start with your email address." onSubmit={submit} footer={loginLink}>
        <EmailField value={values.email} error={errors.email} onValueChange={change('email')} />
        <Button type="submit" className={fullWidth} disabled={busy}>
          {busy ? 'Sending...' : 'Continue'}
        </Button>
      </AuthCard>
    );
  }

  if (step === 'code') {
    return (
      <AuthCard
        title="Verify your email"
        lead={`Enter the 6-digit code we sent to ${values.email}.`}
        onSubmit={submit}
        footer={loginLink}
      >
        <CodeEntryField entry={codeEntry} label="Verification code" submitted={values.code} />
        <Button type="submit" className={fullWidth} disabled={busy}>
          {busy && !resending ? 'Verifying...' : 'Verify Email'}
        </Button>
        <div className={row}>
          <Button variant="link" onClick={() => actor.send({ type: 'email.edit' })} disabled={busy}>
            Back to email entry
          </Button>
          <Button variant="outline" size="sm" onClick={() => actor.send({ type: 'code.resend' })} disabled={busy}>
            {resending ? 'Sending...' : 'Resend Code'}
          </Button>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Complete your account" lead="Choose how other traders will see you." onSubmit={submit} footer={loginLink}>
      <EmailField value={values.email} readOnly />
      <TextField
        label="Username"
        name="username"
        value={values.username}
        error={errors.username}
        onValueChange={change('username')}
        autoComplete="username"
        autoFocus
      />
      <NewPasswordFields
        passwordLabel="Password"
        password={values.password}
        confirmPassword={values.confirmPassword}
        errors={errors}
        onChange={(name, value) => change(name)(value)}
      />
      <Button type="submit" className={fullWidth} disabled={busy}>
        {busy ? 'Creating account...' : 'Create Account'}
      </Button>
    </AuthCard>
  );
}
