import { isNotFound } from '@tanstack/react-router';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SimulatedClock, createActor } from 'xstate';
import type { DisputeDetail, DisputeSummary } from '../../contracts/moderation.ts';
import { bindModerationDesk } from '../../src/machines/moderationDesk/moderationDesk.actors.ts';
import { bindNotifications } from '../../src/machines/notifications/notifications.actors.ts';
import { Route as ModerationRoute } from '../../src/routes/_app/moderation.tsx';
import { ApiError } from '../../src/services/api.ts';
import { ModerationScreen } from '../../src/ui/moderation/ModerationScreen.tsx';
import { SignedInNav } from '../../src/ui/shell/TopNav.tsx';
import { notificationDeps, trader } from '../support/notifications.ts';
import { RAISED_AT, disputeDetail, disputeSummary, moderationDeps, moderationMessage } from '../support/moderation.ts';
import { renderWithRouter } from './render.tsx';

const MINUTE = 60_000;
const NOW = Date.parse(RAISED_AT) + (2 * 60 + 14) * MINUTE;

beforeEach(() => vi.useFakeTimers({ toFake: ['Date'], now: NOW }));
afterEach(() => vi.useRealTimers());

/** The bar as the signed-in layout draws it, for a moderator or not. */
async function showBar(moderator: boolean) {
  const notifications = createActor(bindNotifications(notificationDeps().deps), { input: { username: trader } }).start();
  return renderWithRouter(() => <SignedInNav initial="M" role={moderator ? 'moderator' : 'trader'} notifications={notifications} onLogout={() => {}} />);
}

