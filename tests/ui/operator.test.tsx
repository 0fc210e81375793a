import { RouterProvider, createMemoryHistory, createRootRoute, createRoute, createRouter, isNotFound, isRedirect } from '@tanstack/react-router';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SimulatedClock, createActor } from 'xstate';
import { bindAuditLog } from '../../src/machines/auditLog/auditLog.actors.ts';
import { bindNotifications } from '../../src/machines/notifications/notifications.actors.ts';
import { bindOperatorOverview } from '../../src/machines/operatorOverview/operatorOverview.actors.ts';
import { bindReviewQueue } from '../../src/machines/reviewQueue/reviewQueue.actors.ts';
import { bindTraderDossier } from '../../src/machines/traderDossier/traderDossier.actors.ts';
import { bindTraderSearch } from '../../src/machines/traderSearch/traderSearch.actors.ts';
import { Route as AppRoute } from '../../src/routes/_app.tsx';
import { ConsolePage } from '../../src/routes/_app/operator/-console.tsx';
import { createApi } from '../../src/services/api.ts';
import { AuditLogScreen } from '../../src/ui/operator/AuditLogScreen.tsx';
import { OverviewScreen } from '../../src/ui/operator/OverviewScreen.tsx';
import { ReviewQueueScreen } from '../../src/ui/operator/ReviewQueueScreen.tsx';
import { TraderDossierScreen } from '../../src/ui/operator/TraderDossierScreen.tsx';
import { TraderSearchScreen } from '../../src/ui/operator/TraderSearchScreen.tsx';
import { SignedInNav } from '../../src/ui/shell/TopNav.tsx';
import { notificationDeps, trader } from '../support/notifications.ts';
import {
  GENERATED_AT,
  auditEntry,
  auditPageOf,
  operatorDeps,
  operatorOverview,
  refusal,
  reviewQueueOf,
  reviewedWithdrawal,
  suspendedDossier,
  traderDossier,
  traderPage,
  traderRow,
} from '../support/operator.ts';
import { renderWithRouter } from './render.tsx';

beforeEach(() => vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(GENERATED_AT) }));
afterEach(() => vi.useRealTimers());

type Role = 'trader' | 'moderator' | 'operator' | undefined;

