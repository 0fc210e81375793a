import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { ResetField, passwordResetMachine } from '../../machines/passwordReset/passwordReset.machine.ts';
import { selectCodeEntry, selectErrors, selectIsBusy, selectStep } from '../../machines/passwordReset/passwordReset.selectors.ts';
import { AuthCard, SubmitButton, linkStyle } from './AuthLayout.tsx';
import { CodeEntryField, EmailField, EmailStep, NewPasswordFields } from './fields.tsx';

const backToLogin = (
  <Link to="/login" className={linkStyle}>
    <Trans>Back to Login</Trans>
  </Link>
);

export function ForgotPasswordScreen({ actor }: { actor: ActorRefFrom<typeof passwordResetMachine> }) {
  const step = useSelector(actor, selectStep);
  const busy = useSelector(actor, selectIsBusy);
  const errors = useSelector(actor, selectErrors);
  const values = useSelector(actor, (snapshot) => snapshot.context);
  const codeEntry = useSelector(actor, selectCodeEntry);
  const change = (name: ResetField) => (value: string) => actor.send({ type: 'field.change', name, value });
  const submit = () => actor.send({ type: 'form.submit' });
  const { t } = useLingui();

  if (step === 'email') {
    return (
      <EmailStep
        title={t`Forgot your password?`}
        lead={t`Enter your email and we will send you a code to reset it.`}
        footer={backToLogin}
        email={values.email}
        error={errors.email}
        busy={busy}
        onChange={change('email')}
        onSubmit={submit}
      />
    );
  }

  return (
    <AuthCard title={t`Complete your account`} lead={t`Enter the code from your email and choose a new password.`} onSubmit={submit} footer={backToLogin}>
      <EmailField value={values.email} readOnly />
      <CodeEntryField entry={codeEntry} label={t`Verification code`} submitted={values.code} />
      <NewPasswordFields passwordLabel={t`New password`} values={values} errors={errors} change={change} />
      <SubmitButton busy={busy} busyLabel={t`Submitting...`} label={t`Submit`} />
    </AuthCard>
  );
}
