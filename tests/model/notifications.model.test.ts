import { SimulatedClock, createActor, type AnyMachineSnapshot } from 'xstate';
import type { NotificationItem, NotificationList } from '../../contracts/index.ts';
import { bindNotifications } from '../../src/machines/notifications/notifications.actors.ts';
import type { NotificationsContext } from '../../src/machines/notifications/notifications.machine.ts';
import {
  selectCanMarkAllRead,
  selectIsLoading,
  selectIsOpen,
  selectItems,
  selectUnreadCount,
} from '../../src/machines/notifications/notifications.selectors.ts';
import { Coverage, afterEvent, describePath, replay, scriptedActors, walk, type ModelEvent, type ModelPath } from '../support/machines.ts';
import { notification, notificationDeps, trader } from '../support/notifications.ts';

/**
 * The bell's chart walked as it is, every invoked actor scripted: the lists, open_one and open_all answered
 * or failed, the channel joined again, a notification and an unread count arriving live, the connection
 * going and coming back (the list read every minute only while it is gone: the minute passing while it is live reads nothing), the panel opened and closed,
 * an unread item with a link and a read one with a link opened.
 */
const srcs = ['loadNotifications', 'openNotification', 'markAllRead', 'userChannel', 'watchConnection'] as const;

const TRADE_LINK = '/chat?channel=trade-1';
const WALLET_LINK = '/wallets/transactions';
const created = '2026-03-05T14:00:00.000Z';
/** The server's first list: the trade's notification unread, the deposit's read. */
const first: NotificationList = {
  count: 1,
  items: [notification(2, { link: TRADE_LINK, created }), notification(1, { fresh: false, link: WALLET_LINK, created })],
};
/** Every later list: everything read (the trader opened it, or read it in another tab). */
const later: NotificationList = { count: 0, items: first.items.map((item) => ({ ...item, fresh: false })) };
/** What arrives live. */
const arriving = notification(3, { link: null, created });
const LIVE_COUNT = 2;
const polled = afterEvent('offlineRefreshInterval', 'notifications.list.ready');
const failure = new Error('Internet server error');

function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const context = snapshot.context as NotificationsContext;
  const list: ModelEvent[] = [];
  const on = (state: string) => snapshot.matches({ list: state });
  if (on('loading')) {
    list.push({ type: 'xstate.done.actor.loadNotifications', output: first }, { type: 'xstate.error.actor.loadNotifications', error: failure });
    if (snapshot.children.userChannel) list.push({ type: 'xstate.error.actor.userChannel', error: new Error('refused') });
  }
  if (on('refreshing')) {
    list.push({ type: 'xstate.done.actor.refreshNotifications', output: later }, { type: 'xstate.error.actor.refreshNotifications', error: failure });
  }
  if (on('opening')) {
    list.push({ type: 'xstate.done.actor.openNotification', output: 0 }, { type: 'xstate.error.actor.openNotification', error: failure });
  }
  if (on('markingAll')) {
    list.push({ type: 'xstate.done.actor.markAllRead', output: 0 }, { type: 'xstate.error.actor.markAllRead', error: failure });
  }
  const connecting = snapshot.matches({ connection: 'connecting' });
  const closed = snapshot.matches({ panel: 'closed' });
  const quiet = connecting && closed;
  if (on('ready')) {
    list.push(polled);
    if (connecting) list.push({ type: 'notifications.markAllRead' });
    if (connecting) for (const item of context.items) list.push({ type: 'notification.open', id: item.id });
  }
  if (quiet && (on('ready') || on('loading') || on('refreshing'))) list.push({ type: 'realtime.subscribed' });
  // The three regions are walked one against the others only where they meet (an open item closes the panel,
  // the minute passing reads the list only while offline, a live item arriving while a list is on its way),
  // so the graph stays small enough to replay whole.
  if (quiet && !on('opening') && !on('markingAll') && !context.items.some((item) => item.id === arriving.id)) {
    list.push({ type: 'realtime.notification.received', notification: arriving });
  }
  if (quiet && on('ready') && context.count === 0) list.push({ type: 'realtime.unread.received', count: LIVE_COUNT });
  if (connecting) list.push({ type: closed ? 'panel.open' : 'panel.close' });
  if (!closed) return list;
  if (connecting) list.push({ type: 'realtime.connected' }, { type: 'realtime.offline' });
  if (snapshot.matches({ connection: 'live' })) list.push({ type: 'realtime.offline' }, { type: 'realtime.connecting' });
  if (snapshot.matches({ connection: 'offline' })) {
    list.push({ type: 'realtime.connected' }, { type: 'realtime.connecting' });
    if (snapshot.children.connection) list.push({ type: 'xstate.error.actor.connection', error: new Error('gone') });
  }
  return list;
}

const walked = bindNotifications(notificationDeps().deps);
const model = walk(walked, { events, input: { username: trader } });

