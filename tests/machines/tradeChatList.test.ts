import { SimulatedClock, createActor } from 'xstate';
import { bindTradeChat } from '../../src/machines/tradeChat/tradeChat.actors.ts';
import {
  selectConversations,
  selectFilter,
  selectIsFilteredEmpty,
  selectVisibleConversations,
  stageWordsOf,
  unreadLabelOf,
} from '../../src/machines/tradeChat/tradeChat.selectors.ts';
import { chatDeps, chatMessage, conversationWith, facts, me, withBob, withCarol } from '../support/chat.ts';

/**
 * Issue 31: the /chat list's unread counts (live, cleared by reading) and its "Open" filter, through the real
 * binding (tradeChat.actors.ts) with fake services, as the route starts it.
 */

const userChannel = `private-user-${me}`;

async function openList(list = [withBob, withCarol]) {
  const harness = chatDeps();
  const actor = createActor(bindTradeChat(harness.deps), { input: { username: me, channel: null }, clock: new SimulatedClock() }).start();
  await harness.calls.answer('conversations', list);
  const snapshot = () => actor.getSnapshot();
  const unread = () => Object.fromEntries(selectConversations(snapshot()).map((entry) => [entry.partner, entry.unread]));
  const shown = () => selectVisibleConversations(snapshot()).map((entry) => entry.partner);
  return { ...harness, actor, snapshot, unread, shown };
}

/** Carol's message `id` to the trader, on her trade's channel. */
const fromCarol = (id: number, text = `message ${id}`) => chatMessage(id, { sender: 'carol', channel: withCarol.channel, text });
const carolsTrade = `private-${withCarol.channel}`;
const readUpTo = (upTo: number) => ({ channel: withCarol.channel, upTo });

/** The page as the browser says it is (document.visibilityState, then visibilitychange). */
let visibility: DocumentVisibilityState = 'visible';
function setVisibility(state: DocumentVisibilityState) {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
}
beforeEach(() => {
  visibility = 'visible';
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
});
afterEach(() => {
  delete (document as { visibilityState?: unknown }).visibilityState;
});

describe('the /chat list: unread counts', () => {
  it('a message to a conversation that is not open raises its count live; opened, it is read once its messages show, up to the newest shown', async () => {
    const { calls, realtime, actor, unread } = await openList();
    expect(unread()).toEqual({ bob: 0, carol: 0 });
    realtime.emit(userChannel, 'conversation', { ...withCarol, last_message: 'hello?', unread: 1 });
    realtime.emit(userChannel, 'conversation', { ...withCarol, last_message: 'anyone?', unread: 2 });
    expect(unread()).toEqual({ carol: 2, bob: 0 });
    expect(calls.inputs('markRead')).toEqual([]);

    actor.send({ type: 'conversation.select', channel: withCarol.channel });
    // Nothing is shown yet, so nothing is read yet.
    expect(unread()).toEqual({ carol: 2, bob: 0 });
    expect(calls.inputs('markRead')).toEqual([]);
    // The trader's own message is newer, but a mark need only reach carol's.
    await calls.answer('messages', [fromCarol(8), fromCarol(9), chatMessage(11, { sender: me, recipient: 'carol', channel: withCarol.channel })]);
    expect(unread()).toEqual({ carol: 0, bob: 0 });
    expect(calls.inputs('markRead')).toEqual([readUpTo(9)]);
    await calls.answer('markRead', { read_up_to: 9 });
    // Bob writes meanwhile: his count rises; carol's stays read.
    realtime.emit(userChannel, 'conversation', { ...withBob, last_message: 'Sent', unread: 1 });
    expect(unread()).toEqual({ bob: 1, carol: 0 });
    expect(calls.inputs('markRead')).toHaveLength(1);
  });

  it('a message arriving in the open conversation is read at once, up to it, whichever the list or the conversation hears first', async () => {
    const { calls, realtime, actor, unread } = await openList([{ ...withCarol, unread: 3 }, withBob]);
    actor.send({ type: 'conversation.select', channel: withCarol.channel });
    await calls.answer('messages', [fromCarol(9)]);
    await calls.answer('markRead', { read_up_to: 9 });
    // The open conversation shows the message first: the mark reaches it before the list's count has heard of it…
    realtime.emit(carolsTrade, 'new_message', fromCarol(10, 'there?'));
    expect(calls.inputs('markRead')).toEqual([readUpTo(9), readUpTo(10)]);
    await calls.answer('markRead', { read_up_to: 10 });
    // …and the entry the message published, counting it, is read again.
    realtime.emit(userChannel, 'conversation', { ...withCarol, last_message: 'there?', unread: 1 });
    expect(unread()).toEqual({ carol: 0, bob: 0 });
    expect(calls.inputs('markRead').at(-1)).toEqual(readUpTo(10));
    await calls.answer('markRead', { read_up_to: 10 });

    // The list hears first: the mark goes only as far as what shows; the message, once shown, is marked too.
    realtime.emit(userChannel, 'conversation', { ...withCarol, last_message: 'hello', unread: 1 });
    expect(calls.inputs('markRead').at(-1)).toEqual(readUpTo(10));
    await calls.answer('markRead', { read_up_to: 10 });
    realtime.emit(carolsTrade, 'new_message', fromCarol(12, 'hello'));
    expect(calls.inputs('markRead').at(-1)).toEqual(readUpTo(12));
    expect(unread()).toEqual({ carol: 0, bob: 0 });
  });

  it('another message while a mark is on its way starts it over, up to the newest', async () => {
    const { calls, realtime, actor, unread } = await openList([{ ...withCarol, unread: 1 }, withBob]);
    actor.send({ type: 'conversation.select', channel: withCarol.channel });
    await calls.answer('messages', [fromCarol(9)]);
    expect(calls.waiting('markRead')).toBe(1);
    realtime.emit(carolsTrade, 'new_message', fromCarol(10, 'again'));
    realtime.emit(userChannel, 'conversation', { ...withCarol, last_message: 'again', unread: 2 });
    expect(unread().carol).toBe(0);
    expect(calls.inputs('markRead')).toEqual([readUpTo(9), readUpTo(10), readUpTo(10)]);
    // The dropped ones' answers change nothing; the newest settles it.
    await calls.answer('markRead', { read_up_to: 9 });
    await calls.answer('markRead', { read_up_to: 10 });
    await calls.answer('markRead', { read_up_to: 10 });
    expect(unread().carol).toBe(0);
    expect(calls.inputs('markRead')).toHaveLength(3);
  });

  it('a mark that fails leaves 0 shown; the next load, still counting them, marks them again', async () => {
    const { calls, realtime, actor, unread } = await openList([{ ...withCarol, unread: 2 }, withBob]);
    actor.send({ type: 'conversation.select', channel: withCarol.channel });
    await calls.answer('messages', [fromCarol(9)]);
    await calls.fail('markRead');
    expect(unread().carol).toBe(0);
    realtime.accept(userChannel);
    await calls.answer('conversations', [{ ...withCarol, unread: 2 }, withBob]);
    expect(unread().carol).toBe(0);
    expect(calls.inputs('markRead')).toEqual([readUpTo(9), readUpTo(9)]);
  });

  it('opening a conversation with nothing unread tells the server nothing', async () => {
    const { calls, actor } = await openList();
    actor.send({ type: 'conversation.select', channel: withBob.channel });
    await calls.answer('messages', [chatMessage(5)]);
    expect(calls.inputs('markRead')).toEqual([]);
  });
});

