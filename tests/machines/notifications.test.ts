import { SimulatedClock, createActor } from 'xstate';
import type { NotificationList } from '../../contracts/index.ts';
import { bindNotifications } from '../../src/machines/notifications/notifications.actors.ts';
import { appPathOf } from '../../src/machines/shared/appPath.ts';
import { mergedList } from '../../src/machines/notifications/notifications.machine.ts';
import {
  badgeText,
  selectCanMarkAllRead,
  selectIsLoading,
  selectIsOpen,
  selectItems,
  selectUnreadCount,
} from '../../src/machines/notifications/notifications.selectors.ts';
import { createApi } from '../../src/services/api.ts';
import { createNotificationService } from '../../src/services/notifications.ts';
import type { ConnectionState } from '../../src/services/realtime.ts';
import { fakeRealtime } from '../support/chat.ts';
import { listOf, notification, notificationDeps, trader, traderChannel } from '../support/notifications.ts';

const MINUTE = 60_000;

/** The bell's chart for `trader`, started, with the first list answered unless `first` is null. */
async function startBell({ first = listOf([]) as NotificationList | null, connection = 'connecting' as ConnectionState } = {}) {
  const harness = notificationDeps(undefined, fakeRealtime(connection));
  const clock = new SimulatedClock();
  const actor = createActor(bindNotifications(harness.deps), { input: { username: trader }, clock }).start();
  if (first) await harness.calls.answer('list', first);
  const snapshot = () => actor.getSnapshot();
  const ids = () => selectItems(snapshot()).map((item) => item.id);
  return { ...harness, actor, clock, snapshot, ids };
}

describe('the badge', () => {
  it.each([
    [0, null],
    [1, '1'],
    [9, '9'],
    [10, '9+'],
    [250, '9+'],
  ] as const)('%i unread reads %s', (count, text) => {
    expect(badgeText(count)).toBe(text);
  });
});

describe('a notification’s link (appPathOf)', () => {
  it.each(['/chat?channel=trade-abc', '/wallets/transactions', '/settings/security', '/trades#top'])('%s is a page of the app', (link) => {
    expect(appPathOf(link)).toBe(link);
  });

  it.each([
    ['nothing', null],
    ['an empty link', ''],
    ['another host', 'https://evil.example/chat'],
    ['a protocol-relative host', '//evil.example/chat'],
    ['a backslash a browser reads as a slash', '/\\evil.example'],
    ['a script', 'javascript:alert(1)'],
    ['a relative path', 'chat?channel=x'],
    ['a control character', '/chat\n//evil.example'],
  ])('%s is not', (_, link) => {
    expect(appPathOf(link)).toBeNull();
  });
});

describe('the service (user/notifications/)', () => {
  function serviceAnswering(answer: { status: number; body: unknown }) {
    const requests: { body: unknown; headers: Headers }[] = [];
    const toasts: string[] = [];
    const api = createApi({
      baseUrl: 'http://peerex.test/api/',
      getToken: () => 'token',
      onSessionExpired: () => {},
      onError: (message) => void toasts.push(message),
      retryDelayMs: 1,
      maxRetryDelayMs: 1,
      fetch: async (_url, init) => {
        requests.push({ body: JSON.parse(String(init?.body)), headers: new Headers(init?.headers) });
        return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
      },
    });
    return { service: createNotificationService(api), requests, toasts };
  }

  it('list asks for the list and parses it by the contract', async () => {
    const items = [notification(2), notification(1, { fresh: false, link: '/wallets/transactions' })];
    const { service, requests } = serviceAnswering({ status: 200, body: { success: true, info: { count: 1, items } } });
    expect(await service.list()).toEqual({ count: 1, items });
    expect(requests[0]!.body).toEqual({ type: 'list' });
  });

  it('a failing list shows no toast (spec: "fetch errors are swallowed")', async () => {
    const { service, toasts, requests } = serviceAnswering({ status: 400, body: { success: false, info: 'Nope' } });
    await expect(service.list()).rejects.toThrow('Nope');
    expect(toasts).toEqual([]);
    expect(requests[0]!.headers.get('X-No-Toast')).toBe('1');
  });

  it('open_one and open_all answer the new count; a refusal is a toast', async () => {
    const ok = serviceAnswering({ status: 200, body: { success: true, info: 3 } });
    expect(await ok.service.openOne(7)).toBe(3);
    expect(await ok.service.openAll()).toBe(3);
    expect(ok.requests.map((request) => request.body)).toEqual([{ type: 'open_one', id: 7 }, { type: 'open_all' }]);
    const refused = serviceAnswering({ status: 400, body: { success: false, info: 'Notification not found' } });
    await expect(refused.service.openOne(7)).rejects.toThrow('Notification not found');
    expect(refused.toasts).toEqual(['Notification not found']);
  });
});