/** The oracle's merge, written apart from the chart's: items newer than the list's newest stay on top. */
function merge(list: NotificationList, shown: NotificationItem[]) {
  const newest = Math.max(0, ...list.items.map((item) => item.id));
  const arrived = shown.filter((item) => item.id > newest);
  return { items: [...arrived, ...list.items], count: list.count + arrived.filter((item) => item.fresh).length };
}

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(srcs);
  const harness = notificationDeps();
  const clock = new SimulatedClock();
  const machine = bindNotifications(harness.deps).provide({ actors: fakes.actors as never });
  const actor = createActor(machine, { input: { username: trader }, clock, inspect: coverage?.inspect }).start();

  // The oracle: what the trader sees and where they went.
  let phase: 'loading' | 'ready' | 'opening' | 'markingAll' | 'refreshing' = 'loading';
  let items: NotificationItem[] = [];
  let count = 0;
  let open = false;
  let offline = false;
  let opening: { id: number; link: string | null } | null = null;
  const visited: string[] = [];
  let listCalls = 1;

  await replay(
    actor,
    path,
    fakes,
    (snapshot, { event }) => {
      const leaveOpening = () => {
        if (opening?.link) visited.push(opening.link);
        opening = null;
      };
      switch (event.type) {
        case 'xstate.done.actor.loadNotifications':
        case 'xstate.done.actor.refreshNotifications':
          ({ items, count } = merge(event.output as NotificationList, items));
          phase = 'ready';
          leaveOpening();
          break;
        case 'xstate.error.actor.loadNotifications':
        case 'xstate.error.actor.refreshNotifications':
          phase = 'ready';
          leaveOpening();
          break;
        case 'notification.open': {
          const item = items.find((entry) => entry.id === event.id)!;
          open = false;
          if (item.fresh) {
            opening = { id: item.id, link: item.link };
            phase = 'opening';
          } else if (item.link) visited.push(item.link);
          break;
        }
        case 'xstate.done.actor.openNotification':
          count = event.output as number;
          items = items.map((item) => (item.id === opening!.id ? { ...item, fresh: false } : item));
          phase = 'refreshing';
          listCalls += 1;
          break;
        case 'xstate.error.actor.openNotification':
          phase = 'ready';
          leaveOpening();
          break;
        case 'notifications.markAllRead':
          if (count > 0 || items.some((item) => item.fresh)) phase = 'markingAll';
          break;
        case 'xstate.done.actor.markAllRead':
          count = event.output as number;
          items = items.map((item) => ({ ...item, fresh: false }));
          phase = 'refreshing';
          listCalls += 1;
          break;
        case 'xstate.error.actor.markAllRead':
          phase = 'ready';
          break;
        case 'realtime.subscribed':
          if (phase === 'ready') phase = 'refreshing';
          listCalls += 1;
          break;
        case 'realtime.notification.received':
          items = [event.notification as NotificationItem, ...items];
          break;
        case 'realtime.unread.received':
          count = event.count as number;
          break;
        case 'panel.open':
          open = true;
          break;
        case 'panel.close':
          open = false;
          break;
        case 'realtime.offline':
        case 'xstate.error.actor.connection':
          offline = true;
          break;
        case 'realtime.connected':
        case 'realtime.connecting':
          offline = false;
          break;
        case polled.type:
          if (offline) {
            phase = 'refreshing';
            listCalls += 1;
          }
          break;
      }
      const s = snapshot as never;
      expect(selectIsLoading(s), 'first load').toBe(phase === 'loading');
      expect(selectItems(s).map((item) => [item.id, item.fresh]), 'items').toEqual(items.map((item) => [item.id, item.fresh]));
      expect(selectUnreadCount(s), 'count').toBe(count);
      expect(selectIsOpen(s), 'panel').toBe(open);
      expect(selectCanMarkAllRead(s), 'Mark all read').toBe(phase === 'ready' && (count > 0 || items.some((item) => item.fresh)));
      expect(harness.visited, 'pages visited').toEqual(visited);
      expect(fakes.calls.filter((call) => call.id === 'loadNotifications' || call.id === 'refreshNotifications').length, 'list calls').toBe(listCalls);
      expect(fakes.isRunning('openNotification'), 'open_one running').toBe(phase === 'opening');
      expect(fakes.isRunning('markAllRead'), 'open_all running').toBe(phase === 'markingAll');
      expect(snapshot.matches({ connection: 'offline' }), 'offline').toBe(offline);
    },
    { clock },
  );
  actor.stop();
}

describe('notifications: every path through the chart', () => {
  it('has a graph to walk', () => {
    expect(model.states).toBeGreaterThan(50);
  });

  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(path);
  });

  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(walked);
    for (const path of model.paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
    // Replaying every path once more takes a while on a busy machine.
  }, 120_000);
});
