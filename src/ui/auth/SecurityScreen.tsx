import { useSelector } from '@xstate/react';
import { QRCodeSVG } from 'qrcode.react';
import type { ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import { css } from 'styled-system/css';
import type { twoFactorMachine } from '../../machines/twoFactor/twoFactor.machine.ts';
import type { CodeEntryRef } from '../../machines/codeEntry/codeEntry.selectors.ts';
import {
  selectCanSubmitCode,
  selectCodeEntry,
  selectIsBusy,
  selectIsEnabled,
  selectView,
} from '../../machines/twoFactor/twoFactor.selectors.ts';
import { Button } from '../primitives/Button.tsx';
import { Form } from '../primitives/Form.tsx';
import { Card } from '../primitives/Card.tsx';
import { ShieldIcon } from '../primitives/icons.tsx';
import { Badge } from '../primitives/StatusBadge.tsx';
import { TextField } from '../primitives/TextField.tsx';
import { CodeEntryField, useIsCodeComplete } from './fields.tsx';
import { PageHeader } from '../pages/PageHeader.tsx';
import { CurrentPasswordField, FormButtons, LoadingOrRetry } from '../security/parts.tsx';
import { securityStyles as s } from '../security/styles.ts';

const section = css({ mt: '6', maxW: '2xl', display: 'flex', flexDirection: 'column', gap: '4' });
const head = css({ display: 'flex', gap: '3', alignItems: 'flex-start' });
const enrol = css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: 'auto 1fr' }, gap: '5', mt: '4', alignItems: 'start' });
const qr = css({ bg: 'white', p: '3', borderRadius: 'lg', borderWidth: '1px', borderColor: 'border', justifySelf: 'start' });
const secret = css({ fontFamily: 'mono', fontSize: 'sm', bg: 'bg.muted', px: '2', py: '1', borderRadius: 'md', wordBreak: 'break-all' });
const codeList = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr 1fr', sm: 'repeat(2, max-content)' },
  gap: '2',
  columnGap: '6',
  fontFamily: 'mono',
  fontSize: 'md',
  bg: 'bg.muted',
  p: '4',
  borderRadius: 'lg',
  listStyle: 'none',
  userSelect: 'all',
});
const warning = css({ color: 'warning', fontSize: 'sm', fontWeight: 'medium' });

/**
 * /settings/security: two-factor on (QR code, a confirming code, the password), off, and recovery codes;
 * below it, `children`: the account protections (src/ui/security/).
 */
