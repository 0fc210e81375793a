import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor, fromPromise } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import type { LoginResponse, Overview, RecoveryCodesResponse, SessionResponse } from '../../contracts/index.ts';
import { dashboardMachine } from '../../src/machines/dashboard/dashboard.machine.ts';
import { loginLogic } from '../../src/machines/login/login.actors.ts';
import { signupLogic } from '../../src/machines/signup/signup.actors.ts';
import { twoFactorLogic } from '../../src/machines/twoFactor/twoFactor.actors.ts';
import { LoginScreen } from '../../src/ui/auth/LoginScreen.tsx';
import { SecurityScreen } from '../../src/ui/auth/SecurityScreen.tsx';
import { SignupScreen } from '../../src/ui/auth/SignupScreen.tsx';
import { DashboardScreen } from '../../src/ui/dashboard/DashboardScreen.tsx';
import { StatusBadge } from '../../src/ui/primitives/StatusBadge.tsx';
import { ErrorPage, NotFoundPage } from '../../src/ui/shell/StatusPages.tsx';
import { specMessages } from '../support/machines.ts';
import { renderWithRouter } from './render.tsx';

const user = { username: 'erin', email: 'erin@example.test', websocket_token: 'ws' };

/** Login for an account with two-factor on: the password step answers an interim token; `submitCode` answers the second step. */
function twoFactorLogin(submitCode: (input: unknown) => Promise<SessionResponse>) {
  return createActor(
    loginLogic.provide({
      actors: {
        submitCredentials: fromPromise<LoginResponse, { username: string; password: string }>(async () => ({ two_factor: true, token: 'interim', user: { username: 'erin' } })),
        submitCode: fromPromise(async ({ input }: { input: { token: string } & ({ code: string } | { recovery_code: string }) }) => submitCode(input)),
      },
    }),
  ).start();
}

