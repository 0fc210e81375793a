import { assign, setup, stateIn } from 'xstate';
import type { NotificationItem, NotificationList } from '../../../contracts/index.ts';
import { NOTIFICATIONS_LIST_LIMIT } from '../../../contracts/notifications.ts';
import { liveActors, socketRegion, userChannel, type ConnectionEvent } from '../shared/liveRegions.ts';
import { unboundAction, unboundPromise, unboundRule } from '../shared/unbound.ts';

export type NotificationsInput = { username: string };

export type NotificationsContext = {
  username: string;
  /** The newest notifications, newest first, as the last list and the live events left them. */
  items: NotificationItem[];
  /** The unread count the badge shows: the server's, from `list`, `open_one`, `open_all` or `unread`. */
  count: number;
  /**
   * The unread item being opened: marked read, then the list is read again, then its page (`link`, when it
   * is a page of the app) is visited.
   */
  opening: { id: number; link: string | null } | null;
};

export type NotificationsEvent =
  | { type: 'panel.open' }
  | { type: 'panel.close' }
  | { type: 'notification.open'; id: number }
  | { type: 'notifications.markAllRead' }
  | { type: 'realtime.subscribed' }
  | { type: 'realtime.notification.received'; notification: NotificationItem }
  | { type: 'realtime.unread.received'; count: number }
  | ConnectionEvent;

const itemOf = (context: NotificationsContext, id: number) => context.items.find((item) => item.id === id);

/**
 * A fresh list, keeping what the channel brought while it was on its way: items newer than the list's
 * newest (a larger id) stay on top, and their unread ones are added to the list's count, which the server
 * counted before they existed.
 */
export function mergedList(list: NotificationList, shown: readonly NotificationItem[]): Pick<NotificationsContext, 'items' | 'count'> {
  const newest = list.items.reduce((max, item) => Math.max(max, item.id), 0);
  const arrived = shown.filter((item) => item.id > newest);
  return {
    items: [...arrived, ...list.items].slice(0, NOTIFICATIONS_LIST_LIMIT),
    count: list.count + arrived.filter((item) => item.fresh).length,
  };
}

/**
 * The bell and its dropdown (docs/rules.md "Notifications", docs/api.md "Notifications"): the
 * signed-in trader's notifications and unread count, kept current by their own channel (no polling while
 * it is live), opened one at a time or all at once.
 */