/** The signed-in layout's guard, for a session of `role`, on `pathname`: what it throws, or undefined. */
async function guarded(role: Role, pathname: string) {
  const snapshot = {
    matches: (state: string) => state === 'signedIn',
    context: { user: { username: 'ops', email: 'ops@peerex.test', websocket_token: 't', role } },
  };
  const session = { getSnapshot: () => snapshot, subscribe: () => ({ unsubscribe: () => {} }) };
  try {
    await (AppRoute.options.beforeLoad as (options: unknown) => Promise<unknown>)({ context: { session }, location: { pathname, href: pathname } });
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('who reaches the console', () => {
  it.each([
    ['a trader', 'trader', '/operator'],
    ['a moderator', 'moderator', '/operator/reviews'],
    ['a session stored before roles', undefined, '/operator/traders/bob'],
  ] as const)('is not found for %s (%s)', async (_, role, path) => {
    expect(isNotFound(await guarded(role, path))).toBe(true);
  });

  it('opens for an operator', async () => {
    expect(await guarded('operator', '/operator/audit')).toBeUndefined();
  });

  it('an operator signing in lands on /operator, not the dashboard whose calls refuse them; a trader stays', async () => {
    const sent = (await guarded('operator', '/')) as { options: { to: string; replace: boolean } };
    expect(isRedirect(sent)).toBe(true);
    expect(sent.options).toMatchObject({ href: '/operator', replace: true });
    expect(await guarded('trader', '/')).toBeUndefined();
    expect(await guarded('operator', '/settings/security'), 'their own settings stay theirs').toBeUndefined();
  });

  it.each(['/wallets', '/wallets/withdraw', '/offers/create', '/trades', '/chat', '/moderation', '/traders/bob'])(
    'an operator typing a trading address (%s) lands on the console; a trader does not',
    async (path) => {
      const sent = (await guarded('operator', path)) as { options: { href: string } };
      expect(isRedirect(sent)).toBe(true);
      expect(sent.options).toMatchObject({ href: '/operator', replace: true });
      expect(await guarded('trader', path)).toBeUndefined();
    },
  );
});

describe('the console’s pages, one route', () => {
  /** The console's route at `url`, its calls never answered (each page shows its loading state). */
  async function consoleAt(url: string) {
    const api = createApi({ baseUrl: 'http://peerex.test/api/', getToken: () => 't', onSessionExpired: () => {}, onError: () => {}, fetch: () => new Promise(() => {}) });
    const deps = { ...operatorDeps().deps, api };
    const root = createRootRoute({ notFoundComponent: () => <p>Page not found</p> });
    const page = createRoute({ getParentRoute: () => root, path: '/operator/{-$section}/{-$username}', component: ConsolePage });
    const router = createRouter({ routeTree: root.addChildren([page]), history: createMemoryHistory({ initialEntries: [url] }), context: { deps } as never });
    await act(async () => {
      render(<RouterProvider router={router} />);
      await router.load();
    });
  }

  it.each([
    ['/operator', 'Overview'],
    ['/operator/traders', 'Traders'],
    ['/operator/reviews', 'Withdrawal review'],
    ['/operator/audit', 'Audit log'],
  ])('%s is the page "%s"', async (url, title) => {
    await consoleAt(url);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
  });

  it('/operator/traders/bob is bob’s page', async () => {
    await consoleAt('/operator/traders/bob');
    expect(await screen.findByRole('status', { name: 'Loading the trader' })).toBeInTheDocument();
  });

  it.each(['/operator/wallets', '/operator/reviews/7', '/operator/audit/ops'])('%s is not found', async (url) => {
    await consoleAt(url);
    expect(await screen.findByText('Page not found')).toBeInTheDocument();
  });
});

describe('the signed-in bar of an operator', () => {
  it('shows the console’s links instead of the trading ones, and keeps the bell and the account menu without wallets', async () => {
    const notifications = createActor(bindNotifications(notificationDeps().deps), { input: { username: trader } }).start();
    await renderWithRouter(() => <SignedInNav initial="O" role="operator" notifications={notifications} onLogout={() => {}} />);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Peerex', expect.any(String)],
      ['Overview', '/operator'],
      ['Traders', '/operator/traders'],
      ['Reviews', '/operator/reviews'],
      ['Audit log', '/operator/audit'],
    ]);
    expect(screen.queryByRole('link', { name: 'Offers' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Chat' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /notifications/i })).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Profile menu' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Settings', 'Security', 'Log out']);
    notifications.stop();
  });
});

describe('/operator, the overview', () => {
  async function overview() {
    const harness = operatorDeps();
    const actor = createActor(bindOperatorOverview(harness.deps, harness.operator), { clock: new SimulatedClock() }).start();
    await renderWithRouter(() => <OverviewScreen actor={actor} />, '/operator');
    return { ...harness, actor };
  }

  it('shows a spinner, then the numbers; a network short of what it owes is in red and said at the top', async () => {
    const { calls } = await overview();
    expect(screen.getByRole('status', { name: 'Loading the overview' })).toBeInTheDocument();
    await act(() => calls.answer('overview', operatorOverview()));
    expect(within(screen.getByRole('group', { name: 'Traders' })).getByText('1,284')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Disputes' })).getByText('Oldest waiting 2 h 14 min')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Reviews' })).getByRole('link', { name: 'Open the review queue' })).toHaveAttribute(
      'href',
      '/operator/reviews',
    );
    expect(screen.getByRole('alert')).toHaveTextContent('A network holds less than the ledger owes its traders');
    const ethereum = screen.getByRole('group', { name: 'Ethereum' });
    const short = ethereum.querySelector('tr[data-shortfall="true"]');
    expect(short).toHaveTextContent('-0.500000000000000000 ETH (shortfall)');
    expect(within(ethereum).getByText('1 open incident')).toBeInTheDocument();
    expect(within(ethereum).getByText('Not read yet')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Bitcoin' })).getByText('Lag 2 blocks')).toBeInTheDocument();
  });

  it('a failed first read offers "Try again"', async () => {
    const { calls } = await overview();
    await act(() => calls.fail('overview'));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(calls.waiting('overview')).toBe(1);
  });
});

describe('/operator/traders', () => {
  it('searches on Enter, lists each trader linking to their page, and says when nobody matches', async () => {
    const harness = operatorDeps();
    const actor = createActor(bindTraderSearch(harness.deps, harness.operator), { input: { query: '' } }).start();
    await renderWithRouter(() => <TraderSearchScreen actor={actor} />, '/operator/traders');
    await act(() => harness.calls.answer('searchTraders', traderPage(1, 1, [traderRow('alice'), traderRow('bob', { suspended: true })])));
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual(['alice', 'bob']);
    expect(within(rows[0]!).getByRole('link', { name: 'alice' })).toHaveAttribute('href', '/operator/traders/alice');
    expect(within(rows[1]!).getByText('Suspended')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByRole('searchbox', { name: 'Username or email' }), 'zed{Enter}');
    expect(harness.calls.inputs('searchTraders').at(-1)).toEqual({ query: 'zed', page: 1 });
    await act(() => harness.calls.answer('searchTraders', traderPage(1, 1, [])));
    expect(screen.getByText('No trader matches “zed”.')).toBeInTheDocument();
  });
});

describe('/operator/traders/$username', () => {
  async function dossier(page = traderDossier()) {
    const harness = operatorDeps();
    const actor = createActor(bindTraderDossier(harness.deps, harness.operator), { input: { username: page.username } }).start();
    await renderWithRouter(() => <TraderDossierScreen actor={actor} />, '/operator/traders/bob');
    await act(() => harness.calls.answer('trader', page));
    return { ...harness, actor, user: userEvent.setup() };
  }

  it('shows balances, trades, sign-ins, devices and notes', async () => {
    await dossier();
    expect(screen.getByRole('heading', { name: 'bob' })).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Balances' })).getByText('0.41230000 BTC')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Trades' })).getByText('alice')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Sign-ins' })).getByText('203.0.113.7')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Devices' })).getByText('Chrome on Linux (desktop)')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Notes, oldest first' })).getByText('Asked for ID by mail.')).toBeInTheDocument();
  });

  it('a suspended trader shows the banner with the reason, by whom and when, and "Reinstate" instead of "Suspend"', async () => {
    await dossier(suspendedDossier());
    const banner = document.querySelector('[data-suspension]')!;
    expect(banner).toHaveTextContent('Suspended by ops on Mar 05, 2026');
    expect(banner).toHaveTextContent('Stolen bank accounts');
    const actions = within(screen.getByRole('group', { name: 'Staff actions' })).getAllByRole('button').map((button) => button.textContent);
    expect(actions).toEqual(['Reinstate', 'Force password reset', 'End sessions']);
  });

  it('suspending: the reason, the confirmation with the reason as written, then the server’s sentence and the page read again', async () => {
    const { user, calls } = await dossier();
    await user.click(screen.getByRole('button', { name: 'Suspend' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend this trader' });
    expect(within(dialog).getByRole('button', { name: 'Continue' })).toBeDisabled();
    expect(within(dialog).getByText('Please write the reason')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Stolen bank accounts');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(within(dialog).getByText('Stolen bank accounts')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect(within(dialog).getByRole('button', { name: 'Please wait...' })).toBeDisabled();
    await act(() => calls.answer('act', 'bob is suspended: signed out everywhere.'));
    expect(within(dialog).getByRole('status')).toHaveTextContent('bob is suspended: signed out everywhere.');
    await act(() => calls.answer('trader', suspendedDossier()));
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Reinstate' })).toBeEnabled();
  });

  it('a refused action shows the server’s sentence in the dialog, with "Try again"', async () => {
    const { user, calls } = await dossier();
    await user.click(screen.getByRole('button', { name: 'End sessions' }));
    const dialog = await screen.findByRole('dialog', { name: 'End their sessions' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Lost phone');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await user.click(within(dialog).getByRole('button', { name: 'End sessions' }));
    await act(() => calls.fail('act', refusal(403, 'Only operators can use the operator console.')));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Only operators can use the operator console.');
    expect(within(dialog).getByRole('button', { name: 'Try again' })).toBeEnabled();
  });

  it('a note is added and the form clears; a blank one is not sent', async () => {
    const { user, calls, notices } = await dossier();
    const add = screen.getByRole('button', { name: 'Add note' });
    expect(add).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'Add a note' }), 'Called them');
    await user.click(add);
    expect(calls.inputs('addNote')).toEqual([{ username: 'bob', text: 'Called them' }]);
    await act(() => calls.answer('addNote', 'Note added.'));
    expect(screen.getByRole('textbox', { name: 'Add a note' })).toHaveValue('');
    expect(notices).toEqual([{ title: 'Note added.', type: 'success' }]);
  });

  it('a name nobody has says so', async () => {
    const harness = operatorDeps();
    const actor = createActor(bindTraderDossier(harness.deps, harness.operator), { input: { username: 'nobody' } }).start();
    await renderWithRouter(() => <TraderDossierScreen actor={actor} />, '/operator/traders/nobody');
    await act(() => harness.calls.fail('trader', refusal(404, 'This trader does not exist.')));
    expect(screen.getByRole('alert')).toHaveTextContent('No trader by that name.');
  });
});

describe('/operator/reviews', () => {
  async function queue() {
    const harness = operatorDeps();
    const actor = createActor(bindReviewQueue(harness.deps, harness.operator)).start();
    await renderWithRouter(() => <ReviewQueueScreen actor={actor} />, '/operator/reviews');
    await act(() => harness.calls.answer('reviewQueue', reviewQueueOf(reviewedWithdrawal(7), reviewedWithdrawal(8, { username: 'erin' }))));
    return { ...harness, actor, user: userEvent.setup() };
  }

  it('lists the queue with the threshold; approving asks first, then a toast and the queue read again', async () => {
    const { user, calls, notices } = await queue();
    expect(screen.getByText(/Withdrawals of \$10,000\.00 or more/)).toBeInTheDocument();
    const row = document.querySelector('tr[data-withdrawal="7"]') as HTMLElement;
    expect(row).toHaveTextContent('12,000.000000 USDT');
    await user.click(within(row).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve this withdrawal' });
    expect(within(dialog).getByText('0x9f8b3c1a4e2d7b6c5a4f3e2d1c0b9a8f7e6d5c4b')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(calls.inputs('decide')).toEqual([{ id: 7, decision: 'approve', reason: '' }]);
    await act(() => calls.answer('decide', 'Withdrawal approved: on its way.'));
    expect(notices).toEqual([{ title: 'Withdrawal approved: on its way.', type: 'success' }]);
    expect(calls.waiting('reviewQueue')).toBe(1);
  });

  it('rejecting needs a reason; a decision made first elsewhere closes the dialog and says so', async () => {
    const { user, calls } = await queue();
    const row = document.querySelector('tr[data-withdrawal="8"]') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject this withdrawal' });
    expect(within(dialog).getByRole('button', { name: 'Reject' })).toBeDisabled();
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Known mixer');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(calls.inputs('decide')).toEqual([{ id: 8, decision: 'reject', reason: 'Known mixer' }]);
    await act(() => calls.fail('decide', refusal(409, 'This withdrawal was already decided.')));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('status')).toHaveTextContent('Another operator decided this withdrawal first');
    await act(() => calls.answer('reviewQueue', reviewQueueOf()));
    expect(screen.getByText('Nothing waits for review.')).toBeInTheDocument();
  });
});

describe('/operator/audit', () => {
  async function audit() {
    const harness = operatorDeps();
    const saved: string[] = [];
    const actor = createActor(bindAuditLog(harness.deps, harness.operator, (_file, name) => void saved.push(name))).start();
    await renderWithRouter(() => <AuditLogScreen actor={actor} />, '/operator/audit');
    await act(() =>
      harness.calls.answer('audit', auditPageOf(1, 2, [auditEntry(2), auditEntry(1, { actor: 'command line', action: 'role_changed', target: 'mia', reason: null, before: { role: 'trader' }, after: { role: 'moderator' } })])),
    );
    return { ...harness, actor, saved, user: userEvent.setup() };
  }

  it('lists who did what to whom and why, with the change; filters apply from the first page', async () => {
    const { user, calls } = await audit();
    const entry = document.querySelector('tr[data-entry="1"]') as HTMLElement;
    expect(entry).toHaveTextContent('command line');
    expect(entry).toHaveTextContent('Role changed');
    expect(entry).toHaveTextContent('role: trader → moderator');
    await user.type(screen.getByRole('textbox', { name: 'Who acted' }), 'ops');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(calls.inputs('audit').at(-1)).toEqual({ page: 1, filters: { actor: 'ops' } });
    await act(() => calls.answer('audit', auditPageOf(1, 1, [])));
    expect(screen.getByText('No entry matches these filters.')).toBeInTheDocument();
  });

  it('the exports download as files; a refused one says why beside the buttons', async () => {
    const { user, calls, saved } = await audit();
    await user.click(screen.getByRole('button', { name: 'Export audit log (CSV)' }));
    expect(screen.getByRole('button', { name: 'Preparing…' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export fee income (CSV)' })).toBeDisabled();
    await act(() => calls.answer('download', { blob: new Blob(['id\n']), name: 'audit.csv' }));
    expect(saved).toEqual(['audit-log.csv']);
    await user.click(screen.getByRole('button', { name: 'Export fee income (CSV)' }));
    await act(() => calls.fail('download', refusal(400, 'since must be a date (YYYY-MM-DD)')));
    expect(screen.getByRole('alert')).toHaveTextContent('The export failed: since must be a date (YYYY-MM-DD)');
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
