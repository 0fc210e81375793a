import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SimulatedClock, createActor } from 'xstate';
import type { Conversation } from '../../contracts/index.ts';
import { bindTradeChat } from '../../src/machines/tradeChat/tradeChat.actors.ts';
import { ChatScreen } from '../../src/ui/chat/ChatScreen.tsx';
import { chatDeps, chatMessage, conversationWith, facts, me, withCarol } from '../support/chat.ts';
import { renderWithRouter } from './render.tsx';

/**
 * Issue 31, "Conversations tell themselves apart": /chat's list rows (coin and amounts, the stage in words, the
 * unread badge) and its All / Open trades filter, over the real charts and fake services.
 */

/** Three trades with bob: opened for different amounts, at different stages. */
const bobTrades: Conversation[] = [
  conversationWith('bob', { channel: 'trade-bob-1', amount_crypto: '0.01500000', trading_amount: '970.00', unread: 3, last_message: 'Paying now' }),
  conversationWith('bob', {
    channel: 'trade-bob-2',
    ...facts.paid,
    amount_crypto: '0.00250000',
    trading_amount: '161.70',
    last_message: 'bob marked the trade paid.',
  }),
  conversationWith('bob', {
    channel: 'trade-bob-3',
    ...facts.cancelled,
    coin__ticker: 'USDT',
    coin__decimal_places: 6,
    amount_crypto: '1250.000000',
    trading_amount: '1234.56',
    currency__code: 'USD',
    last_message: 'bob cancelled the trade.',
  }),
];

async function chat(list: Conversation[] = [...bobTrades, withCarol]) {
  const harness = chatDeps();
  const actor = createActor(bindTradeChat(harness.deps), { input: { username: me, channel: null }, clock: new SimulatedClock() }).start();
  const onSelect = vi.fn((channel: string) => actor.send({ type: 'conversation.select', channel }));
  await renderWithRouter(() => <ChatScreen actor={actor} onSelect={onSelect} onBack={() => actor.send({ type: 'conversation.close' })} />, '/chat');
  await act(() => harness.calls.answer('conversations', list));
  const emit = (channel: string, event: string, data: unknown) => act(() => harness.realtime.emit(channel, event, data));
  return { ...harness, actor, emit, user: userEvent.setup() };
}

const rows = () => within(screen.getByRole('list', { name: 'Conversations' })).queryAllByRole('listitem');
const row = (channel: string) => rows().find((item) => item.getAttribute('data-channel') === channel)!;
const filterButton = (name: string) => within(screen.getByRole('group', { name: 'Show conversations' })).getByRole('button', { name });

describe('/chat: rows that tell trades apart', () => {
  it('shows each trade with one partner with its coin and amounts (the coin’s places), its stage in words and its last message', async () => {
    await chat();
    const [first, second, third] = bobTrades.map((trade) => row(trade.channel));
    expect(within(first!).getByText('0.01500000 BTC')).toBeInTheDocument();
    expect(within(first!).getByText('· 970.00 EUR')).toBeInTheDocument();
    expect(within(first!).getByText('Awaiting payment')).toBeInTheDocument();
    expect(within(first!).getByText('Paying now')).toBeInTheDocument();
    expect(within(second!).getByText('0.00250000 BTC')).toBeInTheDocument();
    expect(within(second!).getByText('· 161.70 EUR')).toBeInTheDocument();
    expect(within(second!).getByText('Paid')).toBeInTheDocument();
    expect(within(third!).getByText('1,250.000000 USDT')).toBeInTheDocument();
    expect(within(third!).getByText('· 1,234.56 USD')).toBeInTheDocument();
    expect(within(third!).getByText('Cancelled')).toBeInTheDocument();
    // Told apart: the same partner, three different buttons.
    const names = [first, second, third].map((item) => within(item!).getByRole('button').textContent);
    expect(new Set(names).size).toBe(3);
  });

  it('badges the unread count, named for a screen reader ("3 unread messages"), and none at 0', async () => {
    await chat();
    const first = row('trade-bob-1');
    expect(within(first).getByRole('button', { name: /3 unread messages$/ })).toBeInTheDocument();
    expect(first).toHaveAttribute('data-unread', '3');
    expect(within(row('trade-bob-2')).queryByText(/unread message/)).not.toBeInTheDocument();
  });

  it('raises a row’s count live when a message arrives for it, and clears it when the trader opens it', async () => {
    const { emit, user, calls } = await chat();
    await emit(`private-user-${me}`, 'conversation', { ...bobTrades[1]!, last_message: 'Released yet?', unread: 1 });
    // The row moved to the top, with its new count.
    expect(rows()[0]).toHaveAttribute('data-channel', 'trade-bob-2');
    expect(within(rows()[0]!).getByText('1 unread message')).toBeInTheDocument();
    expect(within(rows()[0]!).getByText('Released yet?')).toBeInTheDocument();

    await user.click(within(row('trade-bob-2')).getByRole('button'));
    // Read once the conversation shows bob's message, and up to it.
    await act(() => calls.answer('messages', [chatMessage(4, { channel: 'trade-bob-2', text: 'Released yet?' })]));
    expect(within(row('trade-bob-2')).queryByText(/unread message/)).not.toBeInTheDocument();
    expect(row('trade-bob-2')).toHaveAttribute('data-unread', '0');
    expect(calls.inputs('markRead')).toEqual([{ channel: 'trade-bob-2', upTo: 4 }]);
    // The one not opened keeps its count.
    expect(within(row('trade-bob-1')).getByText('3 unread messages')).toBeInTheDocument();
  });
});

describe('/chat: All / Open trades', () => {
  it('"Open trades" hides the finished ones without a reload; "All" shows them again', async () => {
    const { user, calls } = await chat();
    expect(filterButton('All')).toHaveAttribute('aria-pressed', 'true');
    expect(rows().map((item) => item.getAttribute('data-channel'))).toEqual(['trade-bob-1', 'trade-bob-2', 'trade-bob-3', withCarol.channel]);
    await user.click(filterButton('Open trades'));
    expect(filterButton('Open trades')).toHaveAttribute('aria-pressed', 'true');
    expect(filterButton('All')).toHaveAttribute('aria-pressed', 'false');
    expect(rows().map((item) => item.getAttribute('data-channel'))).toEqual(['trade-bob-1', 'trade-bob-2', withCarol.channel]);
    expect(calls.inputs('conversations')).toHaveLength(1);
    await user.click(filterButton('All'));
    expect(rows()).toHaveLength(4);
  });

  it('says "No open trades." when every trade is finished', async () => {
    const { user } = await chat([bobTrades[2]!]);
    expect(screen.queryByText('No open trades.')).not.toBeInTheDocument();
    await user.click(filterButton('Open trades'));
    expect(rows()).toHaveLength(0);
    expect(screen.getByText('No open trades.')).toBeInTheDocument();
    expect(screen.queryByText('No conversations yet.')).not.toBeInTheDocument();
  });
});
