import { Trans, useLingui } from '@lingui/react/macro';
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
  <Trans>
    Already have an account?{' '}
    <Link to="/login" className={linkStyle}>
      Login
    </Link>
  </Trans>
);

export function SignupScreen({ actor }: { actor: ActorRefFrom<typeof signupMachine> }) {
  const step = useSelector(actor, selectStep);
  const busy = useSelector(actor, selectIsBusy);
  const errors = useSelector(actor, selectErrors);
  const values = useSelector(actor, (snapshot) => snapshot.context);
  const change = (name: SignupField) => (value: string) => actor.send({ type: 'field.change', name, value });
  const submit = () => actor.send({ type: 'form.submit' });
  const { t } = useLingui();

  if (step === 'email') {
    return (
      <EmailStep
        title={t`Create your account`}
        lead={t`Start with your email address.`}
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
    <AuthCard title={t`Complete your account`} lead={t`Choose how other traders will see you.`} onSubmit={submit} footer={loginLink}>
      <EmailField value={values.email} readOnly />
      <UsernameField value={values.username} error={errors.username} onValueChange={change('username')} />
      <NewPasswordFields passwordLabel={t`Password`} values={values} errors={errors} change={change} />
      <SubmitButton busy={busy} busyLabel={t`Creating account...`} label={t`Create Account`} />
    </AuthCard>
  );
}

/** The code sent to the email: Verify Email, back to the email, or a new code. */
function CodeStep({ actor, email, code }: { actor: ActorRefFrom<typeof signupMachine>; email: string; code: string }) {
  const busy = useSelector(actor, selectIsBusy);
  const resending = useSelector(actor, selectIsResending);
  const codeEntry = useSelector(actor, selectCodeEntry);
  const { t } = useLingui();
  return (
    <AuthCard title={t`Verify your email`} lead={t`Enter the 6-digit code we sent to ${email}.`} onSubmit={() => actor.send({ type: 'form.submit' })} footer={loginLink}>
      <CodeEntryField entry={codeEntry} label={t`Verification code`} submitted={code} />
      <SubmitButton busy={busy && !resending} busyLabel={t`Verifying...`} label={t`Verify Email`} disabled={busy} />
      <div className={row}>
        <Button variant="link" onClick={() => actor.send({ type: 'email.edit' })} disabled={busy}>
          <Trans>Back to email entry</Trans>
        </Button>
        <Button variant="outline" size="sm" onClick={() => actor.send({ type: 'code.resend' })} disabled={busy}>
          {resending ? t`Sending...` : t`Resend Code`}
        </Button>
      </div>
    </AuthCard>
  );
}
