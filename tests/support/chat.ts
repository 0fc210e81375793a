/**
 * Chat answers for the web tests (conversations, messages, realtime payloads), shaped by the zod contracts,
 * and fakes of the chat service and of the pusher-js connection that let a test speak for the server.
 */
import type { ChatMessage, Conversation, TradeSummary } from '../../contracts/index.ts';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import type { ChatService } from '../../src/services/chat.ts';
import type { ConnectionState, RealtimeService, SubscriptionCallbacks } from '../../src/services/realtime.ts';
import type { TradeService } from '../../src/services/trades.ts';
import { flush } from './machines.ts';
import { TRADE_FACTS } from './tradeRules.ts';

/** The signed-in trader of the chat tests. */
export const me = 'ada';

/** A trade's facts in each of its states (tests/support/tradeRules.ts). */
export const facts = TRADE_FACTS;

export function conversationWith(partner: string, overrides: Partial<Conversation> = {}): Conversation {
  return {
    channel: `trade-${partner}`,
    partner,
    partner_type: 'seller',
    last_message: `Trade opened with ${partner}`,
    ...facts.awaitingPayment,
    online: false,
    payer_account: null,
    disputed_at: null,
    resolution: null,
    my_rating: null,
    coin__ticker: 'BTC',
    coin__decimal_places: 8,
    amount_crypto: '0.01500000',
    trading_amount: '970.00',
    currency__code: 'EUR',
    unread: 0,
    ...overrides,
  };
}

/** Ada buys from bob (bob is the seller), sells to carol (carol is the buyer). */
export const withBob = conversationWith('bob', { partner_type: 'seller', online: true });
export const withCarol = conversationWith('carol', { partner_type: 'buyer' });

/**
 * The `summary` answer for a conversation: 0.00108761 BTC for 100.00 EUR by SEPA at 1 USD = 0.9384 EUR, this
 * trader's role by the conversation, the payment window ending at `pay_by`.
 */
export function summaryOf(conversation: Conversation, pay_by: string, overrides: Partial<TradeSummary> = {}): TradeSummary {
  return {
    channel: conversation.channel,
    role: conversation.partner_type === 'seller' ? 'buyer' : 'seller',
    coin__ticker: 'BTC',
    coin__decimal_places: 8,
    amount_crypto: '0.00108761',
    escrow_crypto: '0.00109860',
    trading_amount: '100.00',
    currency__code: 'EUR',
    rate: '0.9384',
    payment_method: 'SEPA',
    created: new Date(Date.parse(pay_by) - 30 * 60_000).toISOString(),
    pay_by,
    ...overrides,
  };
}

export function chatMessage(id: number, overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id,
    sender: 'bob',
    recipient: me,
    text: `message ${id}`,
    created: `2026-03-05T14:${String(id % 60).padStart(2, '0')}:00.000Z`,
    channel: withBob.channel,
    ...overrides,
  };
}

export const systemMessage = (id: number, text: string, channel = withBob.channel): ChatMessage =>
  chatMessage(id, { sender: null, recipient: 'all', text, channel });

// ---- Fake services ---------------------------------------------------------------------------------

type Call = { name: keyof ChatService | 'act' | 'rate' | 'releaseProof' | 'release'; input: unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void };

/**
 * The chat service and the trade actions, each call waiting until the test answers it. `answer` settles the
 * oldest unanswered call of that name and lets the charts take it.
 */
