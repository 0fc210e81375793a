import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SimulatedClock, createActor } from 'xstate';
import type { ChatMessage, Conversation } from '../../contracts/index.ts';
import { bindTradeChat } from '../../src/machines/tradeChat/tradeChat.actors.ts';
import { ChatScreen } from '../../src/ui/chat/ChatScreen.tsx';
import { chatDeps, chatMessage, facts, me, summaryOf, systemMessage, withBob, withCarol } from '../support/chat.ts';
import { forgetViewport, pretendViewport, renderWithRouter } from './render.tsx';

const MINUTE = 60_000;
const START = Date.parse('2026-03-05T15:00:00.000Z');

/** /chat opened on `open` (as a click would), its messages loaded, over the real charts and fake services. */
async function chatOn(open: Conversation, messages: ChatMessage[] = []) {
  const harness = chatDeps();
  const clock = new SimulatedClock();
  const actor = createActor(bindTradeChat(harness.deps), { input: { username: me, channel: null }, clock }).start();
  await renderWithRouter(() => <ChatScreen actor={actor} onSelect={() => {}} onBack={() => {}} />, '/chat');
  await act(() => harness.calls.answer('conversations', [open]));
  await act(async () => actor.send({ type: 'conversation.select', channel: open.channel }));
  await act(() => harness.calls.answer('messages', messages));
  const emit = (channel: string, event: string, data: unknown) => act(() => harness.realtime.emit(channel, event, data));
  return { ...harness, actor, clock, emit, typist: userEvent.setup() };
}

const SECOND = 1000;
afterEach(forgetViewport);

const actionButton = (name: string) => within(screen.getByRole('group', { name: 'Trade actions' })).getByRole('button', { name });

describe('/chat: the paying account', () => {
  it('the buyer may say which account paid, sent with the one "Mark Paid" click', async () => {
    const { typist, calls } = await chatOn(withBob);
    const field = screen.getByRole('textbox', { name: 'Paid from (optional)' });
    expect(screen.getByText('Name on the account and where: J. Smith, Revolut')).toBeInTheDocument();
    await typist.type(field, '  J. Smith, Revolut ');
    await typist.click(actionButton('Mark Paid'));
    expect(calls.inputs('act')).toEqual([{ type: 'mark_paid', channel: withBob.channel, payer_account: 'J. Smith, Revolut' }]);
    await act(() => calls.answer('act', 'Payment marked.'));
    expect(screen.queryByRole('textbox', { name: 'Paid from (optional)' })).not.toBeInTheDocument();
  });

  it('left empty, "Mark Paid" sends no account; over 120 characters it says so and cannot be sent', async () => {
    const { typist, calls } = await chatOn(withBob);
    const field = screen.getByRole('textbox', { name: 'Paid from (optional)' });
    await typist.click(field);
    await typist.paste('x'.repeat(121));
    expect(screen.getByText('The paying account can be at most 120 characters')).toBeInTheDocument();
    expect(actionButton('Mark Paid')).toBeDisabled();
    await typist.clear(field);
    expect(actionButton('Mark Paid')).toBeEnabled();
    await typist.click(actionButton('Mark Paid'));
    expect(calls.inputs('act')).toEqual([{ type: 'mark_paid', channel: withBob.channel }]);
  });

  it('the seller reads the account beside "Release Crypto", with what to check before releasing', async () => {
    await chatOn({ ...withCarol, ...facts.paid, payer_account: 'J. Smith, Revolut' });
    const line = screen.getByRole('region', { name: 'Paying account' });
    expect(line).toHaveTextContent('Paid from: J. Smith, Revolut');
    expect(line).toHaveTextContent(/money came from an account in this name before releasing/);
    expect(actionButton('Release Crypto')).toBeEnabled();
    expect(screen.queryByRole('textbox', { name: 'Paid from (optional)' })).not.toBeInTheDocument();
  });

  it('tells the seller when the buyer did not say', async () => {
    await chatOn({ ...withCarol, ...facts.paid });
    expect(screen.getByRole('region', { name: 'Paying account' })).toHaveTextContent('The buyer did not say which account they paid from');
  });

  it('the seller hears the account live once the buyer marks paid', async () => {
    const { emit } = await chatOn(withCarol);
    expect(screen.queryByRole('region', { name: 'Paying account' })).not.toBeInTheDocument();
    await emit(`private-user-${me}`, 'conversation', { ...withCarol, ...facts.paid, payer_account: 'A. Carol, Wise' });
    expect(screen.getByRole('region', { name: 'Paying account' })).toHaveTextContent('Paid from: A. Carol, Wise');
  });
});

