import { SimulatedClock, createActor, type AnyActorRef, type AnyMachineSnapshot, type InspectionEvent } from 'xstate';
import type { Conversation } from '../../contracts/index.ts';
import { tradeChatMachine, type TradeChatInput } from '../../src/machines/tradeChat/tradeChat.machine.ts';
import {
  selectConversations,
  selectFilter,
  selectIsFilteredEmpty,
  selectIsListEmpty,
  selectIsListLoading,
  selectIsOffline,
  selectSearch,
  selectSelectedChannel,
  selectSelection,
  selectVisibleConversations,
} from '../../src/machines/tradeChat/tradeChat.selectors.ts';
import { conversationWith, facts, me, withBob, withCarol } from '../support/chat.ts';
import { isFinishedByTheRules } from '../support/tradeRules.ts';
import {
  Coverage,
  afterEvent,
  describePath,
  replay,
  scriptedActors,
  walk,
  type ActorCall,
  type ModelEvent,
  type ModelPath,
} from '../support/machines.ts';

/**
 * The chat screen's chart with every invoked actor scripted, the conversation chart included (its own walk
 * is tradeConversation.model.test.ts; the two together are tested in tests/machines/tradeChat.test.ts).
 * Only for the walk, the forwarding to the conversation does nothing: the graph's snapshots have no child
 * to send to. The replay runs the chart's own action.
 */
const srcs = ['loadConversations', 'markRead', 'pageVisibility', 'userChannel', 'watchConnection', 'tradeConversation'] as const;
const walked = tradeChatMachine.provide({ actions: { updateConversation: () => {} } });

/** The server's list: everything without a search, carol's for "car". */
const answer = (search: string): Conversation[] => (search === '' ? [withBob, withCarol] : [withCarol]);
const dave = conversationWith('dave', { channel: 'trade-dave', last_message: 'Trade opened' });
const debounced = afterEvent('searchDebounce', 'tradeChat.list.debouncing');

type Ctx = {
  conversations: Conversation[];
  search: string;
  filter: 'all' | 'open';
  channel: string | null;
  pageVisible: boolean;
  shownUpTo: number | null;
};
const listed = (context: Ctx, channel: string) => context.conversations.some((entry) => entry.channel === channel);

/** The list on its own: loads answered or failed, the search quietening down, reloads, a trade opened elsewhere. */
function listEvents(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const context = snapshot.context as Ctx;
  const list: ModelEvent[] = [];
  const first = snapshot.matches({ list: 'loading' }) && context.conversations.length === 0 && context.search === '';
  if (first && snapshot.children.userChannel) list.push({ type: 'xstate.error.actor.userChannel', error: new Error('refused') });
  if (first && snapshot.children.pageVisibility) list.push({ type: 'xstate.error.actor.pageVisibility', error: new Error('no document') });
  if (snapshot.matches({ list: 'loading' })) {
    list.push(
      { type: 'xstate.done.actor.loadConversations', output: answer(context.search) },
      { type: 'xstate.error.actor.loadConversations', error: new Error('Internet server error') },
    );
  }
  if (snapshot.matches({ list: 'debouncing' })) list.push(debounced);
  if (snapshot.matches({ list: 'ready' }) || snapshot.matches({ list: 'empty' })) {
    list.push({ type: 'search.change', value: context.search === '' ? 'car' : '' }, { type: 'realtime.subscribed' });
    if (!listed(context, dave.channel)) list.push({ type: 'realtime.conversation.received', conversation: dave });
  }
  return list;
}

/**
 * Choosing conversations: carol's while the first load runs (it waits, then opens) or once it is listed,
 * dave's (none of the trader's yet: it waits until his trade's entry arrives, or the load says no), switching,
 * going back, reloading, the open conversation failing, and what the list hears about the open one.
 */
