import { Popover } from '@ark-ui/react/popover';
import { Portal } from '@ark-ui/react/portal';
import { useSelector } from '@xstate/react';
import { useId, type SVGProps } from 'react';
import { css, cx } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import type { NotificationsLogic } from '../../machines/notifications/notifications.machine.ts';
import {
  badgeText,
  selectCanMarkAllRead,
  selectIsLoading,
  selectIsOpen,
  selectItems,
  selectUnreadCount,
} from '../../machines/notifications/notifications.selectors.ts';
import { focusRing, iconButton } from '../primitives/looks.ts';
import { useLoadedLater } from '../primitives/useLoadedLater.ts';
import { notificationTexts } from './texts.ts';

/**
 * The dropdown (and luxon, for its times) is fetched once the bar has been drawn: every signed-in page shows the
 * bell at once, but its panel only when opened, so the panel is not in the code a page waits for.
 */
const loadPanel = () => import('./NotificationsPanel.tsx').then((module) => module.NotificationsPanel);

export type NotificationsRef = ActorRefFrom<NotificationsLogic>;

const trigger = cx(
  iconButton,
  focusRing,
  css({ position: 'relative', h: '10', w: '10', borderRadius: 'full', color: 'fg', _focusVisible: { outlineOffset: '2px' }, '&[data-state=open]': { bg: 'bg.muted' } }),
);
const badge = css({
  position: 'absolute',
  top: '0.5',
  right: '0.5',
  minW: '5',
  h: '5',
  px: '1',
  borderRadius: 'full',
  // The danger token is a text colour (lighter in dark): white reads on this fixed shade in both themes.
  bg: 'red.600',
  color: 'white',
  fontSize: '2xs',
  fontWeight: 'bold',
  lineHeight: '1',
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  // A ring of the bar's colour keeps the badge apart from the bell it overlaps.
  boxShadow: '0 0 0 2px token(colors.bg.surface)',
});

const BellIcon = (props: SVGProps<SVGSVGElement>) => (
  <svg width={20} height={20} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden {...props}>
    <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
    <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
  </svg>
);

/** The bell's accessible name: the dropdown's title, and how many are unread when any are. */
export const bellLabel = (count: number) => (count > 0 ? `${notificationTexts.title}, ${count} unread` : notificationTexts.title);

/** The bell in the top bar with its unread badge, opening the notifications dropdown (the chart decides when). */
export function NotificationsBell({ actor }: { actor: NotificationsRef }) {
  const count = useSelector(actor, selectUnreadCount);
  const open = useSelector(actor, selectIsOpen);
  const items = useSelector(actor, selectItems);
  const loading = useSelector(actor, selectIsLoading);
  const canMarkAllRead = useSelector(actor, selectCanMarkAllRead);
  const shown = badgeText(count);
  // Named here: Ark finds the title only if it is in the page when the popover starts, and the panel mounts on open.
  const titleId = useId();
  const panel = useLoadedLater(loadPanel);
  return (
    <Popover.Root
      ids={{ title: titleId }}
      open={open}
      // Opens once the panel's code is here (at once, but for a click in the first moments): the popover moves the
      // focus into its content as it opens, which must then exist.
      onOpenChange={(details) =>
        details.open ? void panel.ready().then(() => actor.send({ type: 'panel.open' })) : actor.send({ type: 'panel.close' })
      }
      positioning={{ placement: 'bottom-end', gutter: 8 }}
      lazyMount
      unmountOnExit
    >
      <Popover.Trigger className={trigger} aria-label={bellLabel(count)}>
        <BellIcon />
        {shown ? (
          <span className={badge} data-part="badge" aria-hidden>
            {shown}
          </span>
        ) : null}
      </Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          {panel.View ? (
            <panel.View
              titleId={titleId}
              items={items}
              loading={loading}
              canMarkAllRead={canMarkAllRead}
              onOpen={(id) => actor.send({ type: 'notification.open', id })}
              onMarkAllRead={() => actor.send({ type: 'notifications.markAllRead' })}
            />
          ) : null}
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}
