import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor } from 'xstate';
import type { NotificationList } from '../../contracts/index.ts';
import { bindNotifications } from '../../src/machines/notifications/notifications.actors.ts';
import { NotificationsBell } from '../../src/ui/notifications/NotificationsBell.tsx';
import { flush } from '../support/machines.ts';
import { listOf, notification, notificationDeps, trader, traderChannel } from '../support/notifications.ts';

/** The bell as the signed-in layout renders it, on the real chart with the list call and the channel faked. */
async function showBell(first: NotificationList) {
  const harness = notificationDeps();
  const actor = createActor(bindNotifications(harness.deps), { input: { username: trader } }).start();
  render(<NotificationsBell actor={actor} />);
  await act(() => harness.calls.answer('list', first));
  const user = userEvent.setup();
  const bell = () => screen.getByRole('button', { name: /^Notifications/ });
  const openPanel = async () => {
    await user.click(bell());
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    // The popover moves focus into itself a frame after it opens: wait for it, so a key the test presses
    // next lands where the test put the focus, not where the popover moves it later.
    await waitFor(() => expect(panel.contains(document.activeElement)).toBe(true));
    return panel;
  };
  return { ...harness, actor, user, bell, openPanel };
}

const badgeOf = (bell: HTMLElement) => bell.querySelector('[data-part="badge"]');

describe('the bell', () => {
  it('shows no badge when nothing is unread', async () => {
    const { bell } = await showBell(listOf([notification(1, { fresh: false })]));
    expect(bell()).toHaveAccessibleName('Notifications');
    expect(badgeOf(bell())).toBeNull();
  });

  it('shows the count, and says it', async () => {
    const { bell } = await showBell(listOf([notification(2), notification(1)]));
    expect(badgeOf(bell())).toHaveTextContent(/^2$/);
    expect(bell()).toHaveAccessibleName('Notifications, 2 unread');
  });

  it('shows "9+" above nine, while its name says how many', async () => {
    const { bell } = await showBell(listOf([notification(1)], 10));
    expect(badgeOf(bell())).toHaveTextContent(/^9\+$/);
    expect(bell()).toHaveAccessibleName('Notifications, 10 unread');
  });

  it('follows the trader’s channel while the page is open', async () => {
    const { bell, realtime, openPanel } = await showBell(listOf([]));
    act(() => {
      realtime.emit(traderChannel, 'notification', notification(7, { title: 'Payment marked as sent', minutesAgo: 0 }));
      realtime.emit(traderChannel, 'unread', { count: 1 });
    });
    expect(badgeOf(bell())).toHaveTextContent(/^1$/);
    const panel = await openPanel();
    expect(within(panel).getByRole('listitem')).toHaveTextContent('Payment marked as sent');
  });
});

describe('the dropdown', () => {
  it('has the spec’s title and action, and each item’s title, body and relative time', async () => {
    const { openPanel } = await showBell(
      listOf([
        notification(2, { title: 'New trade on your offer', body: 'bob is buying 0.01 BTC.', minutesAgo: 5 }),
        notification(1, { title: 'New sign-in', body: 'Your account was signed in.', minutesAgo: 120, fresh: false }),
      ]),
    );
    const panel = await openPanel();
    expect(within(panel).getByText('Notifications', { exact: true })).toBeVisible();
    expect(within(panel).getByRole('button', { name: 'Mark all read' })).toBeEnabled();
    const [fresh, read] = within(panel).getAllByRole('listitem');
    expect(fresh).toHaveTextContent('New trade on your offer');
    expect(fresh).toHaveTextContent('bob is buying 0.01 BTC.');
    expect(fresh).toHaveTextContent('5 minutes ago');
    expect(read).toHaveTextContent('2 hours ago');
  });

  it('says "just now" for a notification of the last minute, not "0 seconds ago"', async () => {
    const { openPanel } = await showBell(listOf([notification(1, { title: 'New sign-in', minutesAgo: 0 })]));
    const panel = await openPanel();
    const time = within(panel).getByRole('listitem').querySelector('time')!;
    expect(time).toHaveTextContent(/^just now$/);
  });

  it('marks fresh items, for the eye and for screen readers', async () => {
    const { openPanel } = await showBell(listOf([notification(2, { title: 'Fresh one' }), notification(1, { title: 'Old one', fresh: false })]));
    const panel = await openPanel();
    const [fresh, read] = within(panel).getAllByRole('listitem');
    expect(fresh).toHaveAttribute('data-fresh', 'true');
    // Named by everything it shows, so that the visible words are all in its name (WCAG 2.5.3).
    expect(within(fresh!).getByRole('button')).toHaveAccessibleName('Unread: Fresh one Body 2 2 minutes ago');
    expect(read).toHaveAttribute('data-fresh', 'false');
    expect(within(read!).getByRole('button')).toHaveAccessibleName(/^Old one Body 1 /);
  });

  it('says "No notifications yet" when there are none, and "Mark all read" is disabled', async () => {
    const { openPanel } = await showBell(listOf([]));
    const panel = await openPanel();
    expect(within(panel).getByText('No notifications yet')).toBeVisible();
    expect(within(panel).queryByRole('listitem')).toBeNull();
    expect(within(panel).getByRole('button', { name: 'Mark all read' })).toBeDisabled();
  });

  it('"Mark all read" is disabled when every item is read', async () => {
    const { openPanel } = await showBell(listOf([notification(1, { fresh: false })]));
    const panel = await openPanel();
    expect(within(panel).getByRole('button', { name: 'Mark all read' })).toBeDisabled();
  });

  it('"Mark all read" asks the server, and the badge and the marks go', async () => {
    const { openPanel, user, calls, bell } = await showBell(listOf([notification(2), notification(1)]));
    const panel = await openPanel();
    await user.click(within(panel).getByRole('button', { name: 'Mark all read' }));
    expect(calls.count('openAll')).toBe(1);
    await act(() => calls.answer('openAll', 0));
    expect(badgeOf(bell())).toBeNull();
    expect(within(panel).getAllByRole('listitem').map((item) => item.getAttribute('data-fresh'))).toEqual(['false', 'false']);
    expect(within(panel).getByRole('button', { name: 'Mark all read' })).toBeDisabled();
  });

  it('clicking an item opens it: marked read, the panel closes, and its page opens after the list is read again', async () => {
    const { openPanel, user, calls, visited } = await showBell(listOf([notification(3, { title: 'Coins released', link: '/chat?channel=abc' })]));
    const panel = await openPanel();
    await user.click(within(panel).getByRole('button', { name: /Coins released/ }));
    expect(calls.inputs('openOne')).toEqual([3]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Notifications' })).toBeNull());
    await act(() => calls.answer('openOne', 0));
    await act(() => calls.answer('list', listOf([notification(3, { link: '/chat?channel=abc', fresh: false })])));
    expect(visited).toEqual(['/chat?channel=abc']);
  });

  it('Enter on an item opens it', async () => {
    const { openPanel, user, calls } = await showBell(listOf([notification(4, { title: 'Deposit credited' })]));
    const panel = await openPanel();
    within(panel).getByRole('button', { name: /Deposit credited/ }).focus();
    await user.keyboard('{Enter}');
    expect(calls.inputs('openOne')).toEqual([4]);
  });

  it('Escape closes the panel', async () => {
    const { openPanel, user, actor } = await showBell(listOf([notification(1)]));
    await openPanel();
    await user.keyboard('{Escape}');
    await act(flush);
    expect(actor.getSnapshot().hasTag('open')).toBe(false);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Notifications' })).toBeNull());
  });
});
