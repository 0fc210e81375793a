import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import { css } from 'styled-system/css';
import type { loginMachine } from '../../machines/login/login.machine.ts';
import { selectCanVerifyRecoveryCode, selectCodeEntry, selectErrors, selectIsBusy, selectStep } from '../../machines/login/login.selectors.ts';
import { Button } from '../primitives/Button.tsx';
import { PasswordField } from '../primitives/PasswordField.tsx';
import { TextField } from '../primitives/TextField.tsx';
import { translateOptional } from '../../i18n/sentences.ts';
import { AuthCard, SubmitButton, linkStyle } from './AuthLayout.tsx';
import { CodeEntryField, UsernameField, useIsCodeComplete } from './fields.tsx';

const forgot = css({ alignSelf: 'flex-end', fontSize: 'sm', mt: '-2' });
const secondary = css({ alignSelf: 'center', fontSize: 'sm' });

type LoginActor = ActorRefFrom<typeof loginMachine>;
type LoginField = 'username' | 'password' | 'recoveryCode';

const changeOf = (actor: LoginActor) => (name: LoginField) => (value: string) => actor.send({ type: 'field.change', name, value });

/** Login: the credentials, then, for an account with two-factor on, the authenticator's code or a recovery code. */
export function LoginScreen({ actor }: { actor: LoginActor }) {
  const step = useSelector(actor, selectStep);
  if (step === 'code') return <AuthenticatorCodeStep actor={actor} />;
  if (step === 'recoveryCode') return <RecoveryCodeStep actor={actor} />;
  return <CredentialsStep actor={actor} />;
}

function CredentialsStep({ actor }: { actor: LoginActor }) {
  const busy = useSelector(actor, selectIsBusy);
  const errors = useSelector(actor, selectErrors);
  const { username, password } = useSelector(actor, (snapshot) => snapshot.context);
  const change = changeOf(actor);
  const { t } = useLingui();
  return (
    <AuthCard
      title={t`Welcome back`}
      lead={t`Sign in to trade with people you can check.`}
      onSubmit={() => actor.send({ type: 'form.submit' })}
      footer={
        <Trans>
          Don&apos;t have an account?{' '}
          <Link to="/signup" className={linkStyle}>
            Sign Up
          </Link>
        </Trans>
      }
    >
      <UsernameField value={username} error={errors.username} onValueChange={change('username')} />
      <PasswordField
        label={t`Password`}
        name="password"
        value={password}
        error={translateOptional(errors.password)}
        onValueChange={change('password')}
        autoComplete="current-password"
      />
      <Link to="/forgot-password" className={`${linkStyle} ${forgot}`}>
        <Trans>Forgot password?</Trans>
      </Link>
      <SubmitButton busy={busy} busyLabel={t`Logging in...`} label={t`Login`} />
    </AuthCard>
  );
}

/** The 6-digit code of the authenticator app; "Verify Code" once the code entry holds all six digits (docs/api.md "Login"). */
function AuthenticatorCodeStep({ actor }: { actor: LoginActor }) {
  const busy = useSelector(actor, selectIsBusy);
  const codeEntry = useSelector(actor, selectCodeEntry);
  const code = useSelector(actor, (snapshot) => snapshot.context.code);
  const complete = useIsCodeComplete(codeEntry);
  const { t } = useLingui();
  return (
    <SecondFactorCard actor={actor} title={t`Two-factor authentication`} lead={t`Enter the 6-digit code from your authenticator app.`}>
      <CodeEntryField entry={codeEntry} label={t`Authentication code`} submitted={code} />
      <SubmitButton busy={busy} busyLabel={t`Verifying...`} label={t`Verify Code`} disabled={!complete} />
      <Button variant="link" className={secondary} onClick={() => actor.send({ type: 'recovery.start' })} disabled={busy}>
        <Trans>Lost your phone? Use a recovery code</Trans>
      </Button>
    </SecondFactorCard>
  );
}

/** One of the recovery codes saved when two-factor was turned on, instead of the app's code. */
function RecoveryCodeStep({ actor }: { actor: LoginActor }) {
  const busy = useSelector(actor, selectIsBusy);
  const canVerify = useSelector(actor, selectCanVerifyRecoveryCode);
  const recoveryCode = useSelector(actor, (snapshot) => snapshot.context.recoveryCode);
  const { t } = useLingui();
  return (
    <SecondFactorCard
      actor={actor}
      title={t`Use a recovery code`}
      lead={t`Enter one of the recovery codes you saved when you turned two-factor on. Each code works once.`}
    >
      <TextField
        label={t`Recovery code`}
        name="recovery_code"
        value={recoveryCode}
        onValueChange={changeOf(actor)('recoveryCode')}
        placeholder="abcde-fghij"
        autoComplete="off"
        spellCheck={false}
        autoFocus
      />
      <SubmitButton busy={busy} busyLabel={t`Verifying...`} label={t`Verify Code`} disabled={!canVerify} />
      <Button variant="link" className={secondary} onClick={() => actor.send({ type: 'recovery.cancel' })} disabled={busy}>
        <Trans>Use the authenticator app instead</Trans>
      </Button>
    </SecondFactorCard>
  );
}

/** A second factor's card: it submits the code or the recovery code (`code.submit`), and its footer goes back to the login. */
function SecondFactorCard({ actor, title, lead, children }: { actor: LoginActor; title: string; lead: string; children: ReactNode }) {
  const backToLogin = (
    <Button variant="link" onClick={() => actor.send({ type: 'secondFactor.cancel' })}>
      <Trans>Back to login</Trans>
    </Button>
  );
  return (
    <AuthCard title={title} lead={lead} onSubmit={() => actor.send({ type: 'code.submit' })} footer={backToLogin}>
      {children}
    </AuthCard>
  );
}
