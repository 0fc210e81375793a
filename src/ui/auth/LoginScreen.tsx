import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { css } from 'styled-system/css';
import type { loginMachine } from '../../machines/login/login.machine.ts';
import type { CodeEntryRef } from '../../machines/codeEntry/codeEntry.selectors.ts';
import { selectCanVerifyRecoveryCode, selectCodeEntry, selectErrors, selectIsBusy, selectStep } from '../../machines/login/login.selectors.ts';
import { Button } from '../primitives/Button.tsx';
import { PasswordField } from '../primitives/PasswordField.tsx';
import { TextField } from '../primitives/TextField.tsx';
import { AuthCard, fullWidth, linkStyle } from './AuthLayout.tsx';
import { CodeEntryField, useIsCodeComplete } from './fields.tsx';

const forgot = css({ alignSelf: 'flex-end', fontSize: 'sm', mt: '-2' });
const secondary = css({ alignSelf: 'center', fontSize: 'sm' });

export function LoginScreen({ actor }: { actor: ActorRefFrom<typeof loginMachine> }) {
  const step = useSelector(actor, selectStep);
  const busy = useSelector(actor, selectIsBusy);
  const errors = useSelector(actor, selectErrors);
  const codeEntry = useSelector(actor, selectCodeEntry);
  const canVerifyRecoveryCode = useSelector(actor, selectCanVerifyRecoveryCode);
  const { username, password, code, recoveryCode } = useSelector(actor, (snapshot) => snapshot.context);
  const change = (name: 'username' | 'password' | 'recoveryCode') => (value: string) =>
    actor.send({ type: 'field.change', name, value });
  const backToLogin = (
    <Button variant="link" onClick={() => actor.send({ type: 'secondFactor.cancel' })}>
      Back to login
    </Button>
  );

  if (step === 'code') {
    return (
      <AuthCard
        title="Two-factor authentication"
        lead="Enter the 6-digit code from your authenticator app."
        onSubmit={() => actor.send({ type: 'code.submit' })}
        footer={backToLogin}
      >
        <CodeEntryField entry={codeEntry} label="Authentication code" submitted={code} />
        <VerifyCodeButton entry={codeEntry} busy={busy} />
        <Button variant="link" className={secondary} onClick={() => actor.send({ type: 'recovery.start' })} disabled={busy}>
          Lost your phone? Use a recovery code
        </Button>
      </AuthCard>
    );
  }

  if (step === 'recoveryCode') {
    return (
      <AuthCard
        title="Use a recovery code"
        lead="Enter one of the recovery codes you saved when you turned two-factor on. Each code works once."
        onSubmit={() => actor.send({ type: 'code.submit' })}
        footer={backToLogin}
      >
        <TextField
          label="Recovery code"
          name="recovery_code"
          value={recoveryCode}
          onValueChange={change('recoveryCode')}
          placeholder="abcde-fghij"
          autoComplete="off"
          spellCheck={false}
          autoFocus
        />
        <Button type="submit" className={fullWidth} disabled={!canVerifyRecoveryCode || busy}>
          {busy ? 'Verifying...' : 'Verify Code'}
        </Button>
        <Button variant="link" className={secondary} onClick={() => actor.send({ type: 'recovery.cancel' })} disabled={busy}>
          Use the authenticator app instead
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Welcome back"
      lead="Sign in to trade with people you can check."
      onSubmit={() => actor.send({ type: 'form.submit' })}
      footer={
        <>
          Don&apos;t have an account?{' '}
          <Link to="/signup" className={linkStyle}>
            Sign Up
          </Link>
        </>
      }
    >
      <TextField
        label="Username"
        name="username"
        value={username}
        error={errors.username}
        onValueChange={change('username')}
        autoComplete="username"
        autoFocus
      />
      <PasswordField
        label="Password"
        name="password"
        value={password}
        error={errors.password}
        onValueChange={change('password')}
        autoComplete="current-password"
      />
      <Link to="/forgot-password" className={`${linkStyle} ${forgot}`}>
        Forgot password?
      </Link>
      <Button type="submit" className={fullWidth} disabled={busy}>
        {busy ? 'Logging in...' : 'Login'}
      </Button>
    </AuthCard>
  );
}

/** "Verify Code": enabled once the code entry holds all six digits (docs/api.md "Login"). */
function VerifyCodeButton({ entry, busy }: { entry: CodeEntryRef | undefined; busy: boolean }) {
  const complete = useIsCodeComplete(entry);
  return (
    <Button type="submit" className={fullWidth} disabled={!complete || busy}>
      {busy ? 'Verifying...' : 'Verify Code'}
    </Button>
  );
}
