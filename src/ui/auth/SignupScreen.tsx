import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { css } from 'styled-system/css';
import type { SignupField, signupMachine } from '../../machines/signup/signup.machine.ts';
import { selectCodeEntry, selectErrors, selectIsBusy, selectIsResending, selectStep } from '../../machines/signup/signup.selectors.ts';
import { Button } from '../primitives/Button.tsx';
import { AuthCard, SubmitButton, linkStyle } from './AuthLayout.tsx';
import { CodeEntryField, EmailField, EmailStep, NewPasswordFields, UsernameField } from './fields.tsx';

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
  const errors = useSelector(actor, selectErrors);
  const values = useSelector(actor, (snapshot) => snapshot.context);
  const change = (name: SignupField) => (value: string) => actor.send({ type: 'field.change', name, value });
  const submit = () => actor.send({ type: 'form.submit' });

  if (step === 'email') {
    return (
      <EmailStep
        title="Create your account"
        lead="Start with your email address."
        footer={loginLink}
        email={values.email}
        error={errors.email}
        busy={busy}
        onChange={change('email')}
        onSubmit={submit}
      />
    );
  }

  if (step === 'code') return <CodeStep actor={actor} email={values.email} code={values.code} />;

  return (
    <AuthCard title="Complete your account" lead="Choose how other traders will see you." onSubmit={submit} footer={loginLink}>
      <EmailField value={values.email} readOnly />
      <UsernameField value={values.username} error={errors.username} onValueChange={change('username')} />
      <NewPasswordFields passwordLabel="Password" values={values} errors={errors} change={change} />
      <SubmitButton busy={busy} busyLabel="Creating account..." label="Create Account" />
    </AuthCard>
  );
}

/** The code sent to the email: Verify Email, back to the email, or a new code. */
function CodeStep({ actor, email, code }: { actor: ActorRefFrom<typeof signupMachine>; email: string; code: string }) {
  const busy = useSelector(actor, selectIsBusy);
  const resending = useSelector(actor, selectIsResending);
  const codeEntry = useSelector(actor, selectCodeEntry);
  return (
    <AuthCard title="Verify your email" lead={`Enter the 6-digit code we sent to ${email}.`} onSubmit={() => actor.send({ type: 'form.submit' })} footer={loginLink}>
      <CodeEntryField entry={codeEntry} label="Verification code" submitted={code} />
      <SubmitButton busy={busy && !resending} busyLabel="Verifying..." label="Verify Email" disabled={busy} />
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