function selectionEvents(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const context = snapshot.context as Ctx;
  const list: ModelEvent[] = [];
  if (snapshot.matches({ list: 'loading' })) list.push({ type: 'xstate.done.actor.loadConversations', output: answer('') });
  if (snapshot.matches({ selection: 'none' })) {
    list.push({ type: 'conversation.select', channel: withCarol.channel }, { type: 'conversation.select', channel: dave.channel });
  }
  if (snapshot.matches({ selection: 'waiting' })) {
    list.push({ type: 'conversation.close' });
    if (!listed(context, dave.channel)) list.push({ type: 'realtime.conversation.received', conversation: dave });
  }
  if (snapshot.matches({ selection: 'open' })) {
    const open = context.conversations.find((entry) => entry.channel === context.channel);
    list.push(
      { type: 'conversation.select', channel: context.channel! },
      { type: 'conversation.close' },
      { type: 'xstate.error.actor.conversation', error: new Error('a bug') },
    );
    // Carol's conversation is the one the list hears about (online, then a change it reports); bob's is switched to.
    if (open?.partner === 'carol') {
      list.push({ type: 'conversation.select', channel: withBob.channel });
      if (snapshot.matches({ list: 'ready' })) list.push({ type: 'realtime.subscribed' });
      if (!open.online) list.push({ type: 'realtime.conversation.received', conversation: { ...open, online: true } });
      else if (!open.buyer_paid)
        list.push({ type: 'conversation.changed', conversation: { ...open, ...facts.paid, last_message: 'paid' } });
    }
  }
  return list;
}

/** The connection on its own: pusher-js reporting its state, or the watch failing. */
function connectionEvents(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const list: ModelEvent[] = [{ type: 'realtime.connecting' }, { type: 'realtime.connected' }, { type: 'realtime.offline' }];
  if (snapshot.matches({ connection: 'connecting' }) && snapshot.children.connection) {
    list.push({ type: 'xstate.error.actor.connection', error: new Error('gone') });
  }
  return list;
}

/** Opened on ?channel=: the list brings it or not, or a live entry brings it; the trader may go back. */
function linkEvents(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const context = snapshot.context as Ctx;
  if (!snapshot.matches({ selection: 'waiting' })) return [];
  const list: ModelEvent[] = [{ type: 'conversation.close' }];
  if (snapshot.matches({ list: 'loading' })) {
    list.push(
      { type: 'xstate.done.actor.loadConversations', output: [withBob, withCarol] },
      { type: 'xstate.done.actor.loadConversations', output: [withBob] },
    );
  } else if (!listed(context, withCarol.channel)) {
    list.push({ type: 'realtime.conversation.received', conversation: withCarol });
  }
  return list;
}

/** Carol wrote twice before the list loaded; eve's trade was cancelled (the "Open" filter hides it). */
const carolUnread = { ...withCarol, unread: 2 };
const eve = conversationWith('eve', { ...facts.cancelled, last_message: 'eve cancelled the trade.' });
/** Carol writes again: her entry as the server publishes it, counting the message. */
const carolWrites = { ...withCarol, last_message: 'Are you there?', unread: 1 };
/** Bob writes while carol's conversation is open. */
const bobWrites = { ...withBob, last_message: 'Sent', unread: 1 };
/** Bob's trade finishes while the list shows only open ones. */
const bobCancelled = { ...withBob, ...facts.cancelled, last_message: 'bob cancelled the trade.' };

/**
 * Unread counts and the filter: carol's conversation opened with messages unread (marked read once her chart shows
 * messages written to the trader, up to the newest shown; the mark answered or failing), a message arriving in it
 * while it is open (even while a mark is on its way), her chart's own report (which knows no counts), bob writing
 * meanwhile, a reload bringing carol's count back, and "All" / "Open".
 */
function readingEvents(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const context = snapshot.context as Ctx;
  const list: ModelEvent[] = [];
  const entryOf = (channel: string | null) => context.conversations.find((entry) => entry.channel === channel);
  if (snapshot.matches({ list: 'loading' })) list.push({ type: 'xstate.done.actor.loadConversations', output: [carolUnread, withBob, eve] });
  if (snapshot.matches({ reading: 'marking' })) {
    list.push({ type: 'xstate.done.actor.markRead', output: { read_up_to: 7 } }, { type: 'xstate.error.actor.markRead', error: new Error('Internet server error') });
  }
  if (snapshot.matches({ selection: 'none' }) && snapshot.matches({ list: 'ready' })) {
    list.push({ type: 'conversation.select', channel: withCarol.channel }, { type: 'filter.change', filter: context.filter === 'all' ? 'open' : 'all' });
  }
  if (snapshot.matches({ selection: 'open' }) && entryOf(context.channel)?.partner === 'carol') {
    list.push({ type: 'conversation.close' });
    // Her chart shows what was written to the trader (up to message 7), which the mark may reach.
    if (context.shownUpTo === null) list.push({ type: 'conversation.shown', channel: withCarol.channel, upTo: 7 });
    if (entryOf(context.channel)?.last_message !== carolWrites.last_message) {
      list.push({ type: 'realtime.conversation.received', conversation: carolWrites });
    } else {
      // Her chart reports what it heard, with the count it was opened with.
      list.push({ type: 'conversation.changed', conversation: { ...carolUnread, last_message: 'reported' } });
    }
    if (entryOf(withBob.channel)?.unread === 0) list.push({ type: 'realtime.conversation.received', conversation: bobWrites });
    else if (context.filter === 'open' && entryOf(withBob.channel)?.status === 'pending') {
      list.push({ type: 'realtime.conversation.received', conversation: bobCancelled });
    }
    if (snapshot.matches({ list: 'ready' }) && snapshot.matches({ reading: 'idle' })) list.push({ type: 'realtime.subscribed' });
  }
  return list;
}

