import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SimulatedClock, createActor } from 'xstate';
import type { ChatMessage, Conversation } from '../../contracts/index.ts';
import { bindTradeChat } from '../../src/machines/tradeChat/tradeChat.actors.ts';
import { ApiError } from '../../src/services/api.ts';
import { ChatScreen } from '../../src/ui/chat/ChatScreen.tsx';
import { chatDeps, chatMessage, conversationWith, facts, me, systemMessage, withBob, withCarol } from '../support/chat.ts';
import { renderWithRouter } from './render.tsx';
import { buttonLabelsByTheRules, roleAgainst } from '../support/tradeRules.ts';

const SEARCH_DEBOUNCE = 500;
const TYPING_VISIBLE = 1500;
const REMINDER = 'communicate only within this chat; payments must be marked as paid before coins are released';

/**
 * /chat over the real charts and fake services: the list answered with `list`, and, when `open` names a
 * partner, that conversation selected (as a click would) with `messages` loaded. The route's part (the URL)
 * is played by `onSelect`/`onBack`, which send what the route sends.
 */
async function chat({
  list = [withBob, withCarol],
  open,
  messages = [],
}: { list?: Conversation[]; open?: Conversation; messages?: ChatMessage[] } = {}) {
  const harness = chatDeps();
  const clock = new SimulatedClock();
  const actor = createActor(bindTradeChat(harness.deps), { input: { username: me, channel: null }, clock }).start();
  const onSelect = vi.fn((channel: string) => actor.send({ type: 'conversation.select', channel }));
  const onBack = vi.fn(() => actor.send({ type: 'conversation.close' }));
  const view = await renderWithRouter(() => <ChatScreen actor={actor} onSelect={onSelect} onBack={onBack} />, '/chat');
  await act(() => harness.calls.answer('conversations', list));
  if (open) {
    await act(async () => actor.send({ type: 'conversation.select', channel: open.channel }));
    await act(() => harness.calls.answer('messages', messages));
  }
  const emit = (channel: string, event: string, data: unknown) => act(() => harness.realtime.emit(channel, event, data));
  return { ...harness, actor, clock, onSelect, onBack, view, emit, typist: userEvent.setup() };
}

const entries = () => within(screen.getByRole('list', { name: 'Conversations' })).getAllByRole('listitem');
const pane = () => screen.getByRole('article');
const messageItems = () => within(screen.getByRole('list', { name: 'Messages' })).queryAllByRole('listitem');
const actionNames = () =>
  within(screen.getByRole('group', { name: 'Trade actions' }))
    .queryAllByRole('button')
    .map((button) => button.textContent);
const messageBox = () => screen.getByRole('textbox', { name: 'Message' });