describe('/chat: a dispute', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(START);
  });
  afterEach(() => vi.useRealTimers());

  it('shows "Under review" with the minutes waited, a minute more each minute, and no actions', async () => {
    const disputedAt = new Date(START - 14 * MINUTE).toISOString();
    const { clock } = await chatOn({ ...withBob, ...facts.disputed, disputed_at: disputedAt });
    const banner = screen.getByRole('status', { name: 'Under review' });
    expect(banner).toHaveTextContent('waiting 14 min');
    expect(banner).toHaveTextContent('A moderator will look at the payment and the chat and settle the trade.');
    expect(within(screen.getByRole('group', { name: 'Trade actions' })).queryAllByRole('button')).toEqual([]);

    vi.setSystemTime(START + MINUTE);
    act(() => clock.increment(MINUTE - 1));
    expect(banner).toHaveTextContent('waiting 14 min');
    act(() => clock.increment(1));
    expect(banner).toHaveTextContent('waiting 15 min');
  });

  it("shows a moderator's message with a Moderator badge, apart from both parties", async () => {
    const moderator = chatMessage(7, { sender: 'Moderator', recipient: 'all', text: 'Please upload the receipt.', from_moderator: true });
    await chatOn({ ...withBob, ...facts.disputed }, [chatMessage(6, { text: 'I paid' }), moderator]);
    const items = within(screen.getByRole('list', { name: 'Messages' })).getAllByRole('listitem');
    expect(items[1]).toHaveAttribute('data-from', 'moderator');
    expect(within(items[1]!).getByText('Moderator')).toBeInTheDocument();
    expect(within(items[1]!).queryByText('@Moderator')).not.toBeInTheDocument();
    expect(items[0]).toHaveAttribute('data-from', 'partner');
  });

  it('both traders see the settlement live: the trade completes and the summary shows the outcome and the resolution', async () => {
    pretendViewport(true);
    const { emit, typist } = await chatOn({ ...withBob, ...facts.disputed, disputed_at: new Date(START - MINUTE).toISOString() });
    const notice = systemMessage(40, 'A moderator settled the dispute: the coins went to the buyer.');
    await emit(`private-${withBob.channel}`, 'coin_released', { channel: withBob.channel, ...facts.completed, message: notice });
    await emit(`private-user-${me}`, 'conversation', {
      ...withBob,
      ...facts.completed,
      resolution: { outcome: 'release', text: 'The bank statement shows the payment.', resolved_at: new Date(START).toISOString() },
    });
    expect(screen.queryByRole('status', { name: 'Under review' })).not.toBeInTheDocument();
    const settled = screen.getByRole('region', { name: 'Dispute settled' });
    expect(settled).toHaveTextContent('Settled by a moderator: coins released to the buyer');
    // The resolution under "Resolution", so the finished chat keeps its room for the messages.
    const resolution = within(settled).getByText('The bank statement shows the payment.');
    expect(resolution).not.toBeVisible();
    await typist.click(within(settled).getByRole('button', { name: 'Resolution', expanded: false }));
    expect(resolution).toBeVisible();
    expect(screen.getByRole('article')).toHaveAttribute('data-status', 'completed');
  });

  it('a refund reads "refunded to the seller"', async () => {
    pretendViewport(true);
    await chatOn({
      ...withCarol,
      ...facts.cancelled,
      resolution: { outcome: 'refund', text: 'No payment arrived.', resolved_at: new Date(START).toISOString() },
    });
    expect(screen.getByRole('region', { name: 'Dispute settled' })).toHaveTextContent('Settled by a moderator: coins refunded to the seller');
  });

  it('on a phone the settlement is in the folded summary, which says so', async () => {
    pretendViewport(false);
    const { calls, typist } = await chatOn({
      ...withBob,
      ...facts.completed,
      resolution: { outcome: 'release', text: 'The bank statement shows the payment.', resolved_at: new Date(START).toISOString() },
    });
    await act(() => calls.answer('summary', summaryOf(withBob, new Date(START - MINUTE).toISOString())));
    const toggle = within(screen.getByRole('region', { name: 'Trade summary' })).getByRole('button', { expanded: false });
    expect(toggle).toHaveTextContent('0.00108761 BTC · 100.00 EUR · settled');
    expect(screen.queryByRole('region', { name: 'Dispute settled' })).not.toBeInTheDocument();
    await typist.click(toggle);
    expect(screen.getByRole('region', { name: 'Dispute settled' })).toHaveTextContent('Settled by a moderator: coins released to the buyer');
  });
});

