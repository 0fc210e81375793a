import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor, fromPromise } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import type { LoginResponse, Overview, SessionResponse } from '../../contracts/index.ts';
import { dashboardMachine } from '../../src/machines/dashboard/dashboard.machine.ts';
import { loginMachine } from '../../src/machines/login/login.machine.ts';
import { signupMachine } from '../../src/machines/signup/signup.machine.ts';
import { LoginScreen } from '../../src/ui/auth/LoginScreen.tsx';
import { SignupScreen } from '../../src/ui/auth/SignupScreen.tsx';
import { DashboardScreen } from '../../src/ui/dashboard/DashboardScreen.tsx';
import { StatusBadge } from '../../src/ui/primitives/StatusBadge.tsx';
import { ErrorPage, NotFoundPage } from '../../src/ui/shell/StatusPages.tsx';
import { renderWithRouter } from './render.tsx';

const user = { username: 'erin', email: 'erin@example.test', websocket_token: 'ws' };

describe('LoginScreen', () => {
  it('asks for the authenticator code when the server wants a second factor; Verify Code needs 6 characters', async () => {
    const submitCode = vi.fn(async (): Promise<SessionResponse> => ({ token: 't', user }));
    const actor = createActor(
      loginMachine.provide({
        actors: {
          submitCredentials: fromPromise<LoginResponse, { username: string; password: string }>(async () => ({ two_factor: true, token: 'interim', user: { username: 'erin' } })),
          submitCode: fromPromise<SessionResponse, { token: string } & ({ code: string } | { recovery_code: string })>(submitCode),
        },
      }),
    ).start();
    await renderWithRouter(() => <LoginScreen actor={actor} />);
    const typist = userEvent.setup();

    await typist.type(screen.getByLabelText('Username'), 'erin');
    await typist.type(screen.getByLabelText('Password'), 'secret-pass');
    await typist.click(screen.getByRole('button', { name: 'Login' }));

    const verify = await screen.findByRole('button', { name: 'Verify Code' });
    expect(verify).toBeDisabled();
    await typist.type(screen.getByLabelText('Authentication code'), '12345');
    expect(verify).toBeDisabled();
    await typist.type(screen.getByLabelText('Authentication code'), '6');
    expect(verify).toBeEnabled();
    await typist.click(verify);
    await waitFor(() => expect(actor.getSnapshot().status).toBe('done'));
    expect(submitCode).toHaveBeenCalledOnce();
  });

  it('signs in with a recovery code instead of the authenticator: the link, the field, and back', async () => {
    const submitCode = vi.fn(async (_input: unknown): Promise<SessionResponse> => ({ token: 't', user }));
    const actor = createActor(
      loginMachine.provide({
        actors: {
          submitCredentials: fromPromise<LoginResponse, { username: string; password: string }>(async () => ({ two_factor: true, token: 'interim', user: { username: 'erin' } })),
          submitCode: fromPromise(async ({ input }: { input: { token: string } & ({ code: string } | { recovery_code: string }) }) => submitCode(input)),
        },
      }),
    ).start();
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
    expect(screen.getByLabelText('Authentication code')).toBeInTheDocument();
    await typist.click(screen.getByRole('button', { name: 'Lost your phone? Use a recovery code' }));
    expect(screen.getByLabelText('Recovery code')).toHaveValue('');
    await typist.type(screen.getByLabelText('Recovery code'), 'ABCDE-FGHIJ');
    await typist.click(screen.getByRole('button', { name: 'Verify Code' }));
    await waitFor(() => expect(actor.getSnapshot().status).toBe('done'));
    expect(submitCode).toHaveBeenCalledWith({ recovery_code: 'ABCDE-FGHIJ', token: 'interim' });
  });

  it('shows the required messages when submitted empty, and the password toggle reveals the text', async () => {
    const actor = createActor(loginMachine).start();
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
      signupMachine.provide({
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

  it('shows 0s and "You have no trades yet." when the overview failed (null)', async () => {
    const actor = createActor(
      dashboardMachine.provide({ actors: { loadOverview: fromPromise<Overview | null>(async () => null) } }),
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