/**
 * Out of view, and how far a mark reaches: carol's conversation open, her chart showing message 7 and then 9 (before
 * or after the list counts it: carolWrites), a stale report of bob's, and the page going out of view and back.
 */
function visibilityEvents(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const context = snapshot.context as Ctx;
  const list: ModelEvent[] = [];
  const open = context.conversations.find((entry) => entry.channel === context.channel);
  if (snapshot.matches({ list: 'loading' })) list.push({ type: 'xstate.done.actor.loadConversations', output: [carolUnread, withBob] });
  if (snapshot.matches({ reading: 'marking' })) list.push({ type: 'xstate.done.actor.markRead', output: { read_up_to: context.shownUpTo } });
  if (snapshot.matches({ selection: 'none' }) && snapshot.matches({ list: 'ready' })) list.push({ type: 'conversation.select', channel: withCarol.channel });
  if (!snapshot.matches({ selection: 'open' }) || open?.partner !== 'carol') return list;
  if (context.shownUpTo === null) list.push({ type: 'conversation.shown', channel: withCarol.channel, upTo: 7 });
  else if (context.shownUpTo === 7) {
    list.push({ type: 'conversation.shown', channel: withCarol.channel, upTo: 9 }, { type: 'conversation.shown', channel: withBob.channel, upTo: 9 });
  }
  if (open.last_message !== carolWrites.last_message) list.push({ type: 'realtime.conversation.received', conversation: carolWrites });
  if (!context.pageVisible) list.push({ type: 'page.visible' });
  else if (context.shownUpTo === 7) list.push({ type: 'page.hidden' });
  return list;
}

const scenarios = [
  { name: 'list', events: listEvents, input: { username: me, channel: null } },
  { name: 'selection', events: selectionEvents, input: { username: me, channel: null } },
  { name: 'connection', events: connectionEvents, input: { username: me, channel: null } },
  { name: 'opened on ?channel=', events: linkEvents, input: { username: me, channel: withCarol.channel } },
  { name: 'unread and the filter', events: readingEvents, input: { username: me, channel: null } },
  { name: 'out of view, and how far a mark reaches', events: visibilityEvents, input: { username: me, channel: null } },
] satisfies { name: string; events: (snapshot: AnyMachineSnapshot) => ModelEvent[]; input: TradeChatInput }[];

const models = scenarios.map((scenario) => ({ ...scenario, model: walk(walked, { events: scenario.events, input: scenario.input }) }));

/** The list after a live entry (docs/api.md "Chat calls"): to the top, replacing its old self; a new one only if it matches the search. */
function upserted(list: Conversation[], entry: Conversation, search: string): Conversation[] {
  const known = list.some((item) => item.channel === entry.channel);
  if (!known && !entry.partner.toLowerCase().includes(search.toLowerCase())) return list;
  return [entry, ...list.filter((item) => item.channel !== entry.channel)];
}

