import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor } from 'xstate';
import { bindPushRegistration } from '../../src/machines/pushRegistration/pushRegistration.actors.ts';
import { bindSession } from '../../src/machines/session/session.actors.ts';
import { selectPushRegistration } from '../../src/machines/session/session.selectors.ts';
import type { AccountService } from '../../src/services/accounts.ts';
import { PushRegistrationFailed, type PushPermission } from '../../src/services/push.ts';
import { SettingsScreen } from '../../src/ui/settings/SettingsScreen.tsx';
import { ProfileMenu } from '../../src/ui/shell/ProfileMenu.tsx';
import { fakePush } from '../support/fakePushService.ts';
import { flush } from '../support/machines.ts';
import { renderWithRouter } from './render.tsx';

/** /settings with this device's push registration bound to a push service the test drives. */
async function showSettings(options: { supported?: boolean; permission?: PushPermission } = {}) {
  const push = fakePush(options);
  const actor = createActor(bindPushRegistration(push.service), { input: { username: 'alice' } }).start();
  await renderWithRouter(() => <SettingsScreen push={actor} />, '/settings');
  await act(flush);
  return { push, actor };
}

const section = () => screen.getByRole('region', { name: 'Notifications' });
const enableButton = () => within(section()).queryByRole('button', { name: 'Enable notifications' });
const settle = (run: () => void) => act(async () => {
  run();
  await flush();
});

describe('Settings: notifications on this device', () => {
  it('permission prompt required: says so and offers the button, which asks and registers', async () => {
    const user = userEvent.setup();
    const { push } = await showSettings({ permission: 'default' });
    expect(within(section()).getByText('Permission prompt required')).toBeInTheDocument();
    expect(within(section()).getByText(/has not been asked yet/)).toBeInTheDocument();

    await user.click(enableButton()!);
    expect(push.spies.requestPermission).toHaveBeenCalledOnce();
    expect(enableButton(), 'no second prompt while the first is open').toBeNull();
    await settle(() => push.prompts[0]!.resolve('granted'));
    expect(within(section()).getByText('Registering this device for notifications...')).toBeInTheDocument();
    await settle(() => push.registrations[0]!.resolve());
    expect(within(section()).getByText('Granted and registered')).toBeInTheDocument();
    expect(enableButton()).toBeNull();
  });

  it('granted and registered: says so, no button', async () => {
    const { push } = await showSettings({ permission: 'granted' });
    await settle(() => push.registrations[0]!.resolve());
    expect(within(section()).getByText('Granted and registered')).toBeInTheDocument();
    expect(within(section()).getByText(/This device receives notifications/)).toBeInTheDocument();
    expect(enableButton()).toBeNull();
  });

  it('granted but not registered: says why in words, and the button retries', async () => {
    const user = userEvent.setup();
    const { push } = await showSettings({ permission: 'granted' });
    await settle(() => push.registrations[0]!.reject(new PushRegistrationFailed('service', new TypeError('Failed to fetch'))));
    expect(within(section()).getByText('Granted but not registered')).toBeInTheDocument();
    expect(within(section()).getByText('Notifications are allowed, but Peerex could not register this device for them just now.')).toBeInTheDocument();
    expect(within(section()).getByText('Check your connection, then try again.')).toBeInTheDocument();
    expect(section()).not.toHaveTextContent('Failed to fetch');

    await user.click(enableButton()!);
    expect(push.spies.requestPermission).not.toHaveBeenCalled();
    expect(push.registrations).toHaveLength(2);
    await settle(() => push.registrations[1]!.resolve());
    expect(within(section()).getByText('Granted and registered')).toBeInTheDocument();
  });

  it('a browser that cannot subscribe here: says so in a trader\'s words, not the browser\'s "permission denied"', async () => {
    const { push } = await showSettings({ permission: 'granted' });
    const refusal = new DOMException('Registration failed - permission denied', 'NotAllowedError');
    await settle(() => push.registrations[0]!.reject(new PushRegistrationFailed('browser', refusal)));
    expect(within(section()).getByText('Granted but not registered')).toBeInTheDocument();
    expect(within(section()).getByText("This browser can't receive push notifications here.")).toBeInTheDocument();
    expect(within(section()).getByText(/Private windows, some browser profiles .* Open Peerex in a regular window/)).toBeInTheDocument();
    expect(section()).not.toHaveTextContent(/permission denied|Registration failed/i);
    expect(within(section()).queryByText('Denied')).toBeNull();
  });

  it('a registration refused because notifications were blocked meanwhile: denied, with how to undo it', async () => {
    const { push } = await showSettings({ permission: 'granted' });
    await settle(() => push.registrations[0]!.reject(new PushRegistrationFailed('denied', new DOMException('Registration failed - permission denied', 'NotAllowedError'))));
    expect(within(section()).getByText('Denied')).toBeInTheDocument();
    expect(within(section()).getByText(/set Notifications to Allow/)).toBeInTheDocument();
    expect(enableButton()).toBeNull();
  });

  it('denied: says how to change it in the browser, no button', async () => {
    await showSettings({ permission: 'denied' });
    expect(within(section()).getByText('Denied')).toBeInTheDocument();
    expect(within(section()).getByText(/site settings .* set Notifications to Allow, and reload the page/)).toBeInTheDocument();
    expect(enableButton()).toBeNull();
  });

  it('unsupported: a quiet sentence, no button, no alert', async () => {
    await showSettings({ supported: false });
    expect(within(section()).getByText(/This browser cannot receive push notifications/)).toBeInTheDocument();
    expect(enableButton()).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('links to the security settings', async () => {
    await showSettings();
    expect(screen.getByRole('link', { name: 'Security settings' })).toHaveAttribute('href', '/settings/security');
  });

  it("shows the session's own registration: signing in registers once, the page adds none", async () => {
    const push = fakePush({ permission: 'granted' });
    const session = createActor(bindSession({ logout: vi.fn() } as unknown as AccountService, undefined, push.service), {
      input: { stored: null },
    }).start();
    session.send({ type: 'session.signedIn', token: 't', user: { username: 'alice', email: 'a@example.com', websocket_token: 'w' } });
    await renderWithRouter(() => <SettingsScreen push={selectPushRegistration(session.getSnapshot())} />, '/settings');
    await settle(() => push.registrations[0]!.resolve());
    expect(within(section()).getByText('Granted and registered')).toBeInTheDocument();
    expect(push.spies.register).toHaveBeenCalledOnce();
  });
});

describe('Profile menu', () => {
  it('has Settings beside Security', async () => {
    const user = userEvent.setup();
    await renderWithRouter(() => <ProfileMenu initial="A" onLogout={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Profile menu' }));
    const items = (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
    expect(items).toEqual(['Deposit', 'Withdraw', 'Settings', 'Security', 'Log out']);
  });
});
