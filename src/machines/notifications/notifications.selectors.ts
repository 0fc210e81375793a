import type { SnapshotFrom } from 'xstate';
import type { notificationsMachine } from './notifications.machine.ts';

type NotificationsSnapshot = SnapshotFrom<typeof notificationsMachine>;

/** The badge shows the count, or "9+" above this (docs/web-app.md "Fixed figures"). */
export const BADGE_MAX = 9;
/** What the badge reads; null hides it (nothing unread). */
export const badgeText = (count: number): string | null => (count <= 0 ? null : count > BADGE_MAX ? `${BADGE_MAX}+` : String(count));

export const selectItems = (snapshot: NotificationsSnapshot) => snapshot.context.items;
export const selectUnreadCount = (snapshot: NotificationsSnapshot) => snapshot.context.count;
/** The dropdown is open. */
export const selectIsOpen = (snapshot: NotificationsSnapshot) => snapshot.hasTag('open');
/** The first list is on its way: nothing to say about it yet. */
export const selectIsLoading = (snapshot: NotificationsSnapshot) => snapshot.matches({ list: 'loading' });
/** "Mark all read" has something to do now. */
export const selectCanMarkAllRead = (snapshot: NotificationsSnapshot) => snapshot.can({ type: 'notifications.markAllRead' });
