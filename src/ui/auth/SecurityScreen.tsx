import { useSelector } from '@xstate/react';
import { QRCodeSVG } from 'qrcode.react';
import type { FormEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import { css } from 'styled-system/css';
import type { twoFactorMachine } from '../../machines/twoFactor/twoFactor.machine.ts';
import {
  selectCanSubmitCode,
  selectIsBusy,
  selectIsEnabled,
  selectView,
} from '../../machines/twoFactor/twoFactor.selectors.ts';
import { Button } from '../primitives/Button.tsx';
import { Card } from '../primitives/Card.tsx';
import { ShieldIcon } from '../primitives/icons.tsx';
import { CodeField } from './fields.tsx';
import { PageHeader } from '../pages/PageHeader.tsx';

const section = css({ mt: '6', maxW: '2xl', display: 'flex', flexDirection: 'column', gap: '4' });
const head = css({ display: 'flex', gap: '3', alignItems: 'flex-start' });
const title = css({ fontSize: 'lg', fontWeight: 'semibold' });
const muted = css({ color: 'fg.muted', fontSize: 'sm' });
const badge = css({
  display: 'inline-flex',
  px: '2',
  py: '0.5',
  borderRadius: 'full',
  fontSize: 'xs',
  fontWeight: 'semibold',
  '&[data-enabled=true]': { bg: 'success.subtle', color: 'success' },
  '&[data-enabled=false]': { bg: 'bg.muted', color: 'fg.muted' },
});
const enrol = css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: 'auto 1fr' }, gap: '5', mt: '4', alignItems: 'start' });
const qr = css({ bg: 'white', p: '3', borderRadius: 'lg', borderWidth: '1px', borderColor: 'border', justifySelf: 'start' });
const secret = css({ fontFamily: 'mono', fontSize: 'sm', bg: 'bg.muted', px: '2', py: '1', borderRadius: 'md', wordBreak: 'break-all' });
const form = css({ display: 'flex', flexDirection: 'column', gap: '3', mt: '4', maxW: 'sm' });
const actions = css({ display: 'flex', gap: '2', flexWrap: 'wrap' });

/** /settings/security: two-factor on with a scanned QR code and a confirming code, off with a code. */
export function SecurityScreen({ actor }: { actor: ActorRefFrom<typeof twoFactorMachine> }) {
  const view = useSelector(actor, selectView);
  const busy = useSelector(actor, selectIsBusy);
  const enabled = useSelector(actor, selectIsEnabled);
  const canSubmit = useSelector(actor, selectCanSubmitCode);
  const { code, secret: pendingSecret, otpauthUrl } = useSelector(actor, (state) => state.context);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'form.submit' });
  };
  const codeField = (
    <CodeField
      label="Authentication code"
      value={code}
      onValueChange={(value) => actor.send({ type: 'field.change', name: 'code', value })}
    />
  );

  return (
    <section>
      <PageHeader title="Security" subtitle="Protect your account and your funds." />
      <div className={section}>
        <Card>
          <div className={head}>
            <ShieldIcon width={24} height={24} />
            <div>
              <h2 className={title}>
                Two-factor authentication{' '}
                {view === 'loading' || view === 'unavailable' ? null : (
                  <span className={badge} data-enabled={enabled}>
                    {enabled ? 'On' : 'Off'}
                  </span>
                )}
              </h2>
              <p className={muted}>Every login also asks for a 6-digit code from an authenticator app.</p>
            </div>
          </div>

          {view === 'loading' ? <p className={muted}>Loading...</p> : null}
          {view === 'unavailable' ? (
            <div className={form}>
              <p className={muted}>The two-factor status could not be loaded.</p>
              <Button variant="outline" onClick={() => actor.send({ type: 'status.retry' })}>
                Try again
              </Button>
            </div>
          ) : null}

          {view === 'off' ? (
            <div className={form}>
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
              <form onSubmit={submit} className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
                <p className={muted}>
                  Scan the code with your authenticator app, or enter this key by hand:
                </p>
                <code className={secret} data-testid="totp-secret">
                  {pendingSecret}
                </code>
                {codeField}
                <div className={actions}>
                  <Button type="submit" disabled={!canSubmit || busy}>
                    {busy ? 'Please wait...' : 'Confirm and enable'}
                  </Button>
                  <Button variant="ghost" onClick={() => actor.send({ type: 'setup.cancel' })} disabled={busy}>
                    Cancel
                  </Button>
                </div>
              </form>
            </div>
          ) : null}

          {view === 'on' ? (
            <div className={form}>
              <Button variant="destructive" onClick={() => actor.send({ type: 'disable.start' })}>
                Disable two-factor
              </Button>
            </div>
          ) : null}

          {view === 'disabling' ? (
            <form onSubmit={submit} className={form}>
              <p className={muted}>Enter a current code from your authenticator app to turn two-factor off.</p>
              {codeField}
              <div className={actions}>
                <Button type="submit" variant="destructive" disabled={!canSubmit || busy}>
                  {busy ? 'Please wait...' : 'Confirm and disable'}
                </Button>
                <Button variant="ghost" onClick={() => actor.send({ type: 'disable.cancel' })} disabled={busy}>
                  Cancel
                </Button>
              </div>
            </form>
          ) : null}
        </Card>
      </div>
    </section>
  );
}