describe('LoginScreen', () => {
  it('asks for the authenticator code when the server wants a second factor; Verify Code needs 6 digits', async () => {
    // The first code is refused, the second accepted.
    const submitCode = vi
      .fn<(input: unknown) => Promise<SessionResponse>>()
      .mockRejectedValueOnce(new Error('Invalid code'))
      .mockResolvedValueOnce({ token: 't', user });
    const actor = twoFactorLogin(submitCode);
    await renderWithRouter(() => <LoginScreen actor={actor} />);
    const typist = userEvent.setup();

    await typist.type(screen.getByLabelText('Username'), 'erin');
    await typist.type(screen.getByLabelText('Password'), 'secret-pass');
    await typist.click(screen.getByRole('button', { name: 'Login' }));

    const verify = await screen.findByRole('button', { name: 'Verify Code' });
    expect(verify).toBeDisabled();
    const field = screen.getByLabelText('Authentication code');
    expect(field).toHaveValue('');
    // Digits only: the letters typed are dropped.
    await typist.type(field, '12a3b45');
    expect(field).toHaveValue('12345');
    expect(verify).toBeDisabled();
    await typist.type(field, '6');
    expect(field).toHaveValue('123456');
    expect(verify).toBeEnabled();
    // At most six.
    await typist.type(field, '7');
    expect(field).toHaveValue('123456');
    await typist.click(verify);
    await waitFor(() => expect(submitCode).toHaveBeenCalledOnce());
    expect(submitCode).toHaveBeenCalledWith({ code: '123456', token: 'interim' });

    // Refused: the code screen again, with an empty field and Verify Code disabled.
    await waitFor(() => expect(screen.getByLabelText('Authentication code')).toHaveValue(''));
    expect(screen.getByRole('button', { name: 'Verify Code' })).toBeDisabled();
    expect(screen.queryByText(specMessages.code)).toBeNull();
    await typist.type(screen.getByLabelText('Authentication code'), '654321');
    await typist.click(screen.getByRole('button', { name: 'Verify Code' }));
    await waitFor(() => expect(actor.getSnapshot().status).toBe('done'));
    expect(submitCode).toHaveBeenCalledTimes(2);
    expect(submitCode).toHaveBeenLastCalledWith({ code: '654321', token: 'interim' });
  });

  it('signs in with a recovery code instead of the authenticator: the link, the field, and back', async () => {
    const submitCode = vi.fn(async (_input: unknown): Promise<SessionResponse> => ({ token: 't', user }));
    const actor = twoFactorLogin(submitCode);
    await renderWithRouter(() => <LoginScreen actor={actor} />);
    const typist = userEvent.setup();
    await typist.type(screen.getByLabelText('Username'), 'erin');
    await typist.type(screen.getByLabelText('Password'), 'secret-pass');
    await typist.click(screen.getByRole('button', { name: 'Login' }));

    await typist.click(await screen.findByRole('button', { name: 'Lost your phone? Use a recovery code' }));
    expect(screen.getByRole('heading', { name: 'Use a recovery code' })).toBeInTheDocument();
    const field = screen.getByLabelText('Recovery code');
    expect(field).toHaveAttribute('name', 'recovery_code');
    const verify = screen.getByRole('button', { name: 'Verify Code' });
    await typist.type(field, 'abcde-fghi');
    expect(verify).toBeDisabled();
    await typist.type(field, 'j');
    expect(verify).toBeEnabled();

    await typist.click(screen.getByRole('button', { name: 'Use the authenticator app instead' }));
    expect(screen.getByLabelText('Authentication code')).toHaveValue('');
    await typist.type(screen.getByLabelText('Authentication code'), '123456');
    expect(screen.getByRole('button', { name: 'Verify Code' })).toBeEnabled();
    await typist.click(screen.getByRole('button', { name: 'Lost your phone? Use a recovery code' }));
    expect(screen.getByLabelText('Recovery code')).toHaveValue('');
    await typist.type(screen.getByLabelText('Recovery code'), 'ABCDE-FGHIJ');
    await typist.click(screen.getByRole('button', { name: 'Verify Code' }));
    await waitFor(() => expect(actor.getSnapshot().status).toBe('done'));
    // Only the recovery code went: the authenticator code typed before was never sent.
    expect(submitCode).toHaveBeenCalledExactlyOnceWith({ recovery_code: 'ABCDE-FGHIJ', token: 'interim' });
  });

  it('shows the required messages when submitted empty, and the password toggle reveals the text', async () => {
    const actor = createActor(loginLogic).start();
    await renderWithRouter(() => <LoginScreen actor={actor} />);
    const typist = userEvent.setup();
    await typist.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Username is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();

    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    await typist.click(screen.getByRole('button', { name: /show or hide password/i }));
    expect(password).toHaveAttribute('type', 'text');
  });
});