export function SecurityScreen({ actor, children }: { actor: ActorRefFrom<typeof twoFactorMachine>; children?: ReactNode }) {
  const view = useSelector(actor, selectView);
  const busy = useSelector(actor, selectIsBusy);
  const enabled = useSelector(actor, selectIsEnabled);
  const canSubmit = useSelector(actor, selectCanSubmitCode);
  const codeEntry = useSelector(actor, selectCodeEntry);
  const { code, password, secret: pendingSecret, otpauthUrl, recoveryCodes, recoveryCodesLeft } = useSelector(
    actor,
    (state) => state.context,
  );
  const submit = () => actor.send({ type: 'form.submit' });
  const change = (name: 'code' | 'password') => (value: string) => actor.send({ type: 'field.change', name, value });
  const passwordField = <CurrentPasswordField value={password} onValueChange={change('password')} />;
  /** The form of a change made with a code of the account's own (off, new recovery codes). */
  const proofForm = (lead: string, submitLabel: string, cancel: () => void, variant: 'destructive' | 'default'): ReactNode => (
    <Form onSubmit={submit} className={s.form}>
      <p className={s.muted}>{lead}</p>
      <TextField
        label="Authentication or recovery code"
        name="code"
        value={code}
        onValueChange={change('code')}
        autoComplete="one-time-code"
        spellCheck={false}
        maxLength={13}
        autoFocus
      />
      {passwordField}
      <FormButtons submitLabel={submitLabel} variant={variant} canSubmit={canSubmit} busy={busy} onCancel={cancel} />
    </Form>
  );

  return (
    <section>
      <PageHeader title="Security" subtitle="Protect your account and your funds." />
      <div className={section}>
        <Card>
          <div className={head}>
            <ShieldIcon width={24} height={24} />
            <div>
              <h2 className={s.title}>
                Two-factor authentication{' '}
                {view === 'loading' || view === 'unavailable' ? null : (
                  <Badge tone={enabled ? 'success' : 'neutral'}>{enabled ? 'On' : 'Off'}</Badge>
                )}
              </h2>
              <p className={s.muted}>Every login also asks for a 6-digit code from an authenticator app.</p>
            </div>
          </div>

          <LoadingOrRetry view={view} failure="The two-factor status could not be loaded." onRetry={() => actor.send({ type: 'status.retry' })} />

          {view === 'off' ? (
            <div className={s.form}>
              <Button onClick={() => actor.send({ type: 'setup.start' })} disabled={busy}>
                {busy ? 'Please wait...' : 'Enable two-factor'}
              </Button>
            </div>
          ) : null}

          {view === 'enrolling' && otpauthUrl ? (
            <div className={enrol}>
              <div className={qr}>
                <QRCodeSVG value={otpauthUrl} size={165} level="M" title="Two-factor QR code" />
              </div>
              <Form onSubmit={submit} className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
                <p className={s.muted}>
                  Scan the code with your authenticator app, or enter this key by hand:
                </p>
                <code className={secret} data-testid="totp-secret">
                  {pendingSecret}
                </code>
                <CodeEntryField entry={codeEntry} label="Authentication code" submitted={code} />
                {passwordField}
                <div className={s.actions}>
                  <EnableButton entry={codeEntry} canSubmit={canSubmit} busy={busy} />
                  <Button variant="ghost" onClick={() => actor.send({ type: 'setup.cancel' })} disabled={busy}>
                    Cancel
                  </Button>
                </div>
              </Form>
            </div>
          ) : null}

          {view === 'recoveryCodes' && recoveryCodes ? (
            <div className={s.form}>
              <h3 className={css({ fontWeight: 'semibold' })}>Save your recovery codes</h3>
              <p className={s.muted}>
                If you lose your phone, each of these codes signs you in once instead of the authenticator app. Write them
                down or store them in a password manager.
              </p>
              <p className={warning}>They are shown only now.</p>
              <ol className={codeList} aria-label="Recovery codes">
                {recoveryCodes.map((recovery) => (
                  <li key={recovery}>{recovery}</li>
                ))}
              </ol>
              <div className={s.actions}>
                <Button onClick={() => actor.send({ type: 'recoveryCodes.acknowledge' })}>I have saved my recovery codes</Button>
              </div>
            </div>
          ) : null}

          {view === 'on' ? (
            <div className={s.form}>
              <p className={s.muted}>
                Recovery codes left: <strong>{recoveryCodesLeft}</strong>
                {recoveryCodesLeft <= 3 ? ' — make a new set before you run out.' : ''}
              </p>
              <div className={s.actions}>
                <Button variant="outline" onClick={() => actor.send({ type: 'recoveryCodes.start' })}>
                  New recovery codes
                </Button>
                <Button variant="destructive" onClick={() => actor.send({ type: 'disable.start' })}>
                  Disable two-factor
                </Button>
              </div>
            </div>
          ) : null}

          {view === 'disabling'
            ? proofForm(
                'Enter a current code from your authenticator app, or one of your recovery codes, and your password to turn two-factor off.',
                'Confirm and disable',
                () => actor.send({ type: 'disable.cancel' }),
                'destructive',
              )
            : null}

          {view === 'renewing'
            ? proofForm(
                'Enter a current code from your authenticator app, or one of your recovery codes, and your password. The new codes replace the old ones.',
                'Make new codes',
                () => actor.send({ type: 'recoveryCodes.cancel' }),
                'default',
              )
            : null}
        </Card>
        {children}
      </div>
    </section>
  );
}

/** "Confirm and enable": the chart takes the submit (the password is there) and the code entry holds six digits. */
function EnableButton({ entry, canSubmit, busy }: { entry: CodeEntryRef | undefined; canSubmit: boolean; busy: boolean }) {
  const complete = useIsCodeComplete(entry);
  return (
    <Button type="submit" disabled={!canSubmit || !complete || busy}>
      {busy ? 'Please wait...' : 'Confirm and enable'}
    </Button>
  );
}
