import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor, fromPromise } from 'xstate';
import type { AllowlistEntry, AllowlistStatus, AntiPhishingStatus, SignInEntry } from '../../contracts/account-protections.ts';
import { antiPhishingLogic } from '../../src/machines/antiPhishing/antiPhishing.actors.ts';
import { confirmedBy } from '../../src/machines/passwordConfirm/passwordConfirm.actors.ts';
import { signInHistoryMachine } from '../../src/machines/signInHistory/signInHistory.machine.ts';
import { withdrawalAllowlistLogic } from '../../src/machines/withdrawalAllowlist/withdrawalAllowlist.actors.ts';
import { AntiPhishingCard } from '../../src/ui/security/AntiPhishingCard.tsx';
import { SignInHistoryCard } from '../../src/ui/security/SignInHistoryCard.tsx';
import { WithdrawalAllowlistCard } from '../../src/ui/security/WithdrawalAllowlistCard.tsx';
import { renderWithRouter } from './render.tsx';

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

describe('SignInHistoryCard', () => {
  // Signed in seconds ago: "just now", not "0 seconds ago".
  const mine: SignInEntry = { id: 3, created: hoursAgo(0.005), last_used: hoursAgo(0), device: 'Chrome on Linux (desktop)', ip: '203.0.113.7', current: true, active: true };
  const phone: SignInEntry = { id: 2, created: hoursAgo(5), last_used: hoursAgo(2), device: 'Safari on iOS (phone)', ip: '', current: false, active: true };
  const old: SignInEntry = { id: 1, created: hoursAgo(48), last_used: hoursAgo(47), device: '', ip: '198.51.100.2', current: false, active: false };

  it('lists each sign-in with its time, device and address; "This is you"; signing out the others after a confirmation', async () => {
    const lists = [{ sessions: [mine, phone, old] }, { sessions: [mine, { ...phone, active: false }, old] }];
    const signOutOthers = vi.fn(async () => ({ message: 'Signed out 1 other session.', signed_out: 1 }));
    const actor = createActor(
      signInHistoryMachine.provide({
        actors: { loadHistory: fromPromise(async () => lists.shift()!), signOutOthers: fromPromise(signOutOthers) },
      }),
    ).start();
    await renderWithRouter(() => <SignInHistoryCard actor={actor} />);
    const typist = userEvent.setup();

    const rows = within(await screen.findByRole('list', { name: 'Sign-ins' })).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      'Chrome on Linux (desktop)just now · 203.0.113.7This is youActive',
      'Safari on iOS (phone)5 hours ago · unknown addressActive',
      'Unknown device2 days ago · 198.51.100.2Signed out',
    ]);
    // The exact time on hover.
    const time = rows[0]!.querySelector('time')!;
    expect(time.getAttribute('datetime')).toBe(mine.created);
    expect(time.getAttribute('title')).toMatch(/\d{4}/);

    await typist.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Sign out everywhere else?' });
    expect(signOutOthers).not.toHaveBeenCalled();
    await typist.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(signOutOthers).not.toHaveBeenCalled();

    await typist.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    await typist.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Sign out everywhere else' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Signed out 1 other session.');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(screen.getAllByText('Signed out')).toHaveLength(2));
    expect(signOutOthers).toHaveBeenCalledTimes(1);
    // Nobody else is signed in now: nothing left to sign out.
    expect(screen.getByRole('button', { name: 'Sign out everywhere else' })).toBeDisabled();
  });
});