describe('the /chat list: a page out of view marks nothing read', () => {
  it('a message arriving while the tab is in the background keeps its count; the tab in view again reads it, up to it', async () => {
    const { calls, realtime, actor, unread } = await openList();
    actor.send({ type: 'conversation.select', channel: withCarol.channel });
    await calls.answer('messages', [fromCarol(9)]);
    expect(calls.inputs('markRead')).toEqual([]);
    setVisibility('hidden');
    realtime.emit(carolsTrade, 'new_message', fromCarol(10, 'still there?'));
    realtime.emit(userChannel, 'conversation', { ...withCarol, last_message: 'still there?', unread: 1 });
    expect(unread()).toEqual({ carol: 1, bob: 0 });
    expect(calls.inputs('markRead')).toEqual([]);
    setVisibility('visible');
    expect(unread()).toEqual({ carol: 0, bob: 0 });
    expect(calls.inputs('markRead')).toEqual([readUpTo(10)]);
  });

  it('a page that starts in the background reads nothing until it comes into view', async () => {
    visibility = 'hidden';
    const { calls, actor, unread } = await openList([{ ...withCarol, unread: 2 }, withBob]);
    actor.send({ type: 'conversation.select', channel: withCarol.channel });
    await calls.answer('messages', [fromCarol(9)]);
    expect(unread().carol).toBe(2);
    expect(calls.inputs('markRead')).toEqual([]);
    setVisibility('visible');
    expect(unread().carol).toBe(0);
    expect(calls.inputs('markRead')).toEqual([readUpTo(9)]);
  });
});

describe('the /chat list: the "Open" filter', () => {
  const eve = conversationWith('eve', { ...facts.completed });
  const dan = conversationWith('dan', { ...facts.cancelled });
  const fay = conversationWith('fay', { ...facts.disputed });

  it('shows only the trades the lifecycle has not finished, from what the list holds (no reload); "All" shows every one', async () => {
    const { calls, actor, snapshot, shown } = await openList([withBob, eve, dan, fay, withCarol]);
    expect(selectFilter(snapshot())).toBe('all');
    expect(shown()).toEqual(['bob', 'eve', 'dan', 'fay', 'carol']);
    actor.send({ type: 'filter.change', filter: 'open' });
    expect(selectFilter(snapshot())).toBe('open');
    expect(shown()).toEqual(['bob', 'fay', 'carol']);
    expect(calls.inputs('conversations')).toHaveLength(1);
    actor.send({ type: 'filter.change', filter: 'all' });
    expect(shown()).toEqual(['bob', 'eve', 'dan', 'fay', 'carol']);
  });

  it('a trade that finishes leaves the open list live; one that opens joins it', async () => {
    const { realtime, actor, snapshot, shown } = await openList([withBob]);
    actor.send({ type: 'filter.change', filter: 'open' });
    realtime.emit(userChannel, 'conversation', withCarol);
    expect(shown()).toEqual(['carol', 'bob']);
    realtime.emit(userChannel, 'conversation', { ...withBob, ...facts.cancelled });
    realtime.emit(userChannel, 'conversation', { ...withCarol, ...facts.completed });
    expect(shown()).toEqual([]);
    expect(selectIsFilteredEmpty(snapshot())).toBe(true);
    actor.send({ type: 'filter.change', filter: 'all' });
    expect(selectIsFilteredEmpty(snapshot())).toBe(false);
  });
});

describe('the /chat list: what a row says', () => {
  it.each([
    ['awaitingPayment', 'Awaiting payment'],
    ['paid', 'Paid'],
    ['disputed', 'In dispute'],
    ['completed', 'Completed'],
    ['cancelled', 'Cancelled'],
  ] as const)('a trade %s reads "%s"', (stage, words) => {
    expect(stageWordsOf(facts[stage])).toBe(words);
  });

  it('counts unread messages in words for a screen reader', () => {
    expect(unreadLabelOf(1)).toBe('1 unread message');
    expect(unreadLabelOf(3)).toBe('3 unread messages');
  });
});