describe('notifications chart', () => {
  it('loads the list when it starts: the count and the items, newest first', async () => {
    const bell = await startBell({ first: null });
    expect(selectIsLoading(bell.snapshot())).toBe(true);
    expect(bell.calls.count('list')).toBe(1);
    await bell.calls.answer('list', listOf([notification(3), notification(2, { fresh: false }), notification(1)]));
    expect(selectIsLoading(bell.snapshot())).toBe(false);
    expect(bell.ids()).toEqual([3, 2, 1]);
    expect(selectUnreadCount(bell.snapshot())).toBe(2);
    expect(selectIsOpen(bell.snapshot())).toBe(false);
  });

  it('a failing first list is no data: nothing unread, nothing listed, and the chart still works', async () => {
    const bell = await startBell({ first: null });
    await bell.calls.fail('list');
    expect(selectIsLoading(bell.snapshot())).toBe(false);
    expect(bell.ids()).toEqual([]);
    expect(selectUnreadCount(bell.snapshot())).toBe(0);
    bell.realtime.emit(traderChannel, 'notification', notification(9));
    expect(bell.ids()).toEqual([9]);
  });

  it('opens and closes the panel', async () => {
    const bell = await startBell();
    bell.actor.send({ type: 'panel.open' });
    expect(selectIsOpen(bell.snapshot())).toBe(true);
    bell.actor.send({ type: 'panel.close' });
    expect(selectIsOpen(bell.snapshot())).toBe(false);
  });

  it('opening an unread item: open_one, the new count, the list read again, then its page', async () => {
    const item = notification(5, { link: '/chat?channel=trade-xyz' });
    const bell = await startBell({ first: listOf([item, notification(4)]) });
    bell.actor.send({ type: 'panel.open' });
    bell.actor.send({ type: 'notification.open', id: 5 });
    expect(selectIsOpen(bell.snapshot()), 'the panel closes').toBe(false);
    expect(bell.calls.inputs('openOne')).toEqual([5]);

    await bell.calls.answer('openOne', 1);
    expect(selectUnreadCount(bell.snapshot())).toBe(1);
    expect(selectItems(bell.snapshot())[0]!.fresh, 'shown read at once').toBe(false);
    expect(bell.calls.count('list'), 'the list is read again').toBe(2);
    expect(bell.visited, 'not before the list is back').toEqual([]);

    await bell.calls.answer('list', listOf([{ ...item, fresh: false }, notification(4)]));
    expect(bell.visited).toEqual(['/chat?channel=trade-xyz']);
    expect(selectUnreadCount(bell.snapshot())).toBe(1);
    expect(bell.snapshot().context.opening).toBeNull();
  });

  it('opening an unread item that points nowhere marks it read and stays', async () => {
    const bell = await startBell({ first: listOf([notification(5)]) });
    bell.actor.send({ type: 'notification.open', id: 5 });
    await bell.calls.answer('openOne', 0);
    await bell.calls.answer('list', listOf([notification(5, { fresh: false })]));
    expect(bell.visited).toEqual([]);
    expect(selectUnreadCount(bell.snapshot())).toBe(0);
  });

  it('opening an item already read goes straight to its page, with no call', async () => {
    const bell = await startBell({ first: listOf([notification(5, { fresh: false, link: '/wallets/transactions' })]) });
    bell.actor.send({ type: 'notification.open', id: 5 });
    expect(bell.visited).toEqual(['/wallets/transactions']);
    expect(bell.calls.count('openOne')).toBe(0);
    expect(bell.calls.count('list')).toBe(1);
  });

  it('never visits a link that leaves the app', async () => {
    const bell = await startBell({
      first: listOf([notification(6, { link: '//evil.example/x' }), notification(5, { fresh: false, link: 'https://evil.example' })]),
    });
    bell.actor.send({ type: 'notification.open', id: 5 });
    bell.actor.send({ type: 'notification.open', id: 6 });
    await bell.calls.answer('openOne', 0);
    await bell.calls.answer('list', listOf([]));
    expect(bell.visited).toEqual([]);
  });

  it('when open_one fails, the trader still goes where the item points, and nothing is read again', async () => {
    const bell = await startBell({ first: listOf([notification(5, { link: '/trades' })]) });
    bell.actor.send({ type: 'notification.open', id: 5 });
    await bell.calls.fail('openOne');
    expect(bell.visited).toEqual(['/trades']);
    expect(bell.calls.count('list')).toBe(1);
    expect(selectItems(bell.snapshot())[0]!.fresh).toBe(true);
  });

  it('an unknown id changes nothing', async () => {
    const bell = await startBell({ first: listOf([notification(5)]) });
    bell.actor.send({ type: 'notification.open', id: 99 });
    expect(bell.calls.count('openOne')).toBe(0);
    expect(bell.visited).toEqual([]);
  });

  it('mark all read: open_all, the new count, every item read, the list read again', async () => {
    const bell = await startBell({ first: listOf([notification(2), notification(1)]) });
    expect(selectCanMarkAllRead(bell.snapshot())).toBe(true);
    bell.actor.send({ type: 'notifications.markAllRead' });
    expect(selectCanMarkAllRead(bell.snapshot()), 'not twice at once').toBe(false);
    expect(bell.calls.count('openAll')).toBe(1);
    await bell.calls.answer('openAll', 0);
    expect(selectUnreadCount(bell.snapshot())).toBe(0);
    expect(selectItems(bell.snapshot()).every((item) => !item.fresh)).toBe(true);
    expect(bell.calls.count('list')).toBe(2);
    await bell.calls.answer('list', listOf([notification(2, { fresh: false }), notification(1, { fresh: false })]));
    expect(selectCanMarkAllRead(bell.snapshot())).toBe(false);
  });

  it('mark all read is refused when nothing is unread', async () => {
    const bell = await startBell({ first: listOf([notification(1, { fresh: false })]) });
    expect(selectCanMarkAllRead(bell.snapshot())).toBe(false);
    bell.actor.send({ type: 'notifications.markAllRead' });
    expect(bell.calls.count('openAll')).toBe(0);
  });

  it('a failing mark-all changes nothing', async () => {
    const bell = await startBell({ first: listOf([notification(1)]) });
    bell.actor.send({ type: 'notifications.markAllRead' });
    await bell.calls.fail('openAll');
    expect(selectUnreadCount(bell.snapshot())).toBe(1);
    expect(selectItems(bell.snapshot())[0]!.fresh).toBe(true);
    expect(selectCanMarkAllRead(bell.snapshot())).toBe(true);
  });

  it('listens on the trader’s own channel: a notification goes on top (once), `unread` sets the count', async () => {
    const bell = await startBell({ first: listOf([notification(1)]) });
    expect(bell.realtime.listeners(traderChannel)).toBe(1);
    bell.realtime.emit(traderChannel, 'notification', notification(2));
    bell.realtime.emit(traderChannel, 'unread', { count: 2 });
    expect(bell.ids()).toEqual([2, 1]);
    expect(selectUnreadCount(bell.snapshot())).toBe(2);
    bell.realtime.emit(traderChannel, 'notification', { ...notification(2), title: 'again' });
    expect(bell.ids()).toEqual([2, 1]);
    expect(selectItems(bell.snapshot())[0]!.title).toBe('again');
  });

  it('drops a realtime payload that is not what the contract says', async () => {
    const bell = await startBell({ first: listOf([notification(1)]) });
    bell.realtime.emit(traderChannel, 'notification', { id: 'x', title: 3 });
    bell.realtime.emit(traderChannel, 'unread', { count: 'many' });
    expect(bell.ids()).toEqual([1]);
    expect(selectUnreadCount(bell.snapshot())).toBe(1);
  });

  it('reads the list again each time the channel is (re)joined, and keeps what arrived meanwhile', async () => {
    const bell = await startBell({ first: listOf([notification(1)]) });
    bell.realtime.accept(traderChannel);
    expect(bell.calls.count('list')).toBe(2);
    // A notification arrives live while that list is on its way; the list was read before it existed.
    bell.realtime.emit(traderChannel, 'notification', notification(3));
    await bell.calls.answer('list', listOf([notification(2), notification(1)]));
    expect(bell.ids()).toEqual([3, 2, 1]);
    expect(selectUnreadCount(bell.snapshot())).toBe(3);

    bell.realtime.reconnect();
    expect(bell.calls.count('list'), 'after a reconnect').toBe(3);
    await bell.calls.answer('list', listOf([notification(4), notification(3), notification(2), notification(1)]));
    expect(bell.ids()).toEqual([4, 3, 2, 1]);
  });

  it('joined while the first list is on its way: asks again, so nothing sent before the join is missed', async () => {
    const bell = await startBell({ first: null });
    bell.realtime.accept(traderChannel);
    expect(bell.calls.count('list')).toBe(2);
    await bell.calls.answer('list', listOf([notification(1)]));
    expect(selectIsLoading(bell.snapshot()), 'the first answer, asked before the join, is dropped').toBe(true);
    expect(bell.ids()).toEqual([]);
    await bell.calls.answer('list', listOf([notification(2), notification(1)]));
    expect(selectIsLoading(bell.snapshot())).toBe(false);
    expect(bell.ids()).toEqual([2, 1]);
  });

  it('a failing later list keeps what shows', async () => {
    const bell = await startBell({ first: listOf([notification(2), notification(1)]) });
    bell.realtime.accept(traderChannel);
    await bell.calls.fail('list');
    expect(bell.ids()).toEqual([2, 1]);
    expect(selectUnreadCount(bell.snapshot())).toBe(2);
  });

  it('does not poll while the channel is live', async () => {
    const bell = await startBell({ first: listOf([]), connection: 'connected' });
    bell.clock.increment(10 * MINUTE);
    expect(bell.calls.count('list')).toBe(1);
  });

  it('reads the list every minute while realtime cannot reach the page, and stops once it can', async () => {
    const bell = await startBell({ first: listOf([]), connection: 'offline' });
    bell.clock.increment(MINUTE - 1);
    expect(bell.calls.count('list')).toBe(1);
    bell.clock.increment(1);
    expect(bell.calls.count('list')).toBe(2);
    await bell.calls.answer('list', listOf([notification(1)]));
    expect(bell.ids()).toEqual([1]);
    bell.clock.increment(MINUTE);
    expect(bell.calls.count('list')).toBe(3);
    await bell.calls.answer('list', listOf([notification(1)]));
    bell.realtime.setState('connected');
    bell.clock.increment(10 * MINUTE);
    expect(bell.calls.count('list')).toBe(3);
  });

  it('stopping the chart (signed out, layout gone) leaves the channel', async () => {
    const bell = await startBell();
    expect(bell.realtime.listeners(traderChannel)).toBe(1);
    bell.actor.stop();
    expect(bell.realtime.listeners(traderChannel)).toBe(0);
  });

  it('mergedList caps the list at 50 and counts only the unread that arrived', () => {
    const list = listOf(Array.from({ length: 50 }, (_, index) => notification(50 - index)));
    const merged = mergedList(list, [notification(52), notification(51, { fresh: false }), notification(50)]);
    expect(merged.items).toHaveLength(50);
    expect(merged.items.slice(0, 3).map((item) => item.id)).toEqual([52, 51, 50]);
    expect(merged.count).toBe(51);
  });
});