describe('AntiPhishingCard', () => {
  it('explains the code, shows none, sets one with the password, then shows it', async () => {
    const setCode = vi.fn(
      async ({ input }: { input: { anti_phishing_code: string; password: string } }): Promise<AntiPhishingStatus> => ({ anti_phishing_code: input.anti_phishing_code }),
    );
    const actor = createActor(
      antiPhishingLogic.provide({
        actors: { loadStatus: fromPromise(async (): Promise<AntiPhishingStatus> => ({ anti_phishing_code: null })), setCode: fromPromise(setCode) },
      }),
    ).start();
    await renderWithRouter(() => <AntiPhishingCard actor={actor} />);
    const typist = userEvent.setup();

    expect(screen.getByText('Every mail from Peerex will show this code. A mail without it is not from us.')).toBeInTheDocument();
    expect(await screen.findByText('No code set')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove code' })).toBeNull();
    await typist.click(screen.getByRole('button', { name: 'Set a code' }));
    const save = screen.getByRole('button', { name: 'Save code' });
    await typist.type(screen.getByLabelText('New anti-phishing code'), 'abcd<');
    expect(screen.getByText('Your anti-phishing code may use letters, digits, spaces, - and _ only')).toBeInTheDocument();
    await typist.type(screen.getByLabelText('Your password'), 'pw-secret');
    expect(save).toBeDisabled();
    await typist.clear(screen.getByLabelText('New anti-phishing code'));
    await typist.type(screen.getByLabelText('New anti-phishing code'), 'Blue falcon');
    expect(save).toBeEnabled();
    await typist.click(save);

    expect(await screen.findByTestId('anti-phishing-code')).toHaveTextContent('Blue falcon');
    expect(setCode.mock.calls[0]![0].input).toEqual({ anti_phishing_code: 'Blue falcon', password: 'pw-secret' });
    expect(screen.getByRole('button', { name: 'Change code' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove code' })).toBeInTheDocument();
  });

  it('removes the code with the password; a cancelled removal keeps it', async () => {
    const clearCode = vi.fn(async (_input: { password: string }): Promise<AntiPhishingStatus> => ({ anti_phishing_code: null }));
    const actor = createActor(
      antiPhishingLogic.provide({
        actors: {
          loadStatus: fromPromise(async (): Promise<AntiPhishingStatus> => ({ anti_phishing_code: 'Blue falcon' })),
          confirmClear: confirmedBy(clearCode),
        },
      }),
    ).start();
    await renderWithRouter(() => <AntiPhishingCard actor={actor} />);
    const typist = userEvent.setup();

    await typist.click(await screen.findByRole('button', { name: 'Remove code' }));
    expect(screen.getByText('Enter your password to remove the code. Mails from Peerex will then carry no code.')).toBeInTheDocument();
    await typist.type(screen.getByLabelText('Your password'), 'pw-secret');
    await typist.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByTestId('anti-phishing-code')).toHaveTextContent('Blue falcon');
    expect(clearCode).not.toHaveBeenCalled();

    await typist.click(screen.getByRole('button', { name: 'Remove code' }));
    const remove = within(screen.getByRole('region')).getAllByRole('button', { name: 'Remove code' }).at(-1)!;
    expect(remove).toBeDisabled();
    expect(screen.getByLabelText('Your password')).toHaveValue('');
    await typist.type(screen.getByLabelText('Your password'), 'pw-secret');
    await typist.click(remove);
    expect(await screen.findByText('No code set')).toBeInTheDocument();
    expect(clearCode).toHaveBeenCalledWith({ password: 'pw-secret' });
  });
});

describe('WithdrawalAllowlistCard', () => {
  const waiting: AllowlistEntry = { id: 4, network: 'tron', address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', label: 'cold', created: hoursAgo(1), usable_from: inHours(23) };
  const usable: AllowlistEntry = { id: 3, network: 'bitcoin', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', label: '', created: hoursAgo(48), usable_from: hoursAgo(24) };

  function allowlist(status: AllowlistStatus, calls: Partial<Record<'enable' | 'disable' | 'addAddress' | 'removeAddress', (input: never) => Promise<AllowlistStatus>>> = {}) {
    const { disable, ...others } = calls;
    return createActor(
      withdrawalAllowlistLogic.provide({
        actors: {
          loadStatus: fromPromise(async () => status),
          ...(Object.fromEntries(Object.entries(others).map(([id, call]) => [id, fromPromise(({ input }) => call(input as never))])) as Record<string, never>),
          ...(disable ? { confirmDisable: confirmedBy((input) => disable(input as never)) } : {}),
        },
      }),
    ).start();
  }

  it('the switch turns it on at once; the list shows each address, and "usable from" while it waits', async () => {
    const enable = vi.fn(async () => ({ enabled: true, enforced_until: null, addresses: [waiting, usable], networks: ['bitcoin', 'ethereum', 'tron', 'litecoin'] }));
    const actor = allowlist({ enabled: false, enforced_until: null, addresses: [waiting, usable], networks: ['bitcoin', 'ethereum', 'tron', 'litecoin'] }, { enable });
    await renderWithRouter(() => <WithdrawalAllowlistCard actor={actor} />);
    const typist = userEvent.setup();

    const toggle = await screen.findByRole('checkbox', { name: 'Only allow withdrawals to saved addresses' });
    expect(toggle).not.toBeChecked();
    const rows = within(screen.getByRole('list', { name: 'Saved addresses' })).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('Tron · cold');
    expect(rows[0]).toHaveTextContent(waiting.address);
    expect(rows[0]).toHaveTextContent(/usable from/);
    expect(rows[1]).toHaveTextContent('Bitcoin');
    expect(rows[1]).not.toHaveTextContent(/usable from/);

    await typist.click(toggle);
    await waitFor(() => expect(toggle).toBeChecked());
    expect(enable).toHaveBeenCalledTimes(1);
    expect(screen.queryByLabelText('Your password')).toBeNull();
  });

  it('turning it off asks for the password and shows until when it stays enforced', async () => {
    const until = inHours(24);
    const disable = vi.fn(async () => ({ enabled: false, enforced_until: until, addresses: [], networks: ['bitcoin', 'ethereum', 'tron', 'litecoin'] }));
    const actor = allowlist({ enabled: true, enforced_until: null, addresses: [], networks: ['bitcoin', 'ethereum', 'tron', 'litecoin'] }, { disable });
    await renderWithRouter(() => <WithdrawalAllowlistCard actor={actor} />);
    const typist = userEvent.setup();

    await typist.click(await screen.findByRole('checkbox', { name: 'Only allow withdrawals to saved addresses' }));
    expect(screen.getByText(/It stays enforced for 24 hours more/)).toBeInTheDocument();
    const turnOff = screen.getByRole('button', { name: 'Turn off' });
    expect(turnOff).toBeDisabled();
    await typist.type(screen.getByLabelText('Your password'), 'pw-secret');
    await typist.click(turnOff);
    expect(await screen.findByTestId('allowlist-enforced-until')).toHaveTextContent(/still enforced until/);
    expect(disable).toHaveBeenCalledWith({ password: 'pw-secret' });
    expect(screen.getByRole('checkbox', { name: 'Only allow withdrawals to saved addresses' })).not.toBeChecked();
  });

  it('adds an address on a chosen network with a label and the password, and removes one', async () => {
    const added = { ...waiting, id: 9 };
    const addAddress = vi.fn(async () => ({ enabled: true, enforced_until: null, addresses: [added], networks: ['bitcoin', 'ethereum', 'tron', 'litecoin'] }));
    const removeAddress = vi.fn(async () => ({ enabled: true, enforced_until: null, addresses: [], networks: ['bitcoin', 'ethereum', 'tron', 'litecoin'] }));
    const actor = allowlist({ enabled: true, enforced_until: null, addresses: [], networks: ['bitcoin', 'ethereum', 'tron', 'litecoin'] }, { addAddress, removeAddress });
    await renderWithRouter(() => <WithdrawalAllowlistCard actor={actor} />);
    const typist = userEvent.setup();

    expect(await screen.findByText('No saved addresses yet.')).toBeInTheDocument();
    await typist.click(screen.getByRole('button', { name: 'Add address' }));
    await typist.click(screen.getByRole('combobox', { name: 'Network' }));
    await typist.click(await screen.findByRole('option', { name: 'Tron' }));
    await typist.type(screen.getByLabelText('Address'), waiting.address);
    await typist.type(screen.getByLabelText('Label (optional)'), 'cold');
    const save = screen.getByRole('button', { name: 'Save address' });
    expect(save).toBeDisabled();
    await typist.type(screen.getByLabelText('Your password'), 'pw-secret');
    await typist.click(save);
    const row = await screen.findByRole('listitem');
    expect(row).toHaveTextContent('Tron · cold');
    expect(addAddress).toHaveBeenCalledWith({ network: 'tron', address: waiting.address, label: 'cold', password: 'pw-secret' });

    await typist.click(within(row).getByRole('button', { name: `Remove ${waiting.address}` }));
    expect(await screen.findByText('No saved addresses yet.')).toBeInTheDocument();
    expect(removeAddress).toHaveBeenCalledWith({ id: 9 });
  });
});