async function run(path: ModelPath, input: TradeChatInput, coverage?: Coverage) {
  const fakes = scriptedActors(srcs);
  const clock = new SimulatedClock();
  /** What the open conversation was told about its trade (the scripted child takes it and does nothing). */
  const updates: Conversation[] = [];
  const inspect = (inspection: InspectionEvent) => {
    coverage?.inspect(inspection);
    if (
      inspection.type === '@xstate.event' &&
      (inspection.actorRef as AnyActorRef).id === 'conversation' &&
      inspection.event.type === 'conversation.updated'
    ) {
      updates.push((inspection.event as unknown as { conversation: Conversation }).conversation);
    }
  };
  const actor = createActor(tradeChatMachine.provide({ actors: fakes.actors as never }), { input, clock, inspect }).start();

  // The oracle, from the spec's Chat screen and docs/api.md "Chat calls", written without the chart.
  type List = 'loading' | 'debouncing' | 'ready' | 'empty';
  let list: List = 'loading';
  let conversations: Conversation[] = [];
  let search = '';
  let channel = input.channel;
  let selection: 'none' | 'waiting' | 'open' = channel ? 'waiting' : 'none';
  let connection: 'connecting' | 'live' | 'offline' = 'connecting';
  let filter: 'all' | 'open' = 'all';
  /** Whether the server is being told the open conversation was read. */
  let reading: 'idle' | 'marking' = 'idle';
  /** The page in view (as the browser says; in view until it says); the newest message to the trader shown; the last mark's reach. */
  let pageVisible = true;
  let shownUpTo: number | null = null;
  let readUpTo: number | null = null;
  const forwarded: Conversation[] = [];
  const expectedCalls: ActorCall[] = [
    { id: 'userChannel', input: { username: me } },
    { id: 'loadConversations', input: { search: '' } },
    { id: 'connection', input: undefined },
    { id: 'pageVisibility', input: undefined },
  ];
  const load = () => {
    list = 'loading';
    expectedCalls.push({ id: 'loadConversations', input: { search } });
  };
  /** Another conversation asked for: nothing of it shown or marked yet. */
  const choose = (next: string | null) => {
    channel = next;
    shownUpTo = null;
    readUpTo = null;
  };
  const open = (next: string) => {
    choose(next);
    selection = 'open';
    expectedCalls.push({
      id: 'conversation',
      input: { conversation: conversations.find((entry) => entry.channel === next), username: me },
    });
  };
  const settled = () => list === 'ready' || list === 'empty';
  /** A conversation asked for opens once listed; one still missing when no load is coming is none of the trader's. */
  const checkWaiting = () => {
    if (selection !== 'waiting') return;
    if (conversations.some((entry) => entry.channel === channel)) open(channel!);
    else if (settled()) {
      selection = 'none';
      choose(null);
    }
  };
  const settleList = () => {
    list = conversations.length > 0 ? 'ready' : 'empty';
    checkWaiting();
  };
  /**
   * The open conversation is being read while the page is in view and it shows a message written to the trader, if
   * its entry counts unread or a newer message shows than the last mark reached: the count is cleared and the server
   * told, up to the newest shown and no further (once more, starting over, when more arrived while it was being told).
   */
  const readOpen = () => {
    const open = conversations.find((entry) => entry.channel === channel);
    if (selection !== 'open' || !open || !pageVisible || shownUpTo === null) return;
    if (open.unread === 0 && (readUpTo === null || shownUpTo <= readUpTo)) return;
    conversations = conversations.map((entry) => (entry === open ? { ...entry, unread: 0 } : entry));
    reading = 'marking';
    readUpTo = shownUpTo;
    expectedCalls.push({ id: 'markRead', input: { channel, upTo: shownUpTo } });
  };
  const hear = (entry: Conversation) => {
    conversations = upserted(conversations, entry, search);
    if (list === 'empty' && conversations.length > 0) list = 'ready';
    if (selection === 'open' && entry.channel === channel && conversations.some((item) => item.channel === channel)) forwarded.push(entry);
    checkWaiting();
  };

  await replay(
    actor,
    path,
    fakes,
    (snapshot, step) => {
      const event = step.event as ModelEvent & { output: Conversation[]; value: string; channel: string; conversation: Conversation; upTo: number };
      switch (event.type) {
        case 'xstate.done.actor.loadConversations': {
          conversations = event.output;
          const reloaded = conversations.find((entry) => entry.channel === channel);
          if (selection === 'open' && reloaded) forwarded.push(reloaded);
          settleList();
          break;
        }
        case 'xstate.error.actor.loadConversations':
          settleList();
          break;
        case 'search.change':
          search = event.value;
          list = 'debouncing';
          break;
        case debounced.type:
        case 'realtime.subscribed':
          load();
          break;
        case 'realtime.conversation.received':
          hear(event.conversation);
          break;
        case 'conversation.changed': {
          // The open conversation's own report: the list takes it, nothing goes back to it; its count stays the list's.
          const listed = conversations.find((entry) => entry.channel === event.conversation.channel);
          conversations = upserted(conversations, { ...event.conversation, unread: listed?.unread ?? event.conversation.unread }, search);
          break;
        }
        case 'filter.change':
          filter = (event as unknown as { filter: 'all' | 'open' }).filter;
          break;
        case 'conversation.shown':
          // Only the open conversation's report counts; one of another (a chart on its way out) changes nothing.
          if (selection === 'open' && event.channel === channel) shownUpTo = Math.max(event.upTo, shownUpTo ?? 0);
          break;
        case 'page.hidden':
          pageVisible = false;
          break;
        case 'page.visible':
          pageVisible = true;
          break;
        case 'xstate.done.actor.markRead':
        case 'xstate.error.actor.markRead':
          reading = 'idle';
          break;
        case 'conversation.select':
          if (event.channel === channel) break;
          if (conversations.some((entry) => entry.channel === event.channel)) open(event.channel);
          else {
            choose(event.channel);
            selection = 'waiting';
            checkWaiting();
          }
          break;
        case 'conversation.close':
        case 'xstate.error.actor.conversation':
          choose(null);
          selection = 'none';
          break;
        case 'realtime.connected':
          connection = 'live';
          break;
        case 'realtime.connecting':
          if (connection === 'live') connection = 'offline';
          break;
        case 'realtime.offline':
        case 'xstate.error.actor.connection':
          connection = 'offline';
          break;
      }

      readOpen();

      const s = snapshot as never;
      expect(selectConversations(s), 'the list').toEqual(conversations);
      const shown = filter === 'open' ? conversations.filter((entry) => !isFinishedByTheRules(entry)) : conversations;
      expect(selectFilter(s)).toBe(filter);
      expect(selectVisibleConversations(s), 'what the list shows').toEqual(shown);
      expect(selectIsFilteredEmpty(s), '"No open trades."').toBe(conversations.length > 0 && shown.length === 0);
      expect(fakes.isRunning('markRead'), 'the server is told it was read').toBe(reading === 'marking');
      expect(selectSearch(s)).toBe(search);
      expect(selectIsListLoading(s), 'loading').toBe(list === 'loading');
      expect(snapshot.matches({ list: 'debouncing' }), 'waiting for quiet').toBe(list === 'debouncing');
      expect(selectIsListEmpty(s), '"No conversations yet."').toBe(list === 'empty');
      expect(selectSelection(s)).toBe(selection);
      expect(selectSelectedChannel(s)).toBe(channel);
      expect(selectIsOffline(s), 'the banner').toBe(connection === 'offline');
      expect(fakes.isRunning('loadConversations'), 'a list load runs').toBe(list === 'loading');
      expect(fakes.isRunning('conversation'), 'a conversation is open').toBe(selection === 'open');
      expect(updates, 'what the open conversation heard').toEqual(forwarded);
    },
    { clock },
  );

  expect(fakes.calls).toEqual(expectedCalls);
  actor.stop();
}