describe('/chat: the conversation list', () => {
  it('shows each entry with an initial avatar, the partner, a status badge (the trade\'s stage in words) and the last message cut at 35 characters plus "…"', async () => {
    const long = 'The payment is on its way, please check your account';
    await chat({
      list: [
        { ...withBob, last_message: long },
        { ...withCarol, ...facts.completed, last_message: 'Exactly thirty-five characters long' },
      ],
    });
    const [bob, carol] = entries();
    expect(bob).toHaveAttribute('data-status', 'pending');
    expect(within(bob!).getByText('B')).toBeInTheDocument();
    expect(within(bob!).getByText('bob')).toBeInTheDocument();
    expect(within(bob!).getByText('Awaiting payment')).toHaveAttribute('data-status', 'pending');
    expect(within(bob!).getByText('The payment is on its way, please c…')).toBeInTheDocument();
    expect(carol).toHaveAttribute('data-status', 'completed');
    expect(within(carol!).getByText('C')).toBeInTheDocument();
    expect(within(carol!).getByText('Completed')).toHaveAttribute('data-status', 'completed');
    expect(within(carol!).getByText('Exactly thirty-five characters long')).toBeInTheDocument();
  });

  it('says "Select a conversation" until one is chosen; choosing opens it and marks the entry', async () => {
    const { typist, onSelect } = await chat();
    expect(screen.getByText('Select a conversation')).toBeInTheDocument();
    await typist.click(within(entries()[1]!).getByRole('button'));
    expect(onSelect).toHaveBeenCalledWith(withCarol.channel);
    expect(entries()[1]).toHaveAttribute('data-selected', 'true');
    expect(within(entries()[1]!).getByRole('button')).toHaveAttribute('aria-current', 'true');
    expect(screen.getByRole('heading', { name: 'carol' })).toBeInTheDocument();
    expect(screen.queryByText('Select a conversation')).not.toBeInTheDocument();
  });

  it('shows a spinner while the conversation asked for by ?channel= loads', async () => {
    const harness = chatDeps();
    const actor = createActor(bindTradeChat(harness.deps), { input: { username: me, channel: withCarol.channel } }).start();
    await renderWithRouter(() => <ChatScreen actor={actor} onSelect={() => {}} onBack={() => {}} />, '/chat');
    expect(screen.getByRole('status', { name: 'Loading the conversation' })).toBeInTheDocument();
    await act(() => harness.calls.answer('conversations', [withBob, withCarol]));
    expect(screen.getByRole('heading', { name: 'carol' })).toBeInTheDocument();
  });

  it('searches by the labelled search box once the trader stops typing for 500 ms', async () => {
    const { typist, calls, clock } = await chat();
    const search = screen.getByRole('searchbox', { name: 'Search conversations' });
    expect(search).toHaveAttribute('name', 'search');
    await typist.type(search, 'car');
    expect(calls.inputs('conversations')).toEqual([{ search: '' }]);
    act(() => clock.increment(SEARCH_DEBOUNCE));
    expect(calls.inputs('conversations')).toEqual([{ search: '' }, { search: 'car' }]);
    await act(() => calls.answer('conversations', [withCarol]));
    expect(entries()).toHaveLength(1);
  });

  it('says so when there is no conversation', async () => {
    await chat({ list: [] });
    expect(screen.getByText('No conversations yet.')).toBeInTheDocument();
  });

  it('a trade opened elsewhere appears at the top at once', async () => {
    const { emit } = await chat();
    await emit(`private-user-${me}`, 'conversation', conversationWith('dave', { last_message: 'Trade opened' }));
    expect(entries()[0]).toHaveAttribute('data-partner', 'dave');
  });

  it('shows a banner while the connection is down', async () => {
    const { realtime } = await chat();
    act(() => realtime.setState('connected'));
    expect(screen.queryByText(/Reconnecting…/)).not.toBeInTheDocument();
    act(() => realtime.setState('offline'));
    expect(screen.getByText(/Reconnecting…/)).toBeInTheDocument();
  });
});