describe('SignupScreen', () => {
  it('shows the spec messages on each step', async () => {
    const actor = createActor(
      signupLogic.provide({
        actors: {
          requestCode: fromPromise<string, { email: string }>(async () => 'A verification code has been sent'),
          verifyCode: fromPromise<string, { email: string; code: string }>(async () => 'Email has been verified successfully'),
        },
      }),
    ).start();
    await renderWithRouter(() => <SignupScreen actor={actor} />);
    const typist = userEvent.setup();

    await typist.type(screen.getByLabelText('Email'), 'nope');
    await typist.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();

    await typist.clear(screen.getByLabelText('Email'));
    await typist.type(screen.getByLabelText('Email'), 'erin@example.test');
    await typist.click(screen.getByRole('button', { name: 'Continue' }));
    await typist.type(await screen.findByLabelText('Verification code'), '12a3');
    expect(screen.getByLabelText('Verification code')).toHaveValue('123');
    await typist.click(screen.getByRole('button', { name: 'Verify Email' }));
    expect(await screen.findByText('Please enter a valid 6-digit verification code')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend Code' })).toBeEnabled();
    await typist.click(screen.getByRole('button', { name: 'Back to email entry' }));
    expect(await screen.findByLabelText('Email')).toHaveValue('erin@example.test');
  });
});

describe('SecurityScreen', () => {
  const enrolment = { secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/Peerex:erin?secret=JBSWY3DPEHPK3PXP' };
  const CODES = ['abcde-fghij', 'kmnpq-rstuv', 'wxyz2-34567', '89abc-defgh', 'ijkmn-pqrst', 'uvwxy-z2345', '6789a-bcdef', 'ghijk-mnpqr', 'stuvw-xyz23', '45678-9abcd'];

  /** The security page of an account with two-factor off, whose setup answers `enrolment`; `enable` answers turning it on. */
  const enrolling = (enable: (input: { code: string; password: string }) => Promise<RecoveryCodesResponse>) =>
    createActor(
      twoFactorLogic.provide({
        actors: {
          loadStatus: fromPromise<{ enabled: boolean; recovery_codes_left: number }>(async () => ({ enabled: false, recovery_codes_left: 0 })),
          startSetup: fromPromise(async () => enrolment),
          enable: fromPromise(async ({ input }: { input: { code: string; password: string } }) => enable(input)),
        },
      }),
    ).start();

  it('turning two-factor on: Confirm and enable needs a 6-digit code and the password; the recovery codes show after', async () => {
    const enable = vi.fn(async (_input: { code: string; password: string }): Promise<RecoveryCodesResponse> => ({
      message: 'Two-factor authentication is now on.',
      recovery_codes: CODES,
    }));
    const actor = enrolling(enable);
    await renderWithRouter(() => <SecurityScreen actor={actor} />);
    const typist = userEvent.setup();

    await typist.click(await screen.findByRole('button', { name: 'Enable two-factor' }));
    expect(await screen.findByTestId('totp-secret')).toHaveTextContent(enrolment.secret);
    const confirm = screen.getByRole('button', { name: 'Confirm and enable' });
    const code = screen.getByLabelText('Authentication code');
    const password = screen.getByLabelText('Your password');
    expect(confirm).toBeDisabled();

    // A whole code but no password.
    await typist.type(code, '123456');
    expect(code).toHaveValue('123456');
    expect(confirm).toBeDisabled();
    // The password, but a code one digit short.
    await typist.type(password, 'pw-secret');
    await typist.type(code, '{Backspace}');
    expect(code).toHaveValue('12345');
    expect(confirm).toBeDisabled();
    // Letters are dropped; the sixth digit enables the button.
    await typist.type(code, 'x');
    expect(code).toHaveValue('12345');
    expect(confirm).toBeDisabled();
    await typist.type(code, '7');
    expect(code).toHaveValue('123457');
    expect(confirm).toBeEnabled();
    // Without the password again, disabled again.
    await typist.clear(password);
    expect(confirm).toBeDisabled();
    await typist.type(password, 'pw-secret');
    expect(confirm).toBeEnabled();
    expect(enable).not.toHaveBeenCalled();

    await typist.click(confirm);
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(enable).toHaveBeenCalledExactlyOnceWith({ code: '123457', password: 'pw-secret' });
    expect([...list.querySelectorAll('li')].map((item) => item.textContent)).toEqual(CODES);
    expect(screen.getByText('On')).toBeInTheDocument();
    expect(screen.queryByTestId('totp-secret')).toBeNull();

    await typist.click(screen.getByRole('button', { name: 'I have saved my recovery codes' }));
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
    expect(screen.getByText('10')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Disable two-factor' })).toBeInTheDocument();
  });

  it('a refused enrolment code leaves an empty code field and the password, with the button disabled', async () => {
    const enable = vi.fn(async (_input: { code: string; password: string }): Promise<RecoveryCodesResponse> => {
      throw new Error('Invalid code');
    });
    const actor = enrolling(enable);
    await renderWithRouter(() => <SecurityScreen actor={actor} />);
    const typist = userEvent.setup();

    await typist.click(await screen.findByRole('button', { name: 'Enable two-factor' }));
    await typist.type(await screen.findByLabelText('Authentication code'), '000000');
    await typist.type(screen.getByLabelText('Your password'), 'pw-secret');
    await typist.click(screen.getByRole('button', { name: 'Confirm and enable' }));
    await waitFor(() => expect(enable).toHaveBeenCalledExactlyOnceWith({ code: '000000', password: 'pw-secret' }));

    await waitFor(() => expect(screen.getByLabelText('Authentication code')).toHaveValue(''));
    expect(screen.getByLabelText('Your password')).toHaveValue('pw-secret');
    expect(screen.getByRole('button', { name: 'Confirm and enable' })).toBeDisabled();
    expect(screen.getByTestId('totp-secret')).toHaveTextContent(enrolment.secret);
    expect(screen.queryByText(specMessages.code)).toBeNull();
  });
});

describe('DashboardScreen', () => {
  const overview: Overview = {
    total_balance: '12345.6',
    active_offers: 2,
    completed_trades: 7,
    open_chats: 1,
    recent_trades: [
      {
        id: 1,
        trade_type: 'buy',
        amount_crypto: '0.005',
        status: 'completed',
        created: new Date(Date.now() - 5 * 60_000).toISOString(),
        offer__coin__image: '/coins/btc.svg',
        offer__coin__decimal_places: 8,
        offer__coin__ticker: 'btc',
      },
    ],
  };

  it('greets the trader and shows the four figures and the recent trades', async () => {
    const actor = createActor(
      dashboardMachine.provide({ actors: { loadOverview: fromPromise<Overview | null>(async () => overview) } }),
      { input: { username: 'erin' } },
    ).start();
    await renderWithRouter(() => <DashboardScreen actor={actor} username="erin" />);
    expect(screen.getByRole('heading', { name: 'Welcome back, erin' })).toBeInTheDocument();
    expect(await screen.findByText('$12,345.60')).toBeInTheDocument();
    expect(screen.getByText('Bought')).toBeInTheDocument();
    expect(screen.getByText('0.00500000 BTC')).toBeInTheDocument();
    expect(screen.getByText('5 minutes ago')).toBeInTheDocument();
    expect(screen.getByText('completed')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View All Trades' })).toHaveAttribute('href', '/trades');
  });

  it('shows dashes and "Loading trades…" while the first overview is on its way, never 0s', async () => {
    const actor = createActor(
      dashboardMachine.provide({ actors: { loadOverview: fromPromise<Overview | null>(() => new Promise(() => {})) } }),
      { input: { username: 'erin' } },
    ).start();
    await renderWithRouter(() => <DashboardScreen actor={actor} username="erin" />);
    expect(await screen.findByText('Loading trades…')).toBeInTheDocument();
    expect(screen.getAllByText('—')).toHaveLength(4);
    expect(screen.queryByText('$0.00')).toBeNull();
    expect(screen.queryByText('You have no trades yet.')).toBeNull();
    actor.stop();
  });

  it('shows 0s and "You have no trades yet." when the overview failed (null)', async () => {
    const actor = createActor(
      dashboardMachine.provide({ actors: { loadOverview: fromPromise<Overview | null>(async () => null) } }),
      { input: { username: 'erin' } },
    ).start();
    await renderWithRouter(() => <DashboardScreen actor={actor} username="erin" />);
    expect(await screen.findByText('$0.00')).toBeInTheDocument();
    expect(screen.getAllByText('0')).toHaveLength(3);
    expect(screen.getByText('You have no trades yet.')).toBeInTheDocument();
    for (const [name, href] of [
      ['Create Offer', '/offers/create'],
      ['Browse Offers', '/offers'],
      ['View Wallets', '/wallets'],
      ['Open Chat', '/chat'],
    ]) {
      expect(screen.getByRole('link', { name })).toHaveAttribute('href', href);
    }
  });
});

describe('status pages and badges', () => {
  it('renders no badge for an unknown status', async () => {
    await renderWithRouter(() => (
      <>
        <StatusBadge status="pending" />
        <StatusBadge status="disputed" />
      </>
    ));
    expect(screen.getByText('pending')).toHaveAttribute('data-status', 'pending');
    expect(screen.queryByText('disputed')).toBeNull();
  });

  it('shows the 404 text with a link home, and the render-error heading with the message', async () => {
    await renderWithRouter(() => (
      <>
        <NotFoundPage />
        <ErrorPage error={new Error('boom at render')} />
        <ErrorPage error={{ statusText: 'Service Unavailable' }} />
      </>
    ));
    expect(screen.getByRole('heading', { name: 'Oops! Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go back home' })).toHaveAttribute('href', '/');
    expect(screen.getAllByRole('heading', { name: 'Unexpected Application Error!' })).toHaveLength(2);
    expect(screen.getByText('boom at render')).toBeInTheDocument();
    expect(screen.getByText('Service Unavailable')).toBeInTheDocument();
  });
});