describe('tradeChat: every path through the chart', () => {
  for (const { name, model, input } of models) {
    describe(name, () => {
      it('has a graph to walk', () => {
        expect(model.paths.length).toBeGreaterThanOrEqual(model.states);
      });
      it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
        await run(path, input);
      });
    });
  }

  it('reaches every state and takes every transition of the chart', { timeout: 120_000 }, async () => {
    const coverage = new Coverage(tradeChatMachine);
    for (const { model, input } of models) for (const path of model.paths) await run(path, input, coverage);
    console.log(`${coverage.summary()} (${models.map(({ name, model }) => `${name}: ${model.paths.length} paths`).join('; ')})`);
    expect(coverage.allTransitions).toEqual(
      expect.arrayContaining([
        'tradeChat.list.debouncing —xstate.after.searchDebounce.tradeChat.list.debouncing#0→ tradeChat.list.loading',
        'tradeChat.selection.waiting —always#0→ tradeChat.selection.open',
        'tradeChat.connection.offline —realtime.connected#0→ tradeChat.connection.live',
      ]),
    );
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices what the walk leaves out', { timeout: 120_000 }, async () => {
    const coverage = new Coverage(tradeChatMachine);
    const leftOut = (path: ModelPath) =>
      path.steps.some(({ event }) => event.type === 'realtime.offline' || event.type === 'realtime.connecting');
    for (const { model, input } of models)
      for (const path of model.paths.filter((path) => !leftOut(path))) await run(path, input, coverage);
    expect(coverage.missingTransitions()).toEqual([
      'tradeChat.connection.connecting —realtime.offline#0→ tradeChat.connection.offline',
      'tradeChat.connection.live —realtime.connecting#0→ tradeChat.connection.offline',
      'tradeChat.connection.live —realtime.offline#0→ tradeChat.connection.offline',
      'tradeChat.connection.offline —realtime.connected#0→ tradeChat.connection.live',
    ]);
  });
});
