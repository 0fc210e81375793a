import { css } from 'styled-system/css';
import type { PushRegistrationRef } from '../../machines/pushRegistration/pushRegistration.selectors.ts';
import { ButtonLink } from '../primitives/Button.tsx';
import { Card } from '../primitives/Card.tsx';
import { ShieldIcon } from '../primitives/icons.tsx';
import { PageHeader } from '../pages/PageHeader.tsx';
import { PushSettings } from './PushSettings.tsx';

const sections = css({ mt: '6', maxW: '2xl', display: 'flex', flexDirection: 'column', gap: '4' });
const row = css({ display: 'flex', gap: '3', alignItems: 'flex-start', flexWrap: { base: 'wrap', sm: 'nowrap' } });
const grow = css({ flex: '1', minW: '0' });
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
            <div className={grow}>
              <h2 className={title}>Security</h2>
              <p className={muted}>Two-factor authentication and recovery codes.</p>
            </div>
            <ButtonLink to="/settings/security" variant="outline">
              Security settings
            </ButtonLink>
          </div>
        </Card>
      </div>
    </section>
  );
}