describe('/chat: rating the partner', () => {
  it('on a completed trade: stars (Submit disabled until one is chosen), a comment, then "You rated bob 4/5"', async () => {
    const { typist, calls, notices } = await chatOn({ ...withBob, ...facts.completed });
    const form = screen.getByRole('form', { name: 'Rate bob' });
    const submit = within(form).getByRole('button', { name: 'Submit rating' });
    expect(within(form).getAllByRole('radio')).toHaveLength(5);
    expect(submit).toBeDisabled();
    expect(within(form).queryByRole('textbox', { name: 'Comment (optional)' }), 'one row of stars until a score is chosen').not.toBeInTheDocument();
    await typist.click(within(form).getByRole('radio', { name: '4 stars' }));
    expect(within(form).getByRole('radio', { name: '4 stars' })).toBeChecked();
    await typist.type(within(form).getByRole('textbox', { name: 'Comment (optional)' }), 'Quick and polite');
    expect(submit).toBeEnabled();
    await typist.click(submit);
    expect(calls.inputs('rate')).toEqual([{ channel: withBob.channel, score: 4, comment: 'Quick and polite' }]);
    await act(() => calls.answer('rate', 'Thank you: your rating of bob is saved.'));
    expect(notices).toContainEqual({ title: 'Rating sent', description: 'Thank you: your rating of bob is saved.', type: 'success' });
    expect(screen.queryByRole('form', { name: 'Rate bob' })).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Your rating' })).toHaveTextContent('You rated bob 4/5');
  });

  it('the arrow keys move between the stars', async () => {
    const { typist } = await chatOn({ ...withBob, ...facts.completed });
    await typist.click(screen.getByRole('radio', { name: '2 stars' }));
    await typist.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: '3 stars' })).toBeChecked();
  });

  it('a refusal (already rated: 409) leaves the form as it was', async () => {
    const { typist, calls } = await chatOn({ ...withBob, ...facts.completed });
    await typist.click(screen.getByRole('radio', { name: '5 stars' }));
    await typist.click(screen.getByRole('button', { name: 'Submit rating' }));
    await act(() => calls.fail('rate', new Error('You have already rated this trade.')));
    expect(screen.getByRole('radio', { name: '5 stars' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Submit rating' })).toBeEnabled();
  });

  it('a trade rated before shows the rating, not the form; a cancelled trade shows neither', async () => {
    await chatOn({ ...withBob, ...facts.completed, my_rating: { score: 3, comment: 'Slow to answer' } });
    expect(screen.queryByRole('form', { name: 'Rate bob' })).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Your rating' })).toHaveTextContent('You rated bob 3/5');
    expect(screen.getByRole('region', { name: 'Your rating' })).toHaveTextContent('Slow to answer');
  });

  it('the partner’s name links to their profile', async () => {
    await chatOn(withBob);
    expect(screen.getByRole('link', { name: 'bob' })).toHaveAttribute('href', '/traders/bob');
  });
});

describe('/chat: the trade summary in the header', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(START);
  });
  afterEach(() => vi.useRealTimers());
  const summary = () => screen.getByRole('region', { name: 'Trade summary' });
  /** The value a label of the summary names. */
  const term = (name: string) => within(summary()).getByText(name, { selector: 'dt' }).nextElementSibling;

  it.each([
    ['the buyer', withBob, 'You are buying', '14:32 left to pay', ['You receive', '0.00108761 BTC']],
    ['the seller', withCarol, 'You are selling', '14:32 left for the buyer to pay', ['In escrow', '0.00109860 BTC']],
  ] as const)('%s reads their side, the terms and the time left to pay, counting down each second', async (_, conversation, role, left, [amountTerm, amount]) => {
    pretendViewport(true);
    const { calls, clock } = await chatOn(conversation);
    expect(screen.queryByRole('region', { name: 'Trade summary' }), 'nothing before the terms are known').not.toBeInTheDocument();
    await act(() => calls.answer('summary', summaryOf(conversation, new Date(START + 14 * MINUTE + 32 * SECOND).toISOString())));
    expect(within(summary()).getByText(role)).toBeInTheDocument();
    // Each side its own amount: the buyer what arrives, the seller what left their balance (the fee with it).
    expect(term(amountTerm)).toHaveTextContent(amount);
    expect(term('Total')).toHaveTextContent('100.00 EUR');
    expect(term('Rate')).toHaveTextContent('1.00 USD = 0.9384 EUR');
    expect(term('Payment method')).toHaveTextContent('SEPA');
    expect(within(summary()).getByRole('timer')).toHaveTextContent(left);

    vi.setSystemTime(START + SECOND);
    act(() => clock.increment(SECOND));
    expect(within(summary()).getByRole('timer')).toHaveTextContent(left.replace('14:32', '14:31'));
    vi.setSystemTime(START + 15 * MINUTE);
    act(() => clock.increment(SECOND));
    expect(within(summary()).getByRole('timer')).toHaveTextContent('The time to pay has run out');
  });

  it('once marked paid: no countdown, and the account the buyer paid from', async () => {
    pretendViewport(true);
    const { calls } = await chatOn({ ...withCarol, ...facts.paid, payer_account: 'J. Smith, Revolut' });
    await act(() => calls.answer('summary', summaryOf(withCarol, new Date(START + 10 * MINUTE).toISOString())));
    expect(within(summary()).queryByRole('timer')).not.toBeInTheDocument();
    expect(term('Paid from')).toHaveTextContent('J. Smith, Revolut');
  });

  it('on a phone, one line (amount · total · time left) that opens and folds on a tap', async () => {
    pretendViewport(false);
    const { calls, typist, clock } = await chatOn(withBob);
    await act(() => calls.answer('summary', summaryOf(withBob, new Date(START + 14 * MINUTE + 32 * SECOND).toISOString())));
    const toggle = within(summary()).getByRole('button', { expanded: false });
    expect(toggle).toHaveTextContent('0.00108761 BTC · 100.00 EUR · 14:32 left');
    expect(within(summary()).queryByText('You are buying'), 'folded').not.toBeVisible();
    vi.setSystemTime(START + SECOND);
    act(() => clock.increment(SECOND));
    expect(toggle).toHaveTextContent('14:31 left');

    await typist.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(within(summary()).getByText('You are buying')).toBeVisible();
    expect(within(summary()).getByRole('timer')).toHaveTextContent('14:31 left to pay');
    await typist.click(toggle);
    // Folding waits a frame for an exit animation (there is none).
    await waitFor(() => expect(toggle).toHaveAttribute('aria-expanded', 'false'));
    expect(within(summary()).getByText('You are buying')).not.toBeVisible();
  });

  it('on a laptop the summary is open from the start', async () => {
    pretendViewport(true);
    const { calls } = await chatOn(withBob);
    await act(() => calls.answer('summary', summaryOf(withBob, new Date(START + 14 * MINUTE).toISOString())));
    expect(within(summary()).getByRole('button')).toHaveAttribute('aria-expanded', 'true');
    expect(within(summary()).getByText('You are buying')).toBeVisible();
  });

  it('a finished trade keeps its summary, without a countdown', async () => {
    pretendViewport(true);
    const { calls } = await chatOn({ ...withBob, ...facts.completed });
    await act(() => calls.answer('summary', summaryOf(withBob, new Date(START - MINUTE).toISOString())));
    expect(within(summary()).getByText('You are buying')).toBeVisible();
    expect(within(summary()).queryByRole('timer')).not.toBeInTheDocument();
    expect(within(summary()).getByRole('button')).toHaveTextContent(/^0\.00108761 BTC · 100\.00 EUR$/);
  });
});