export const notificationsMachine = setup({
  types: {
    context: {} as NotificationsContext,
    events: {} as NotificationsEvent,
    input: {} as NotificationsInput,
  },
  actors: {
    loadNotifications: unboundPromise<NotificationList>('loadNotifications'),
    openNotification: unboundPromise<number, { id: number }>('openNotification'),
    markAllRead: unboundPromise<number>('markAllRead'),
    /** `userChannel` brings `notification` and `unread` events. */
    ...liveActors,
  },
  actions: {
    keepList: assign(({ context }, params: { list: NotificationList }) => mergedList(params.list, context.items)),
    /** A live notification goes on top; one already shown (the list brought it too) is not shown twice. */
    prependNotification: assign(({ context }, params: { notification: NotificationItem }) => ({
      items: [params.notification, ...context.items.filter((item) => item.id !== params.notification.id)].slice(0, NOTIFICATIONS_LIST_LIMIT),
    })),
    setCount: assign((_, params: { count: number }) => ({ count: params.count })),
    /** Shown read at once; the list read next confirms it. */
    markItemRead: assign(({ context }, params: { id: number }) => ({
      items: context.items.map((item) => (item.id === params.id ? { ...item, fresh: false } : item)),
    })),
    markEveryItemRead: assign(({ context }) => ({ items: context.items.map((item) => ({ ...item, fresh: false })) })),
    setOpening: assign(({ context }, params: { id: number }) => ({
      opening: { id: params.id, link: itemOf(context, params.id)?.link ?? null },
    })),
    clearOpening: assign({ opening: null }),
    /** Goes to the page a link names, once `isAppLink` said it is one (bound to the router in notifications.actors.ts). */
    visit: unboundAction<{ link: string }>('visit'),
  },
  guards: {
    isListed: ({ context }, params: { id: number }) => itemOf(context, params.id) !== undefined,
    isFresh: ({ context }, params: { id: number }) => itemOf(context, params.id)?.fresh === true,
    /**
     * The link is a page of this app, never one that leaves it (`//host`, a scheme): bound in
     * notifications.actors.ts to the check of shared/appPath.ts.
     */
    isAppLink: unboundRule<{ link: string | null }>('isAppLink'),
    /** Something is unread: "Mark all read" has something to do. */
    hasUnread: ({ context }) => context.count > 0 || context.items.some((item) => item.fresh),
    /** Realtime cannot reach the page now. */
    isOffline: stateIn('#notifications.connection.offline'),
  },
  delays: {
    /** How often the list is read again while realtime cannot reach the page (never while it can). */
    offlineRefreshInterval: 60_000,
  },
}).createMachine({
  id: 'notifications',
  description: 'The bell: the unread badge, the dropdown’s list, opening one or all, and live updates on the trader’s own channel.',
  context: ({ input }) => ({ username: input.username, items: [], count: 0, opening: null }),
  type: 'parallel',
  states: {
    list: {
      invoke: userChannel('No live updates: the list shows what the loads bring.'),
      on: {
        'realtime.notification.received': {
          description: 'A new notification arrives live: it goes on top of the list.',
          actions: { type: 'prependNotification', params: ({ event }) => ({ notification: event.notification }) },
        },
        'realtime.unread.received': {
          description: 'The server’s unread count changed (a new one, or read in another tab).',
          actions: { type: 'setCount', params: ({ event }) => ({ count: event.count }) },
        },
      },
      initial: 'loading',
      states: {
        loading: {
          tags: ['busy'],
          description: 'The first list. A failure is treated as no data: no badge, "No notifications yet".',
          invoke: {
            id: 'loadNotifications',
            src: 'loadNotifications',
            onDone: { target: 'ready', actions: { type: 'keepList', params: ({ event }) => ({ list: event.output }) } },
            onError: { target: 'ready' },
          },
          on: {
            'realtime.subscribed': {
              target: 'loading',
              reenter: true,
              description: 'Joined while the list was on its way: read it again, so nothing sent before the join is missed.',
            },
          },
        },
        ready: {
          on: {
            'notification.open': [
              {
                guard: { type: 'isFresh', params: ({ event }) => ({ id: event.id }) },
                target: 'opening',
                description: 'An unread one: marked read first, then the list is read again, then its page opens.',
                actions: { type: 'setOpening', params: ({ event }) => ({ id: event.id }) },
              },
              {
                guard: { type: 'isAppLink', params: ({ context, event }) => ({ link: itemOf(context, event.id)?.link ?? null }) },
                description: 'Already read: straight to its page.',
                actions: {
                  type: 'visit',
                  params: ({ context, event }) => ({ link: itemOf(context, event.id)!.link! }),
                },
              },
            ],
            'notifications.markAllRead': { guard: 'hasUnread', target: 'markingAll' },
            'realtime.subscribed': {
              target: 'refreshing',
              description: 'The channel is live again after a reconnect: read the list, so nothing missed stays missed.',
            },
          },
          after: {
            offlineRefreshInterval: [
              {
                guard: 'isOffline',
                target: 'refreshing',
                description: 'Realtime cannot reach the page: the list is read again, once a minute.',
              },
              { target: 'ready', reenter: true, description: 'Live: nothing to read; look again in a minute.' },
            ],
          },
        },
        opening: {
          tags: ['busy'],
          invoke: {
            id: 'openNotification',
            src: 'openNotification',
            input: ({ context }) => ({ id: context.opening!.id }),
            onDone: {
              target: 'refreshing',
              actions: [
                { type: 'setCount', params: ({ event }) => ({ count: event.output }) },
                { type: 'markItemRead', params: ({ context }) => ({ id: context.opening!.id }) },
              ],
            },
            onError: [
              {
                guard: { type: 'isAppLink', params: ({ context }) => ({ link: context.opening?.link ?? null }) },
                target: 'ready',
                description: 'Not marked read (the toast says why); the trader still goes where it points.',
                actions: [{ type: 'visit', params: ({ context }) => ({ link: context.opening!.link! }) }, 'clearOpening'],
              },
              { target: 'ready', actions: 'clearOpening' },
            ],
          },
        },
        markingAll: {
          tags: ['busy'],
          invoke: {
            id: 'markAllRead',
            src: 'markAllRead',
            onDone: {
              target: 'refreshing',
              actions: [{ type: 'setCount', params: ({ event }) => ({ count: event.output }) }, 'markEveryItemRead'],
            },
            onError: { target: 'ready', description: 'Nothing changed; the toast says why.' },
          },
        },
        refreshing: {
          description: 'The list is read again; what shows stays meanwhile, and stays if it fails.',
          invoke: {
            id: 'refreshNotifications',
            src: 'loadNotifications',
            onDone: [
              {
                guard: { type: 'isAppLink', params: ({ context }) => ({ link: context.opening?.link ?? null }) },
                target: 'ready',
                description: 'An item was opened: now its page.',
                actions: [
                  { type: 'keepList', params: ({ event }) => ({ list: event.output }) },
                  { type: 'visit', params: ({ context }) => ({ link: context.opening!.link! }) },
                  'clearOpening',
                ],
              },
              { target: 'ready', actions: [{ type: 'keepList', params: ({ event }) => ({ list: event.output }) }, 'clearOpening'] },
            ],
            onError: [
              {
                guard: { type: 'isAppLink', params: ({ context }) => ({ link: context.opening?.link ?? null }) },
                target: 'ready',
                actions: [{ type: 'visit', params: ({ context }) => ({ link: context.opening!.link! }) }, 'clearOpening'],
              },
              { target: 'ready', actions: 'clearOpening' },
            ],
          },
          on: {
            'realtime.subscribed': {
              target: 'refreshing',
              reenter: true,
              description: 'Joined again meanwhile: this read may have started before what was missed; read once more.',
            },
          },
        },
      },
    },
    panel: {
      description: 'The dropdown under the bell.',
      initial: 'closed',
      states: {
        closed: { on: { 'panel.open': { target: 'open' } } },
        open: {
          tags: ['open'],
          on: {
            'panel.close': { target: 'closed' },
            'notification.open': { target: 'closed', description: 'Opening an item closes the dropdown.' },
          },
        },
      },
    },
    connection: socketRegion(
      'Whether the channel can reach the page: only while it cannot is the list read on a timer.',
      'Live: new notifications and counts arrive on the channel; no polling.',
      'No realtime (none configured, or the socket is down): the list is read again every minute.',
    ),
  },
});

export type NotificationsLogic = typeof notificationsMachine;