describe('/chat: a conversation', () => {
  it('shows the partner and "Online" only while they are online', async () => {
    const { emit } = await chat({ open: withBob });
    expect(within(pane()).getByRole('heading', { name: 'bob' })).toBeInTheDocument();
    expect(within(pane()).getByText('Online')).toBeInTheDocument();
    await emit(`private-user-${me}`, 'conversation', { ...withBob, online: false });
    expect(within(pane()).queryByText('Online')).not.toBeInTheDocument();
  });

  it('places own messages right, the partner’s left with "@sender" and a time, and system notices apart', async () => {
    await chat({
      open: withBob,
      messages: [
        systemMessage(1, 'Trade opened: ada buys 0.001 BTC from bob.'),
        chatMessage(2, { sender: 'bob', recipient: me, text: 'Hi ada', created: '2026-03-05T14:07:00.000Z' }),
        chatMessage(3, { sender: me, recipient: 'bob', text: 'Paying now' }),
      ],
    });
    const [system, partner, own] = messageItems();
    expect(system).toHaveAttribute('data-system', 'true');
    expect(system).toHaveAttribute('data-own', 'false');
    expect(system).toHaveTextContent('Trade opened: ada buys 0.001 BTC from bob.');
    expect(partner).toHaveAttribute('data-own', 'false');
    expect(partner).toHaveAttribute('data-from', 'partner');
    expect(within(partner!).getByText('@bob')).toBeInTheDocument();
    expect(within(partner!).getByText(/Mar 05, \d\d:07 [AP]M/)).toHaveAttribute('datetime', '2026-03-05T14:07:00.000Z');
    expect(own).toHaveAttribute('data-own', 'true');
    expect(within(own!).queryByText('@ada')).not.toBeInTheDocument();
  });

  it('renders what traders write as text, never as markup', async () => {
    const { emit } = await chat({ open: withBob });
    await emit(`private-${withBob.channel}`, 'new_message', chatMessage(9, { text: '<img src=x onerror=alert(1)><b>bold</b>' }));
    expect(messageItems()[0]).toHaveTextContent('<img src=x onerror=alert(1)><b>bold</b>');
    expect(messageItems()[0]!.querySelector('img, b')).toBeNull();
  });

  it('shows "{username} is typing..." for 1.5 s after the partner’s notice', async () => {
    const { emit, clock } = await chat({ open: withBob });
    await emit(`private-${withBob.channel}`, 'typing', { username: 'bob' });
    expect(screen.getByText('bob is typing...')).toBeInTheDocument();
    act(() => clock.increment(TYPING_VISIBLE));
    expect(screen.queryByText('bob is typing...')).not.toBeInTheDocument();
    await emit(`private-${withBob.channel}`, 'typing', { username: me });
    expect(screen.queryByText(/is typing/)).not.toBeInTheDocument();
  });

  it('the message input is labelled, Enter sends, Shift+Enter does not, whitespace is never sent', async () => {
    const { typist, calls } = await chat({ open: withBob });
    expect(messageBox()).toHaveAttribute('name', 'text');
    expect(screen.getByText(REMINDER)).toBeInTheDocument();
    await typist.type(messageBox(), '   ');
    await typist.keyboard('{Enter}');
    expect(calls.inputs('send')).toEqual([]);
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();

    await typist.clear(messageBox());
    await typist.type(messageBox(), 'first line{Shift>}{Enter}{/Shift}second');
    expect(calls.inputs('send')).toEqual([]);
    expect(messageBox()).toHaveValue('first line\nsecond');
    await typist.keyboard('{Enter}');
    expect(calls.inputs('send')).toEqual([{ channel: withBob.channel, text: 'first line\nsecond' }]);
    await act(() => calls.answer('send', chatMessage(7, { sender: me, recipient: 'bob', text: 'first line\nsecond' })));
    expect(messageBox()).toHaveValue('');
    expect(messageItems().at(-1)).toHaveAttribute('data-own', 'true');
  });

  // The buttons as the oracle writes docs/rules.md "Chat actions" (tests/support/tradeRules.ts).
  it.each([
    ['the buyer before payment', withBob, true],
    ['the seller before payment', withCarol, true],
    ['the buyer after payment', { ...withBob, ...facts.paid }, true],
    ['the seller after payment', { ...withCarol, ...facts.paid }, true],
    ['either side of a dispute', { ...withCarol, ...facts.disputed }, true],
    ['a completed trade', { ...withBob, ...facts.completed }, false],
    ['a cancelled trade', { ...withCarol, ...facts.cancelled }, false],
  ] as const)('%s: the buttons of the rules, message input %s', async (_, conversation, input) => {
    await chat({ list: [conversation], open: conversation });
    expect(actionNames()).toEqual(buttonLabelsByTheRules(conversation, roleAgainst(conversation.partner_type)));
    expect(screen.queryByRole('textbox', { name: 'Message' }) !== null).toBe(input);
    expect(screen.getByText(REMINDER)).toBeInTheDocument();
  });

  it('"Mark Paid" says "Please wait..." while it runs, then "Action Performed!" and "Raise Dispute"', async () => {
    const { typist, calls, notices } = await chat({ open: withBob });
    await typist.click(screen.getByRole('button', { name: 'Mark Paid' }));
    expect(calls.inputs('act')).toEqual([{ type: 'mark_paid', channel: withBob.channel }]);
    expect(screen.getByRole('button', { name: 'Please wait...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel Trade' })).toBeDisabled();
    await act(() => calls.answer('act', 'Payment marked as sent. The seller will release the coin once it arrives.'));
    expect(notices).toEqual([
      {
        title: 'Action Performed!',
        description: 'Payment marked as sent. The seller will release the coin once it arrives.',
        type: 'success',
      },
    ]);
    expect(actionNames()).toEqual(['Raise Dispute']);
    expect(pane()).toHaveAttribute('data-buyer-paid', 'true');
  });

  it('the dispute dialog: "Raise Dispute", a Reason, Submit disabled while empty with its message, Cancel closes', async () => {
    const paid = { ...withBob, ...facts.paid };
    const { typist, calls } = await chat({ list: [paid], open: paid });
    await typist.click(screen.getByRole('button', { name: 'Raise Dispute' }));
    const dialog = await screen.findByRole('dialog', { name: 'Raise Dispute' });
    const reason = within(dialog).getByRole('textbox', { name: 'Reason' });
    expect(reason).toHaveAttribute('name', 'reason');
    expect(within(dialog).getByRole('button', { name: 'Submit' })).toBeDisabled();
    expect(within(dialog).getByText('Please enter the reason for your dispute')).toBeInTheDocument();

    await typist.type(reason, '  ');
    expect(within(dialog).getByRole('button', { name: 'Submit' })).toBeDisabled();
    await typist.type(reason, 'No coin after an hour');
    expect(within(dialog).queryByText('Please enter the reason for your dispute')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Submit' })).toBeEnabled();
    await typist.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.inputs('act')).toEqual([]);

    await typist.click(screen.getByRole('button', { name: 'Raise Dispute' }));
    const again = await screen.findByRole('dialog', { name: 'Raise Dispute' });
    expect(within(again).getByRole('textbox', { name: 'Reason' }), 'Cancel forgot the reason').toHaveValue('');
    await typist.type(within(again).getByRole('textbox', { name: 'Reason' }), 'No coin after an hour');
    await typist.click(within(again).getByRole('button', { name: 'Submit' }));
    expect(calls.inputs('act')).toEqual([{ type: 'raise_dispute', channel: withBob.channel, reason: 'No coin after an hour' }]);
    await act(() => calls.answer('act', 'Dispute raised. The trade is frozen until a moderator settles it.'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(actionNames()).toEqual([]);
  });

  it('"Release Crypto" asks for confirmation first, with the password; Cancel releases nothing', async () => {
    const paid = { ...withCarol, ...facts.paid };
    const { typist, calls, notices } = await chat({ list: [paid], open: paid });
    await typist.click(screen.getByRole('button', { name: 'Release Crypto' }));
    const question = await screen.findByRole('alertdialog', { name: 'Release Crypto' });
    expect(within(question).getByText(/cannot be undone/)).toBeInTheDocument();
    expect(within(question).getByRole('button', { name: 'Confirm Release' }), 'not before the server said what it needs').toBeDisabled();
    await typist.click(within(question).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(calls.inputs('release')).toEqual([]);

    await typist.click(screen.getByRole('button', { name: 'Release Crypto' }));
    await act(() => calls.answerLatest('releaseProof', 'password'));
    const dialog = await screen.findByRole('alertdialog');
    const password = within(dialog).getByLabelText('Your password');
    expect(password).toHaveAttribute('name', 'password');
    expect(password).toHaveAttribute('type', 'password');
    expect(within(dialog).getByRole('button', { name: 'Confirm Release' }), 'not without the password').toBeDisabled();
    await typist.type(password, 'correct-horse-9');
    await typist.click(within(dialog).getByRole('button', { name: 'Confirm Release' }));
    expect(calls.inputs('release')).toEqual([{ type: 'release_coin', channel: withCarol.channel, password: 'correct-horse-9' }]);
    expect(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Please wait...' })).toBeDisabled();
    expect(within(screen.getByRole('alertdialog')).queryByRole('button', { name: 'Cancel' }), 'no closing while it runs').not.toBeInTheDocument();
    await typist.keyboard('{Escape}');
    expect(screen.getByRole('alertdialog'), 'Escape does not close it either').toBeInTheDocument();
    await act(() => calls.answer('release', 'Coin released. The trade is completed.'));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(notices).toEqual([{ title: 'Action Performed!', description: 'Coin released. The trade is completed.', type: 'success' }]);
    expect(pane()).toHaveAttribute('data-status', 'completed');
    expect(screen.queryByRole('textbox', { name: 'Message' })).not.toBeInTheDocument();
  });

  it('a wrong password shows the server’s sentence in the dialog, which stays open with the input', async () => {
    const paid = { ...withCarol, ...facts.paid };
    const { typist, calls, notices } = await chat({ list: [paid], open: paid });
    await typist.click(screen.getByRole('button', { name: 'Release Crypto' }));
    await act(() => calls.answer('releaseProof', 'password'));
    const dialog = await screen.findByRole('alertdialog');
    await typist.type(within(dialog).getByLabelText('Your password'), 'not-it');
    await typist.keyboard('{Enter}');
    expect(calls.inputs('release')).toEqual([{ type: 'release_coin', channel: withCarol.channel, password: 'not-it' }]);
    await act(() => calls.fail('release', new ApiError('Please confirm the release with your password.', 403)));
    await act(() => calls.answer('releaseProof', 'password'));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please confirm the release with your password.');
    expect(within(dialog).getByLabelText('Your password')).toHaveValue('');
    expect(notices, 'no toast: the dialog says it').toEqual([]);
    // Behind the open dialog the conversation is hidden from the accessibility tree.
    expect(screen.getByRole('article', { hidden: true })).toHaveAttribute('data-status', 'pending');
  });

  it('asks for the authenticator code with two-factor on; the security hold shows its sentence', async () => {
    const paid = { ...withCarol, ...facts.paid };
    const { typist, calls } = await chat({ list: [paid], open: paid });
    await typist.click(screen.getByRole('button', { name: 'Release Crypto' }));
    await act(() => calls.answer('releaseProof', 'code'));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).queryByLabelText('Your password')).not.toBeInTheDocument();
    const code = within(dialog).getByRole('textbox', { name: 'Authenticator code' });
    expect(code).toHaveAttribute('name', 'code');
    await typist.type(code, '123456');
    await typist.click(within(dialog).getByRole('button', { name: 'Confirm Release' }));
    expect(calls.inputs('release')).toEqual([{ type: 'release_coin', channel: withCarol.channel, code: '123456' }]);
    await act(() => calls.fail('release', new ApiError('Selling is paused for 24 hours after a security change.', 409)));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Selling is paused for 24 hours after a security change.');
    await typist.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it('asks for nothing while a proof given in the last 10 minutes covers this session', async () => {
    const paid = { ...withCarol, ...facts.paid };
    const { typist, calls } = await chat({ list: [paid], open: paid });
    await typist.click(screen.getByRole('button', { name: 'Release Crypto' }));
    await act(() => calls.answer('releaseProof', null));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).queryByRole('textbox')).not.toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Your password')).not.toBeInTheDocument();
    await typist.click(within(dialog).getByRole('button', { name: 'Confirm Release' }));
    expect(calls.inputs('release')).toEqual([{ type: 'release_coin', channel: withCarol.channel }]);
  });

  it('on a small screen shows one column at a time, with a way back to the list', async () => {
    const { typist, onBack, view } = await chat({ open: withBob });
    const layout = view.container.querySelector('[data-view]')!;
    expect(layout).toHaveAttribute('data-view', 'conversation');
    await typist.click(screen.getByRole('button', { name: 'Back to conversations' }));
    expect(onBack).toHaveBeenCalled();
    expect(layout).toHaveAttribute('data-view', 'list');
    expect(screen.getByText('Select a conversation')).toBeInTheDocument();
  });
});