export function fakeCalls() {
  const calls: Call[] = [];
  const record = (name: Call['name']) => (input: unknown) =>
    new Promise((resolve, reject) => void calls.push({ name, input, resolve, reject }));
  const take = (name: Call['name'], latest = false) => {
    const matching = calls.map((call, index) => ({ call, index })).filter(({ call }) => call.name === name);
    const index = (latest ? matching.at(-1) : matching[0])?.index ?? -1;
    if (index < 0) throw new Error(`no ${name} call is waiting`);
    return calls.splice(index, 1)[0]!;
  };
  const made: { name: Call['name']; input: unknown }[] = [];
  const tracking = (name: Call['name']) => (input: unknown) => {
    made.push({ name, input });
    return record(name)(input);
  };
  return {
    chat: {
      conversations: tracking('conversations'),
      messages: tracking('messages'),
      summary: tracking('summary'),
      markRead: tracking('markRead'),
      send: tracking('send'),
      typing: tracking('typing'),
    } as unknown as ChatService,
    trades: { act: tracking('act'), rate: tracking('rate'), releaseProof: tracking('releaseProof'), release: tracking('release') } as unknown as TradeService,
    /** Every call made so far, answered or not, in order. */
    made,
    /** The inputs of the calls named `name`. */
    inputs: (name: Call['name']) => made.filter((call) => call.name === name).map((call) => call.input),
    waiting: (name: Call['name']) => calls.filter((call) => call.name === name).length,
    async answer(name: Call['name'], value: unknown) {
      take(name).resolve(value);
      await flush();
    },
    /** Answers the newest call of that name (an older one was dropped by the chart). */
    async answerLatest(name: Call['name'], value: unknown) {
      take(name, true).resolve(value);
      await flush();
    },
    async fail(name: Call['name'], error: unknown = new Error('Internet server error')) {
      take(name).reject(error);
      await flush();
    },
  };
}

/**
 * The pusher-js connection as the charts use it (src/services/realtime.ts), spoken for by the test: it
 * emits events on a channel, accepts subscriptions, and drops and restores the connection as pusher-js
 * does (after a reconnect every channel is subscribed again, and each subscription hears it accepted).
 */
export function fakeRealtime(initial: ConnectionState = 'connecting') {
  const subscriptions = new Map<string, Set<SubscriptionCallbacks>>();
  const watchers = new Set<(state: ConnectionState) => void>();
  let state = initial;
  const service = {
    subscribe(channel: string, callbacks: SubscriptionCallbacks) {
      const set = subscriptions.get(channel) ?? new Set();
      set.add(callbacks);
      subscriptions.set(channel, set);
      return () => void set.delete(callbacks);
    },
    watchConnection(listener: (state: ConnectionState) => void) {
      watchers.add(listener);
      listener(state);
      return () => void watchers.delete(listener);
    },
    disconnect() {},
  } as unknown as RealtimeService;
  const setState = (next: ConnectionState) => {
    state = next;
    for (const watcher of [...watchers]) watcher(next);
  };
  return {
    service,
    /** How many subscriptions listen on `channel` now. */
    listeners: (channel: string) => subscriptions.get(channel)?.size ?? 0,
    channels: () => [...subscriptions].filter(([, set]) => set.size > 0).map(([channel]) => channel),
    emit(channel: string, event: string, data: unknown) {
      for (const callbacks of [...(subscriptions.get(channel) ?? [])]) callbacks.events[event]?.(data);
    },
    /** The server accepts every subscription on `channel` (or on every channel). */
    accept(channel?: string) {
      for (const [name, set] of subscriptions)
        if (!channel || name === channel) for (const callbacks of [...set]) callbacks.onSubscribed?.();
    },
    setState,
    /** The socket comes back: connected, then every channel subscribed again and accepted. */
    reconnect() {
      setState('connecting');
      setState('connected');
      this.accept();
    },
  };
}

/** The flow dependencies the chat binds, with the fakes above and a recorded toast list. */
export function chatDeps(calls = fakeCalls(), realtime = fakeRealtime()) {
  const notices: unknown[] = [];
  const deps = {
    chat: calls.chat,
    trades: calls.trades,
    realtime: realtime.service,
    currentUsername: () => me,
    notify: (notice: unknown) => void notices.push(notice),
    navigate: () => {},
  } as unknown as FlowDeps;
  return { deps, calls, realtime, notices };
}
