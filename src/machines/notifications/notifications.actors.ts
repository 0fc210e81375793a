import { fromCallback, fromPromise, type EventObject } from 'xstate';
import { notificationEvent, realtimeEvents, unreadEvent, userChannelName } from '../../../contracts/index.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { appPathOf } from '../shared/appPath.ts';
import { parsed, watchingConnection } from '../shared/channels.ts';
import { notificationsMachine, type NotificationsEvent } from './notifications.machine.ts';

export const bindNotifications = (deps: FlowDeps) =>
  notificationsMachine.provide({
    actors: {
      loadNotifications: fromPromise(() => deps.notifications.list()),
      openNotification: fromPromise(({ input }) => deps.notifications.openOne(input.id)),
      markAllRead: fromPromise(() => deps.notifications.openAll()),
      // Ending the chart ends the subscription: the returned function unbinds.
      userChannel: fromCallback<EventObject, { username: string }>(({ input, sendBack }) => {
        const send = (event: NotificationsEvent) => sendBack(event);
        return deps.realtime.subscribe(userChannelName(input.username), {
          events: {
            [realtimeEvents.notification]: parsed(notificationEvent, (notification) =>
              send({ type: 'realtime.notification.received', notification }),
            ),
            [realtimeEvents.unread]: parsed(unreadEvent, ({ count }) => send({ type: 'realtime.unread.received', count })),
          },
          onSubscribed: () => send({ type: 'realtime.subscribed' }),
        });
      }),
      watchConnection: watchingConnection(deps.realtime),
    },
    actions: {
      visit: (_, params) => {
        const path = appPathOf(params.link);
        if (path) deps.visit(path);
      },
    },
    guards: { isAppLink: (_, params) => appPathOf(params.link) !== null },
  });
