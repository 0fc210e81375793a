import { css } from 'styled-system/css';
import type { PushRegistrationRef } from '../../machines/pushRegistration/pushRegistration.selectors.ts';
import { ButtonLink } from '../primitives/Button.tsx';
import { Card } from '../primitives/Card.tsx';
import { ShieldIcon } from '../primitives/icons.tsx';
import { PageHeader } from '../pages/PageHeader.tsx';
import { PushSettings } from './PushSettings.tsx';

const sections = css({ mt: '6', maxW: '2xl', display: 'flex', flexDirection: 'column', gap: '4' });
// On a phone the link goes under the text instead of squeezing it.
const row = css({ display: 'grid', gridTemplateColumns: { base: 'auto 1fr', sm: 'auto 1fr auto' }, columnGap: '3', rowGap: '4', alignItems: 'start' });
const link = css({ gridColumn: { base: '2', sm: 'auto' }, justifySelf: 'start' });
const title = css({ fontSize: 'lg', fontWeight: 'semibold' });
const muted = css({ color: 'fg.muted', fontSize: 'sm', mt: '1' });

/** /settings: this device's notifications, and the way to the security settings. */
export function SettingsScreen({ push }: { push: PushRegistrationRef | undefined }) {
  return (
    <section>
      <PageHeader title="Settings" subtitle="Notifications on this device and the security of your account." />
      <div className={sections}>
        {push ? <PushSettings actor={push} /> : null}
        <Card>
          <div className={row}>
            <ShieldIcon width={24} height={24} />
            <div>
              <h2 className={title}>Security</h2>
              <p className={muted}>Two-factor authentication and recovery codes.</p>
            </div>
            <ButtonLink to="/settings/security" variant="outline" className={link}>
              Security settings
            </ButtonLink>
          </div>
        </Card>
      </div>
    </section>
  );
}