describe('the Disputes link', () => {
  it('is not in a trader’s bar', async () => {
    await showBar(false);
    expect(screen.getByRole('link', { name: 'Chat' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Disputes' })).not.toBeInTheDocument();
  });

  it('is in a moderator’s bar, and in the phone menu', async () => {
    await showBar(true);
    expect(screen.getByRole('link', { name: 'Disputes' })).toHaveAttribute('href', '/moderation');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Toggle navigation menu' }));
    expect(screen.getAllByRole('link', { name: 'Disputes' })).toHaveLength(2);
  });
});

describe('/moderation for someone who is not a moderator', () => {
  const beforeLoad = (role: 'trader' | 'moderator' | undefined) => () =>
    (ModerationRoute.options.beforeLoad as (options: unknown) => void)({
      context: { session: { getSnapshot: () => ({ context: { user: { username: 'ada', email: 'a@x.test', websocket_token: 't', role } } }) } },
    });

  it.each([['a trader', 'trader'], ['a session stored before roles', undefined]] as const)('is not found for %s', (_, role) => {
    let thrown: unknown;
    try {
      beforeLoad(role)();
    } catch (error) {
      thrown = error;
    }
    expect(isNotFound(thrown)).toBe(true);
  });

  it('opens for a moderator', () => {
    expect(beforeLoad('moderator')).not.toThrow();
  });
});

/** The desk over the real chart and fake services; `open` selects a dispute (as a click would) and answers its read. */
async function desk({ list = [disputeSummary(1), disputeSummary(2)], open }: { list?: DisputeSummary[] | null; open?: DisputeDetail } = {}) {
  const harness = moderationDeps();
  const actor = createActor(bindModerationDesk(harness.deps), { input: { channel: null }, clock: new SimulatedClock() }).start();
  const onSelect = vi.fn((channel: string) => actor.send({ type: 'dispute.select', channel }));
  const onBack = vi.fn(() => actor.send({ type: 'dispute.close' }));
  render(<ModerationScreen actor={actor} onSelect={onSelect} onBack={onBack} />);
  if (list) await act(() => harness.calls.answer('list', list));
  if (open) {
    await act(async () => actor.send({ type: 'dispute.select', channel: open.channel }));
    await act(() => harness.calls.answer('get', open));
  }
  return { ...harness, actor, onSelect, onBack, user: userEvent.setup() };
}

const rows = () => within(screen.getByRole('list', { name: 'Disputes' })).getAllByRole('listitem');
const messages = () => within(screen.getByRole('list', { name: 'Messages' })).getAllByRole('listitem');

describe('the list', () => {
  it('shows each dispute: buyer and seller by name, both amounts, who raised it, the reason and the wait', async () => {
    await desk({ list: [disputeSummary(1, { reason: `${'r'.repeat(95)}` })] });
    const [row] = rows();
    expect(row).toHaveTextContent('Buyer alice · Seller bob');
    expect(row).toHaveTextContent('0.01500000 BTC · 975.00 USD');
    expect(row).toHaveTextContent('Raised by alice');
    expect(row).toHaveTextContent(`${'r'.repeat(90)}…`);
    expect(row).toHaveTextContent('Waiting 2 h 13 min');
  });

  it('says "No open disputes" when there are none', async () => {
    await desk({ list: [] });
    expect(screen.getByText('No open disputes')).toBeInTheDocument();
  });

  it('shows a spinner, then an error with "Try again" when the list cannot be read', async () => {
    const { calls, user } = await desk({ list: null });
    expect(screen.getByRole('status', { name: 'Loading disputes' })).toBeInTheDocument();
    await act(() => calls.fail('list'));
    expect(screen.getByRole('alert')).toHaveTextContent('The disputes could not be loaded.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await act(() => calls.answer('list', [disputeSummary(1)]));
    expect(rows()).toHaveLength(1);
  });

  it('choosing a dispute asks the route to open it and marks the row', async () => {
    const { user, onSelect, calls } = await desk();
    expect(screen.getByText('Select a dispute')).toBeInTheDocument();
    await user.click(within(rows()[1]!).getByRole('button'));
    expect(onSelect).toHaveBeenCalledWith('trade-2');
    expect(within(rows()[1]!).getByRole('button')).toHaveAttribute('aria-current', 'true');
    await act(() => calls.answer('get', disputeDetail(2)));
    expect(screen.getByRole('heading', { name: 'Buyer alice · Seller bob' })).toBeInTheDocument();
  });
});

describe('one dispute', () => {
  it('shows the facts, the payer account the buyer stated, and the reason', async () => {
    await desk({ open: disputeDetail(1) });
    const facts = screen.getByRole('region', { name: 'Trade facts' });
    for (const text of [
      '0.01500000 BTC · 975.00 USD',
      '0.00015000 BTC',
      '0.01485000 BTC',
      'Bank Transfer',
      '1.00 USD = 1.00 USD',
      '30 min, due',
      'by alice, Mar 05',
      'A. Liddell, Revolut',
      'I paid but bob does not release (1)',
      'Waiting 2 h 13 min',
    ]) {
      expect(facts).toHaveTextContent(text);
    }
  });

  it('says who is who by role and name, and the rate as the offer card does', async () => {
    await desk({ open: disputeDetail(1, { buyer: 'carol', seller: 'dave', rate: '1025.5', currency__code: 'EUR' }) });
    const facts = screen.getByRole('region', { name: 'Trade facts' });
    expect(within(facts).getByRole('heading', { level: 2 })).toHaveTextContent(/^Buyer carol · Seller dave$/);
    const rate = within(facts).getByText('Rate').nextElementSibling;
    expect(rate).toHaveTextContent(/^1\.00 USD = 1,025\.50 EUR$/);
  });

  it('shows messages as text, never as HTML; the moderator’s as "Moderator", the system’s without a sender', async () => {
    const detail = disputeDetail(1, {
      messages: [
        moderationMessage(1, { sender: null, text: 'Trade opened' }),
        moderationMessage(2, { sender: 'alice', text: '<img src=x onerror=alert(1)><b>bold</b>' }),
        moderationMessage(3, { sender: 'Moderator', from_moderator: true, text: 'Send a receipt' }),
      ],
    });
    await desk({ open: detail });
    const [system, buyer, moderator] = messages();
    expect(system).toHaveAttribute('data-from', 'system');
    expect(system).toHaveTextContent(/^Trade opened$/);
    expect(buyer).toHaveTextContent('<img src=x onerror=alert(1)><b>bold</b>');
    expect(buyer!.querySelector('img, b')).toBeNull();
    expect(within(buyer!).getByText('@alice · buyer')).toBeInTheDocument();
    expect(moderator).toHaveAttribute('data-from', 'moderator');
    expect(within(moderator!).getByText('Moderator')).toBeInTheDocument();
  });

  it('writes in the chat as Moderator', async () => {
    const { user, calls } = await desk({ open: disputeDetail(1) });
    const box = screen.getByRole('textbox', { name: 'Message as Moderator' });
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    await user.type(box, 'Please send the receipt{Enter}');
    expect(calls.inputs('message')).toEqual([{ channel: 'trade-1', text: 'Please send the receipt' }]);
    await act(() => calls.answer('message', moderationMessage(4, { sender: 'Moderator', from_moderator: true, text: 'Please send the receipt' })));
    expect(box).toHaveValue('');
    expect(messages().at(-1)).toHaveTextContent('Please send the receipt');
  });

  it('a dispute that cannot be read says so, with "Try again"', async () => {
    const { actor, calls } = await desk();
    await act(async () => actor.send({ type: 'dispute.select', channel: 'trade-9' }));
    await act(() => calls.fail('get', new ApiError('Trade not found', 404)));
    expect(screen.getByRole('alert')).toHaveTextContent('This dispute could not be loaded.');
  });
});

describe('settling', () => {
  it('the dialog needs a written resolution: Confirm is disabled while it is empty', async () => {
    const { user } = await desk({ open: disputeDetail(1) });
    await user.click(screen.getByRole('button', { name: 'Release to buyer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Release to buyer' });
    expect(within(dialog).getByText('Please write the resolution')).toBeInTheDocument();
    const confirm = within(dialog).getByRole('button', { name: 'Confirm' });
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByRole('textbox', { name: 'Resolution' }), '   ');
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByRole('textbox', { name: 'Resolution' }), 'Statement shows the payment');
    expect(confirm).toBeEnabled();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('refund: "Please wait..." while it runs, then the toast and the trade shown settled with its resolution', async () => {
    const { user, calls, notices } = await desk({ open: disputeDetail(1) });
    await user.click(screen.getByRole('button', { name: 'Refund seller' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund seller' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Resolution' }), 'No payment arrived');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(within(dialog).getByRole('button', { name: 'Please wait...' })).toBeDisabled();
    expect(within(dialog).queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
    expect(calls.inputs('resolve')).toEqual([{ channel: 'trade-1', outcome: 'refund', resolution: 'No payment arrived' }]);
    await act(() => calls.answer('resolve', 'Dispute settled: the coins went back to bob.'));
    expect(notices).toEqual([{ title: 'Dispute settled', description: 'Dispute settled: the coins went back to bob.', type: 'success' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const settledNote = within(screen.getByRole('region', { name: 'Trade facts' })).getByRole('status');
    expect(settledNote).toHaveTextContent('Settled: Refunded to the seller');
    expect(settledNote).toHaveTextContent('No payment arrived');
    expect(screen.queryByRole('button', { name: 'Refund seller' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Message as Moderator' })).not.toBeInTheDocument();
  });
});
