import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import type { PushFailure } from '../../machines/pushRegistration/pushRegistration.machine.ts';
import {
  selectCanEnable,
  selectFailure,
  selectIsBusy,
  selectPushView,
  type PushRegistrationRef,
  type PushView,
} from '../../machines/pushRegistration/pushRegistration.selectors.ts';
import { Button } from '../primitives/Button.tsx';
import { Card } from '../primitives/Card.tsx';
import { Badge, type BadgeTone } from '../primitives/StatusBadge.tsx';

const head = css({ display: 'flex', gap: '3', alignItems: 'flex-start' });
const icon = css({ flexShrink: 0, mt: '0.5', color: 'fg.muted' });
const title = css({ fontSize: 'lg', fontWeight: 'semibold', display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '2' });
const muted = css({ color: 'fg.muted', fontSize: 'sm', mt: '1' });
const body = css({ display: 'flex', flexDirection: 'column', gap: '3', mt: '4', alignItems: 'flex-start' });
const hintText = css({ color: 'fg.muted', fontSize: 'sm' });

type Tone = Extract<BadgeTone, 'neutral' | 'success' | 'warning' | 'danger'>;

/**
 * Why "Granted but not registered", in a trader's words rather than the browser's ("Registration failed - permission
 * denied" is said by a browser that cannot subscribe at all, with notifications allowed): what happened, and what to do.
 */
const failureWords: Record<PushFailure, { text: string; hint: string }> = {
  browser: {
    text: "This browser can't receive push notifications here.",
    hint: "Private windows, some browser profiles and browsers without a push service can't subscribe. Open Peerex in a regular window of Chrome, Firefox or Edge to get them; until then, the bell shows everything while Peerex is open.",
  },
  service: {
    text: 'Notifications are allowed, but Peerex could not register this device for them just now.',
    hint: 'Check your connection, then try again.',
  },
};

/** Each state in words: the four of docs/web-app.md "Web push registration" as the badge, what it means for the trader below it. */
const words: Record<PushView, { label: string; tone: Tone; text: string }> = {
  checking: { label: 'Checking', tone: 'neutral', text: 'Checking whether this browser can show notifications...' },
  promptRequired: {
    label: 'Permission prompt required',
    tone: 'warning',
    text: 'This browser has not been asked yet. Enable notifications to hear about your trades while Peerex is closed.',
  },
  askingPermission: {
    label: 'Permission prompt required',
    tone: 'warning',
    text: 'Answer the browser\'s prompt to allow notifications from Peerex.',
  },
  registering: { label: 'Granted', tone: 'neutral', text: 'Registering this device for notifications...' },
  registered: {
    label: 'Granted and registered',
    tone: 'success',
    text: 'This device receives notifications about your trades, chats and account.',
  },
  notRegistered: {
    label: 'Granted but not registered',
    tone: 'warning',
    text: 'Notifications are allowed, but this device could not be registered for them. Try again.',
  },
  denied: {
    label: 'Denied',
    tone: 'danger',
    text: "Notifications are blocked for this site. To allow them, open the site settings from the icon next to the address bar, set Notifications to Allow, and reload the page.",
  },
  unsupported: {
    label: 'Not available',
    tone: 'neutral',
    text: 'This browser cannot receive push notifications. Chrome, Firefox, Edge and Opera can.',
  },
};

const BellIcon = () => (
  <svg className={icon} width={24} height={24} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true">
    <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
    <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
  </svg>
);

/** The push registration of this device (docs/web-app.md "Web push registration"): its state, and a button where pressing it can help. */
export function PushSettings({ actor }: { actor: PushRegistrationRef }) {
  const view = useSelector(actor, selectPushView);
  const canEnable = useSelector(actor, selectCanEnable);
  const busy = useSelector(actor, selectIsBusy);
  const failure = useSelector(actor, selectFailure);
  const { label, tone, text } = words[view];
  const failed = view === 'notRegistered' && failure ? failureWords[failure] : null;
  return (
    <Card aria-labelledby="push-settings-title" role="region">
      <div className={head}>
        <BellIcon />
        <div>
          <h2 className={title}>
            <span id="push-settings-title">Notifications</span>
            <Badge tone={tone}>{label}</Badge>
          </h2>
          <p className={muted}>Web push on this device: trades, chat messages while you are away, deposits and security alerts.</p>
        </div>
      </div>
      <div className={body} aria-live="polite" aria-busy={busy}>
        <p data-push-message>{failed?.text ?? text}</p>
        {failed ? <p className={hintText}>{failed.hint}</p> : null}
        {canEnable ? <Button onClick={() => actor.send({ type: 'push.enable' })}>Enable notifications</Button> : null}
      </div>
    </Card>
  );
}
