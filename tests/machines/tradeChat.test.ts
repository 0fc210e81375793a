import { readFileSync } from 'node:fs';
import { SimulatedClock, createActor, fromCallback, fromPromise, type AnyActorRef } from 'xstate';
import type { ChatMessage, Conversation, TradeFacts } from '../../contracts/index.ts';
import { bindTradeChat, bindTradeConversation } from '../../src/machines/tradeChat/tradeChat.actors.ts';
import { chatRules, roleOf } from '../../src/machines/tradeChat/tradeChat.rules.ts';
import {
  previewOf,
  selectActionButtons,
  selectCanConfirmRelease,
  selectCanSend,
  selectCanSubmitDispute,
  selectCanWrite,
  selectConversation,
  selectConversationRef,
  selectConversations,
  selectDialog,
  selectDraft,
  selectIsCheckingRelease,
  selectIsListEmpty,
  selectIsOffline,
  selectMessages,
  selectPaidFrom,
  selectPaymentWindow,
  selectReasonError,
  selectReleaseProblem,
  selectReleaseProof,
  selectSelection,
  selectTradeSummary,
  selectTypingLine,
} from '../../src/machines/tradeChat/tradeChat.selectors.ts';
import {
  tradeConversationMachine,
  type ConversationReport,
  type TradeConversationEvent,
} from '../../src/machines/tradeChat/tradeConversation.machine.ts';
import { ApiError } from '../../src/services/api.ts';
import { chatDeps, chatMessage, conversationWith, facts, me, summaryOf, systemMessage, withBob, withCarol } from '../support/chat.ts';
import { flush } from '../support/machines.ts';
import { buttonLabelsByTheRules, roleAgainst } from '../support/tradeRules.ts';

/** The named delays, shrunk: the tests step a simulated clock by exactly these. */
const TYPING_THROTTLE = 50;
const TYPING_VISIBLE = 150;
const SEARCH_DEBOUNCE = 500;
const bobChannel = `private-${withBob.channel}`;
const userChannel = `private-user-${me}`;

/** One conversation on its own (as the chat screen invokes it), its reports to the screen recorded. */
async function openConversation(conversation: Conversation = withBob, { load = [] as ChatMessage[] | null } = {}) {
  const harness = chatDeps();
  const reports: Conversation[] = [];
  const clock = new SimulatedClock();
  const actor = createActor(
    bindTradeConversation(harness.deps).provide({
      delays: { typingThrottle: TYPING_THROTTLE, typingVisible: TYPING_VISIBLE },
      actions: { reportConversation: ({ context }) => void reports.push(context.conversation), reportShown: () => {} },
    }),
    { input: { conversation, username: me }, clock },
  ).start();
  if (load) await harness.calls.answer('messages', load);
  const send = (event: TradeConversationEvent) => actor.send(event);
  const snapshot = () => actor.getSnapshot();
  const labels = () => selectActionButtons(snapshot()).map((button) => button.label);
  return { ...harness, actor, reports, clock, send, snapshot, labels };
}

describe('the chat rules (tradeChat.rules.ts)', () => {
  it('partner_type is the partner’s role: a conversation with a seller is the buyer’s', () => {
    expect(roleOf({ partner_type: 'seller' })).toBe('buyer');
    expect(roleOf({ partner_type: 'buyer' })).toBe('seller');
  });

  it.each([
    ['a word', 'hello', 'pending', true],
    ['text with spaces around it', '  hello  ', 'pending', true],
    ['nothing', '', 'pending', false],
    ['only spaces and newlines', '  \n\t ', 'pending', false],
    ['2,000 characters', 'x'.repeat(2000), 'pending', true],
    ['2,001 characters', 'x'.repeat(2001), 'pending', false],
    ['a word on a completed trade', 'hello', 'completed', false],
    ['a word on a cancelled trade', 'hello', 'cancelled', false],
  ] as const)('canSend: %s on a %s trade -> %s', (_, text, status, expected) => {
    expect(chatRules.canSend(undefined, { text, status })).toBe(expected);
  });

  it('a dispute needs a reason that is not blank', () => {
    expect(chatRules.isReasonWritten(undefined, { reason: '' })).toBe(false);
    expect(chatRules.isReasonWritten(undefined, { reason: '   ' })).toBe(false);
    expect(chatRules.isReasonWritten(undefined, { reason: 'No payment arrived' })).toBe(true);
  });

  it.each(['tradeChat', 'tradeConversation', 'tradeRating'])(
    '%s imports only xstate, types and the charts\' shared helpers (the lifecycle chart is bound, not imported), so it loads in the Stately visualizer as it is',
    (chart) => {
      const source = readFileSync(`src/machines/tradeChat/${chart}.machine.ts`, 'utf8');
      const imports = source.split('\n').filter((line) => line.startsWith('import '));
      const allowed = (line: string) =>
        line.startsWith('import type ') || line.endsWith("from 'xstate';") || /from '\.\.\/shared\/\w+\.ts';$/.test(line);
      expect(imports.filter((line) => !allowed(line))).toEqual([]);
    },
  );

  it('the bare chart neither follows the lifecycle nor decides an action: every use starts from tradeConversationLogic', () => {
    const waiting = fromPromise(() => new Promise<never>(() => {}));
    const calls = {
      loadMessages: waiting,
      sendMessage: waiting,
      sendTyping: waiting,
      performAction: waiting,
      tradeChannel: fromCallback(() => {}),
    };
    const start = (chart: typeof tradeConversationMachine) => {
      const bare = createActor(chart.provide({ actors: calls as never }), { input: { conversation: withBob, username: me } });
      const errors: unknown[] = [];
      bare.subscribe({ error: (error) => void errors.push(error) });
      bare.start();
      return { bare, errors };
    };
    const unbound = start(tradeConversationMachine);
    expect(unbound.errors).toHaveLength(1);
    expect(String(unbound.errors[0])).toMatch(/followLifecycle is bound/);

    const followingNothing = start(tradeConversationMachine.provide({ actions: { followLifecycle: () => {}, tick: () => {} } }));
    followingNothing.bare.send({ type: 'trade.act', action: 'cancel' });
    expect(followingNothing.errors).toHaveLength(1);
    expect(String(followingNothing.errors[0])).toMatch(/canTakeAction is bound/);
  });
});

describe('a conversation: messages', () => {
  it('subscribes to the trade channel and loads the messages, oldest first', async () => {
    const { realtime, calls, snapshot } = await openConversation(withBob, { load: null });
    expect(realtime.listeners(bobChannel)).toBe(1);
    expect(calls.inputs('messages')).toEqual([{ channel: withBob.channel }]);
    await calls.answer('messages', [chatMessage(1), chatMessage(2, { sender: me, recipient: 'bob' })]);
    expect(selectMessages(snapshot()).map((message) => message.id)).toEqual([1, 2]);
  });

  it.each([
    ['for everyone (a system message)', systemMessage(10, 'Trade opened'), true],
    ['to this trader', chatMessage(11, { sender: 'bob', recipient: me }), true],
    ['from this trader', chatMessage(12, { sender: me, recipient: 'bob' }), true],
    ['between two others', chatMessage(13, { sender: 'bob', recipient: 'carol' }), false],
  ])('a new_message %s shows: %s', async (_, message, shows) => {
    const { realtime, snapshot, reports } = await openConversation();
    realtime.emit(bobChannel, 'new_message', message);
    expect(selectMessages(snapshot())).toEqual(shows ? [message] : []);
    expect(
      reports.map((entry) => entry.last_message),
      'the list preview follows',
    ).toEqual(shows ? [message.text] : []);
  });

  it('a message heard twice shows once: the system message of a trade event is also a new_message', async () => {
    const { realtime, snapshot } = await openConversation(withBob, { load: [chatMessage(1)] });
    const paidNotice = systemMessage(5, 'ada marked the payment as sent.');
    realtime.emit(bobChannel, 'payment_marked', { channel: withBob.channel, ...facts.paid, message: paidNotice });
    realtime.emit(bobChannel, 'new_message', paidNotice);
    realtime.emit(bobChannel, 'new_message', chatMessage(1));
    expect(selectMessages(snapshot()).map((message) => message.id)).toEqual([1, 5]);
  });

  it('drops payloads that are not what the contract says', async () => {
    const { realtime, snapshot } = await openConversation();
    realtime.emit(bobChannel, 'new_message', { id: 'x', text: 'hi' });
    realtime.emit(bobChannel, 'payment_marked', { channel: withBob.channel, status: 'paid' });
    expect(selectMessages(snapshot())).toEqual([]);
    expect(snapshot().matches({ trade: { pending: 'awaitingPayment' } })).toBe(true);
  });

  it('each acceptance of the subscription (again after a reconnect) reloads the messages, keeping what arrived live', async () => {
    const { realtime, calls, snapshot } = await openConversation(withBob, { load: [chatMessage(1)] });
    realtime.emit(bobChannel, 'new_message', chatMessage(3));
    realtime.reconnect();
    expect(calls.inputs('messages')).toHaveLength(2);
    await calls.answer('messages', [chatMessage(1), chatMessage(2)]);
    expect(
      selectMessages(snapshot()).map((message) => message.id),
      'the missed message 2 is back, in order',
    ).toEqual([1, 2, 3]);
  });

  it('a failed load shows no message of its own and the chat goes on', async () => {
    const { calls, snapshot, notices, realtime } = await openConversation(withBob, { load: null });
    await calls.fail('messages');
    expect(snapshot().matches({ messages: 'ready' })).toBe(true);
    expect(notices).toEqual([]);
    realtime.emit(bobChannel, 'new_message', chatMessage(4));
    expect(selectMessages(snapshot())).toHaveLength(1);
  });

  it('leaving the conversation ends its subscription', async () => {
    const { realtime, actor } = await openConversation();
    actor.stop();
    expect(realtime.listeners(bobChannel)).toBe(0);
  });
});

describe('a conversation: typing', () => {
  it('shows "{username} is typing..." for typingVisible, restarted by each notice', async () => {
    const { realtime, clock, snapshot } = await openConversation();
    expect(selectTypingLine(snapshot())).toBeNull();
    realtime.emit(bobChannel, 'typing', { username: 'bob' });
    expect(selectTypingLine(snapshot())).toBe('bob is typing...');
    clock.increment(TYPING_VISIBLE - 10);
    realtime.emit(bobChannel, 'typing', { username: 'bob' });
    clock.increment(TYPING_VISIBLE - 1);
    expect(selectTypingLine(snapshot()), 'restarted by the second notice').toBe('bob is typing...');
    clock.increment(1);
    expect(selectTypingLine(snapshot())).toBeNull();
  });

  it("ignores this trader's own notices", async () => {
    const { realtime, snapshot } = await openConversation();
    realtime.emit(bobChannel, 'typing', { username: me });
    expect(selectTypingLine(snapshot())).toBeNull();
  });

  it('hides the line when the typist’s message arrives', async () => {
    const { realtime, snapshot } = await openConversation();
    realtime.emit(bobChannel, 'typing', { username: 'bob' });
    realtime.emit(bobChannel, 'new_message', systemMessage(3, 'not from bob'));
    expect(selectTypingLine(snapshot()), 'a system message does not').toBe('bob is typing...');
    realtime.emit(bobChannel, 'new_message', chatMessage(4, { sender: 'bob' }));
    expect(selectTypingLine(snapshot())).toBeNull();
  });

  it('tells the partner at the first keystroke, then at most once per typingThrottle while the trader types on; nothing for a blank input', async () => {
    const { send, calls, clock } = await openConversation();
    send({ type: 'message.change', value: ' ' });
    expect(calls.inputs('typing')).toEqual([]);
    send({ type: 'message.change', value: 'h' });
    expect(calls.inputs('typing'), 'at once, not after a pause').toEqual([{ channel: withBob.channel }]);
    send({ type: 'message.change', value: 'he' });
    clock.increment(TYPING_THROTTLE - 1);
    send({ type: 'message.change', value: 'hel' });
    expect(calls.inputs('typing')).toHaveLength(1);
    clock.increment(1);
    expect(calls.inputs('typing'), 'typed on meanwhile: the next goes out as the pause ends').toHaveLength(2);
    clock.increment(TYPING_THROTTLE);
    expect(calls.inputs('typing'), 'nothing typed since: nothing more').toHaveLength(2);
    send({ type: 'message.change', value: 'hell' });
    expect(calls.inputs('typing')).toHaveLength(3);
    await calls.fail('typing');
    await calls.answer('typing', { sent: true });
  });

  it('typing steadily (a key every 3/10 of the pause) tells the partner once per typingThrottle, from the first key on', async () => {
    const { send, calls, clock } = await openConversation();
    const key = (TYPING_THROTTLE * 3) / 10;
    const sentAt: number[] = [];
    // The clock moves a millisecond at a time, so each pause ends exactly when it is due.
    for (let elapsed = 0; elapsed < 4 * TYPING_THROTTLE; elapsed += 1) {
      if (elapsed % key === 0) send({ type: 'message.change', value: 'x'.repeat(elapsed / key + 1) });
      while (sentAt.length < calls.inputs('typing').length) sentAt.push(elapsed);
      clock.increment(1);
    }
    // One at once, then one as each pause ends while keys keep coming: the partner's 1.5 s line never goes out.
    expect(sentAt).toEqual([0, TYPING_THROTTLE, 2 * TYPING_THROTTLE, 3 * TYPING_THROTTLE]);
  });

  it('no notice trails a message sent meanwhile', async () => {
    const { send, calls, clock } = await openConversation();
    send({ type: 'message.change', value: 'hi' });
    send({ type: 'message.change', value: 'hi!' });
    send({ type: 'message.send' });
    expect(calls.inputs('send')).toEqual([{ channel: withBob.channel, text: 'hi!' }]);
    clock.increment(TYPING_THROTTLE);
    expect(calls.inputs('typing')).toHaveLength(1);
  });
});

describe('a conversation: the trade summary', () => {
  const SECOND = 1000;
  afterEach(() => vi.useRealTimers());

  it('loads the trade’s terms once; a failed load is asked again when the channel is live again', async () => {
    const { calls, realtime, snapshot } = await openConversation();
    expect(calls.inputs('summary')).toEqual([{ channel: withBob.channel }]);
    await calls.fail('summary');
    expect(selectTradeSummary(snapshot())).toBeNull();
    realtime.accept(bobChannel);
    expect(calls.inputs('summary')).toHaveLength(2);
    const terms = summaryOf(withBob, '2026-03-05T15:30:00.000Z');
    await calls.answer('summary', terms);
    expect(selectTradeSummary(snapshot())).toEqual(terms);
    realtime.accept(bobChannel);
    expect(calls.inputs('summary'), 'the terms never change: not asked again').toHaveLength(2);
  });

  it('counts the payment window down on the browser’s clock, a second at a time, and says when it ran out', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-05T15:00:00.000Z'));
    const { calls, clock, snapshot } = await openConversation();
    expect(selectPaymentWindow(snapshot()), 'nothing to count before the terms are known').toBeNull();
    await calls.answer('summary', summaryOf(withBob, '2026-03-05T15:14:32.000Z'));
    expect(selectPaymentWindow(snapshot())).toEqual({ left: '14:32' });
    vi.setSystemTime(new Date('2026-03-05T15:00:01.000Z'));
    clock.increment(SECOND);
    expect(selectPaymentWindow(snapshot())).toEqual({ left: '14:31' });
    vi.setSystemTime(new Date('2026-03-05T15:14:31.200Z'));
    clock.increment(SECOND);
    expect(selectPaymentWindow(snapshot()), 'the last part of a second still counts').toEqual({ left: '0:01' });
    vi.setSystemTime(new Date('2026-03-05T15:14:32.000Z'));
    clock.increment(SECOND);
    expect(selectPaymentWindow(snapshot()), 'run out').toEqual({ left: null });
  });

  it('has no countdown once paid', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-05T15:00:00.000Z'));
    const { calls, realtime, snapshot } = await openConversation();
    await calls.answer('summary', summaryOf(withBob, '2026-03-05T15:20:00.000Z'));
    expect(selectPaymentWindow(snapshot())).toEqual({ left: '20:00' });
    realtime.emit(bobChannel, 'payment_marked', { channel: withBob.channel, ...facts.paid, message: systemMessage(5, 'ada marked the payment as sent.') });
    expect(selectPaymentWindow(snapshot())).toBeNull();
    expect(selectPaidFrom(snapshot()), 'no paying account stated').toBeNull();
  });

  it('shows the paying account the buyer stated once marked paid', async () => {
    const { snapshot } = await openConversation({ ...withBob, ...facts.paid, payer_account: 'A. Ada, Wise' });
    expect(selectPaidFrom(snapshot())).toBe('A. Ada, Wise');
    expect(selectPaymentWindow(snapshot())).toBeNull();
  });
});

describe('a conversation: sending', () => {
  it('sends the text trimmed and clears the input once it is stored', async () => {
    const { send, calls, snapshot, reports } = await openConversation();
    send({ type: 'message.change', value: '  paid by SEPA  ' });
    expect(selectCanSend(snapshot())).toBe(true);
    send({ type: 'message.send' });
    expect(calls.inputs('send')).toEqual([{ channel: withBob.channel, text: 'paid by SEPA' }]);
    send({ type: 'message.send' });
    expect(calls.inputs('send'), 'once while on its way').toHaveLength(1);
    const stored = chatMessage(20, { sender: me, recipient: 'bob', text: 'paid by SEPA' });
    await calls.answer('send', stored);
    expect(selectDraft(snapshot())).toBe('');
    expect(selectMessages(snapshot())).toEqual([stored]);
    expect(reports.at(-1)?.last_message).toBe('paid by SEPA');
  });

  it.each(['', '   ', '\n\n', '\t \n'])('never sends whitespace (%j)', async (value) => {
    const { send, calls, snapshot } = await openConversation();
    send({ type: 'message.change', value });
    expect(selectCanSend(snapshot())).toBe(false);
    send({ type: 'message.send' });
    expect(calls.inputs('send')).toEqual([]);
  });

  it('a refused message keeps the text; one typed on meanwhile is kept too', async () => {
    const { send, calls, snapshot } = await openConversation();
    send({ type: 'message.change', value: 'first' });
    send({ type: 'message.send' });
    await calls.fail('send', new ApiError('This trade is no longer pending.', 409));
    expect(selectDraft(snapshot())).toBe('first');
    send({ type: 'message.send' });
    send({ type: 'message.change', value: 'first and more' });
    await calls.answer('send', chatMessage(21, { sender: me, text: 'first' }));
    expect(selectDraft(snapshot())).toBe('first and more');
  });

  it('the input shows only while the trade is pending', async () => {
    for (const [state, writable] of [
      [facts.awaitingPayment, true],
      [facts.paid, true],
      [facts.disputed, true],
      [facts.completed, false],
      [facts.cancelled, false],
    ] as const) {
      const { snapshot, send, calls } = await openConversation({ ...withBob, ...state });
      expect(selectCanWrite(snapshot()), JSON.stringify(state)).toBe(writable);
      send({ type: 'message.change', value: 'hello' });
      send({ type: 'message.send' });
      expect(calls.inputs('send')).toHaveLength(writable ? 1 : 0);
    }
  });
});

describe('a conversation: the trade actions', () => {
  // docs/rules.md "Chat actions", as the oracle writes it (tests/support/tradeRules.ts), not read from the lifecycle chart.
  it.each([
    ['seller', facts.awaitingPayment],
    ['buyer', facts.awaitingPayment],
    ['seller', facts.paid],
    ['buyer', facts.paid],
    ['seller', facts.disputed],
    ['buyer', facts.disputed],
    ['seller', facts.completed],
    ['buyer', facts.cancelled],
  ] as const)('partner_type %s, %j: the buttons of the rules', async (partnerType, state) => {
    const { labels, snapshot } = await openConversation({ ...withBob, partner_type: partnerType, ...state });
    expect(labels()).toEqual(buttonLabelsByTheRules(state, roleAgainst(partnerType)));
    expect(selectActionButtons(snapshot()).every((button) => button.enabled && !button.busy)).toBe(true);
  });

  it('"Mark Paid": busy while on its way, "Action Performed!" with the server’s sentence, then the trade is paid', async () => {
    const { send, calls, snapshot, notices, labels, reports } = await openConversation(withBob);
    send({ type: 'trade.markPaid' });
    expect(calls.inputs('act')).toEqual([{ type: 'mark_paid', channel: withBob.channel }]);
    expect(selectActionButtons(snapshot())).toEqual(
      buttonLabelsByTheRules(facts.awaitingPayment, 'buyer').map((label) => expect.objectContaining({ label, enabled: false, busy: label === 'Mark Paid' })),
    );
    send({ type: 'trade.act', action: 'cancel' });
    expect(calls.inputs('act'), 'one action at a time').toHaveLength(1);
    await calls.answer('act', 'Payment marked as sent. The seller will release the coin once it arrives.');
    expect(notices).toEqual([
      {
        title: 'Action Performed!',
        description: 'Payment marked as sent. The seller will release the coin once it arrives.',
        type: 'success',
      },
    ]);
    expect(snapshot().matches({ trade: { pending: 'paid' } })).toBe(true);
    expect(labels()).toEqual(buttonLabelsByTheRules(facts.paid, 'buyer'));
    expect(reports.at(-1)).toMatchObject(facts.paid);
  });

  it('a refused action clears the busy state and changes nothing (the refusal is the shared toast)', async () => {
    const { send, calls, snapshot, notices, labels } = await openConversation(withCarol);
    send({ type: 'trade.act', action: 'cancel' });
    await calls.fail('act', new ApiError('This trade has just changed. Please reload it and try again.', 409));
    expect(notices).toEqual([]);
    expect(snapshot().matches({ actions: 'idle' })).toBe(true);
    expect(labels()).toEqual(['Cancel Trade']);
  });

  it('"Cancel Trade" cancels: no actions and no input afterwards', async () => {
    const { send, calls, snapshot, labels } = await openConversation(withCarol);
    send({ type: 'trade.act', action: 'cancel' });
    await calls.answer('act', 'Trade cancelled. The coin is back with the seller.');
    expect(snapshot().matches({ trade: 'cancelled' })).toBe(true);
    expect(labels()).toEqual([]);
    expect(selectCanWrite(snapshot())).toBe(false);
  });

  it('"Release Crypto" asks once, with the password the server asks for; dismissing releases nothing, confirming completes the trade', async () => {
    const { send, calls, snapshot, notices } = await openConversation({ ...withCarol, ...facts.paid });
    send({ type: 'trade.release' });
    expect(selectDialog(snapshot())).toBe('release');
    expect(calls.made.filter((call) => call.name === 'releaseProof'), 'asks what the release needs').toHaveLength(1);
    expect(selectIsCheckingRelease(snapshot())).toBe(true);
    expect(selectCanConfirmRelease(snapshot()), 'nothing to confirm before the answer').toBe(false);
    send({ type: 'dialog.dismiss' });
    expect(selectDialog(snapshot())).toBeNull();
    expect(calls.inputs('release')).toEqual([]);

    send({ type: 'trade.release' });
    await calls.answerLatest('releaseProof', 'password');
    expect(selectReleaseProof(snapshot())).toBe('password');
    expect(selectCanConfirmRelease(snapshot()), 'not without the password').toBe(false);
    send({ type: 'release.confirm' });
    expect(calls.inputs('release')).toEqual([]);
    send({ type: 'proof.change', value: 'correct-horse-9' });
    expect(selectCanConfirmRelease(snapshot())).toBe(true);
    send({ type: 'release.confirm' });
    expect(calls.inputs('release')).toEqual([{ type: 'release_coin', channel: withCarol.channel, password: 'correct-horse-9' }]);
    expect(calls.inputs('act'), 'a release is not a quiet action').toEqual([]);
    send({ type: 'dialog.dismiss' });
    expect(selectDialog(snapshot()), 'not while the release runs').toBe('release');
    await calls.answer('release', 'Coin released. The trade is completed.');
    expect(selectDialog(snapshot())).toBeNull();
    expect(snapshot().context.proof, 'the password is forgotten').toBe('');
    expect(snapshot().matches({ trade: 'completed' })).toBe(true);
    expect(notices).toEqual([{ title: 'Action Performed!', description: 'Coin released. The trade is completed.', type: 'success' }]);
  });

  it('asks for the authenticator code with two-factor on (six digits, spaces aside), and for nothing while the window is open', async () => {
    const twoFactor = await openConversation({ ...withCarol, ...facts.paid });
    twoFactor.send({ type: 'trade.release' });
    await twoFactor.calls.answer('releaseProof', 'code');
    expect(selectReleaseProof(twoFactor.snapshot())).toBe('code');
    for (const value of ['12345', '1234567', 'abcdef']) {
      twoFactor.send({ type: 'proof.change', value });
      expect(selectCanConfirmRelease(twoFactor.snapshot()), value).toBe(false);
    }
    twoFactor.send({ type: 'proof.change', value: ' 123 456 ' });
    twoFactor.send({ type: 'release.confirm' });
    expect(twoFactor.calls.inputs('release')).toEqual([{ type: 'release_coin', channel: withCarol.channel, code: '123456' }]);

    const inWindow = await openConversation({ ...withCarol, ...facts.paid });
    inWindow.send({ type: 'trade.release' });
    await inWindow.calls.answer('releaseProof', null);
    expect(selectReleaseProof(inWindow.snapshot()), 'no input').toBeNull();
    expect(selectCanConfirmRelease(inWindow.snapshot())).toBe(true);
    inWindow.send({ type: 'release.confirm' });
    expect(inWindow.calls.inputs('release')).toEqual([{ type: 'release_coin', channel: withCarol.channel }]);
  });

  it('a wrong password shows the server’s sentence in the dialog, keeps it open and asks again', async () => {
    const { send, calls, snapshot, notices } = await openConversation({ ...withCarol, ...facts.paid });
    send({ type: 'trade.release' });
    await calls.answer('releaseProof', 'password');
    send({ type: 'proof.change', value: 'wrong-one' });
    send({ type: 'release.confirm' });
    await calls.fail('release', new ApiError('Please confirm the release with your password.', 403));
    expect(selectDialog(snapshot())).toBe('release');
    expect(selectReleaseProblem(snapshot())).toBe('Please confirm the release with your password.');
    expect(snapshot().context.proof, 'typed again').toBe('');
    expect(calls.made.filter((call) => call.name === 'releaseProof'), 'asks again what the server wants now').toHaveLength(2);
    await calls.answer('releaseProof', 'password');
    expect(selectReleaseProof(snapshot())).toBe('password');
    expect(selectReleaseProblem(snapshot()), 'still said').toBe('Please confirm the release with your password.');
    send({ type: 'proof.change', value: 'correct-horse-9' });
    send({ type: 'release.confirm' });
    expect(selectReleaseProblem(snapshot()), 'gone once it is tried again').toBeNull();
    await calls.answer('release', 'Coin released. The trade is completed.');
    expect(snapshot().matches({ trade: 'completed' })).toBe(true);
    expect(notices).toHaveLength(1);
  });

  it('a window that closed meanwhile: the release sent without a proof is refused, and the dialog asks for the password', async () => {
    const { send, calls, snapshot } = await openConversation({ ...withCarol, ...facts.paid });
    send({ type: 'trade.release' });
    await calls.answer('releaseProof', null);
    send({ type: 'release.confirm' });
    await calls.fail('release', new ApiError('Please confirm the release with your password.', 403));
    await calls.answer('releaseProof', 'password');
    expect(selectReleaseProof(snapshot())).toBe('password');
    expect(selectReleaseProblem(snapshot())).toBe('Please confirm the release with your password.');
  });

  it('the security hold and a lockout show their sentence in the dialog; the dialog stays until closed, and forgets it', async () => {
    const { send, calls, snapshot, notices } = await openConversation({ ...withCarol, ...facts.paid });
    send({ type: 'trade.release' });
    await calls.answer('releaseProof', 'password');
    send({ type: 'proof.change', value: 'correct-horse-9' });
    send({ type: 'release.confirm' });
    await calls.fail('release', new ApiError('Selling is paused for 24 hours after a security change.', 409));
    expect(selectDialog(snapshot())).toBe('release');
    expect(selectReleaseProblem(snapshot())).toBe('Selling is paused for 24 hours after a security change.');
    expect(selectReleaseProof(snapshot()), 'the input stays').toBe('password');
    expect(snapshot().context.proof).toBe('');
    expect(calls.made.filter((call) => call.name === 'releaseProof')).toHaveLength(1);
    send({ type: 'proof.change', value: 'correct-horse-9' });
    send({ type: 'release.confirm' });
    await calls.fail('release', new ApiError('Too many failed sign-in attempts. Please try again in 15 minutes.', 429));
    expect(selectReleaseProblem(snapshot())).toBe('Too many failed sign-in attempts. Please try again in 15 minutes.');
    expect(notices, 'no toast besides').toEqual([]);
    send({ type: 'dialog.dismiss' });
    expect(selectDialog(snapshot())).toBeNull();
    send({ type: 'trade.release' });
    expect(selectReleaseProblem(snapshot()), 'a new question starts clean').toBeNull();
  });

  it('when the server cannot say what the release needs, it is sent without a proof and the server decides', async () => {
    const { send, calls, snapshot } = await openConversation({ ...withCarol, ...facts.paid });
    send({ type: 'trade.release' });
    await calls.fail('releaseProof', new ApiError('An unknown error occurred', 0));
    expect(selectReleaseProof(snapshot())).toBeNull();
    send({ type: 'release.confirm' });
    expect(calls.inputs('release')).toEqual([{ type: 'release_coin', channel: withCarol.channel }]);
  });

  it('"Raise Dispute" opens the dialog; Submit refuses a blank reason and sends the reason trimmed', async () => {
    const { send, calls, snapshot, labels } = await openConversation({ ...withBob, ...facts.paid });
    send({ type: 'trade.dispute' });
    expect(selectDialog(snapshot())).toBe('dispute');
    expect(selectCanSubmitDispute(snapshot())).toBe(false);
    expect(selectReasonError(snapshot())).toBe('Please enter the reason for your dispute');
    send({ type: 'dispute.reason.change', value: '   ' });
    send({ type: 'dispute.submit' });
    expect(calls.inputs('act')).toEqual([]);
    expect(selectReasonError(snapshot())).toBe('Please enter the reason for your dispute');

    send({ type: 'dispute.reason.change', value: ' No coin after an hour ' });
    expect(selectReasonError(snapshot())).toBeUndefined();
    send({ type: 'dispute.submit' });
    expect(calls.inputs('act')).toEqual([{ type: 'raise_dispute', channel: withBob.channel, reason: 'No coin after an hour' }]);
    await calls.fail('act', new ApiError('This trade has just changed. Please reload it and try again.', 409));
    expect(selectDialog(snapshot()), 'a refusal keeps the dialog and the reason').toBe('dispute');
    expect(snapshot().context.reason).toBe(' No coin after an hour ');
    send({ type: 'dispute.submit' });
    await calls.answer('act', 'Dispute raised. The trade is frozen until a moderator settles it.');
    expect(selectDialog(snapshot())).toBeNull();
    expect(snapshot().context.reason).toBe('');
    expect(snapshot().matches({ trade: { pending: 'disputed' } })).toBe(true);
    expect(labels()).toEqual([]);
    expect(selectCanWrite(snapshot()), 'the chat goes on during a dispute').toBe(true);
  });

  it('Cancel in the dispute dialog forgets the reason', async () => {
    const { send, snapshot } = await openConversation({ ...withBob, ...facts.paid });
    send({ type: 'trade.dispute' });
    send({ type: 'dispute.reason.change', value: 'late' });
    send({ type: 'dialog.dismiss' });
    expect(selectDialog(snapshot())).toBeNull();
    expect(snapshot().context.reason).toBe('');
  });

  it('refuses an action the trade does not allow, whatever is sent', async () => {
    const { send, calls, snapshot } = await openConversation(withBob);
    send({ type: 'trade.release' });
    send({ type: 'trade.dispute' });
    expect(selectDialog(snapshot())).toBeNull();
    expect(calls.inputs('act')).toEqual([]);
  });
});

describe('a conversation: the trade as the server reports it', () => {
  it.each([
    ['payment_marked', facts.paid, { pending: 'paid' }],
    ['coin_released', facts.completed, 'completed'],
    ['trade_cancelled', facts.cancelled, 'cancelled'],
    ['dispute_raised', facts.disputed, { pending: 'disputed' }],
  ] as const)('%s sets the facts and the state', async (event, state, value) => {
    const { realtime, snapshot, reports } = await openConversation(
      event === 'coin_released' || event === 'dispute_raised' ? { ...withBob, ...facts.paid } : withBob,
    );
    const notice = systemMessage(30, `${event} notice`);
    realtime.emit(bobChannel, event, { channel: withBob.channel, ...state, message: notice });
    expect(selectConversation(snapshot())).toMatchObject(state);
    expect(snapshot().matches({ trade: value as never })).toBe(true);
    expect(selectMessages(snapshot())).toEqual([notice]);
    expect(reports.at(-1)).toMatchObject({ ...state, last_message: notice.text });
  });

  it('closes a confirmation the trade no longer allows (the partner raised a dispute meanwhile)', async () => {
    const { realtime, send, snapshot } = await openConversation({ ...withCarol, ...facts.paid });
    send({ type: 'trade.release' });
    realtime.emit(bobChannel.replace('bob', 'carol'), 'dispute_raised', {
      channel: withCarol.channel,
      ...facts.disputed,
      message: systemMessage(31, 'carol raised a dispute', withCarol.channel),
    });
    expect(selectDialog(snapshot())).toBeNull();
  });

  it('a stale report never moves the trade back', async () => {
    const { send, snapshot } = await openConversation({ ...withBob, ...facts.paid });
    send({ type: 'conversation.updated', conversation: { ...withBob, ...facts.awaitingPayment, online: false } });
    expect(snapshot().matches({ trade: { pending: 'paid' } })).toBe(true);
    expect(selectConversation(snapshot())).toMatchObject({ ...facts.paid, online: false });
    send({ type: 'conversation.updated', conversation: { ...withBob, ...facts.cancelled } });
    send({ type: 'conversation.updated', conversation: { ...withBob, ...facts.paid } });
    expect(snapshot().matches({ trade: 'cancelled' })).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------

/** The /chat screen with its real conversation chart, over the fake services; nothing answered yet. */
function openScreen(channel: string | null = null) {
  const harness = chatDeps();
  const clock = new SimulatedClock();
  const actor = createActor(bindTradeChat(harness.deps), { input: { username: me, channel }, clock }).start();
  const snapshot = () => actor.getSnapshot();
  const conversationRef = () => selectConversationRef(snapshot()) as AnyActorRef | undefined;
  const partners = () => selectConversations(snapshot()).map((entry) => entry.partner);
  return { ...harness, actor, clock, snapshot, conversationRef, partners };
}

describe('the /chat screen', () => {
  it('loads the list and listens on the trader’s own channel; "Select a conversation" until one is chosen', async () => {
    const { calls, realtime, snapshot, partners } = openScreen();
    expect(calls.inputs('conversations')).toEqual([{ search: '' }]);
    expect(realtime.channels()).toEqual([userChannel]);
    expect(selectIsListEmpty(snapshot())).toBe(false);
    await calls.answer('conversations', [withBob, withCarol]);
    expect(partners()).toEqual(['bob', 'carol']);
    expect(selectSelection(snapshot())).toBe('none');
  });

  it('says there is nothing once a load finds nothing, and fills in when a trade opens', async () => {
    const { calls, realtime, snapshot, partners } = openScreen();
    await calls.answer('conversations', []);
    expect(selectIsListEmpty(snapshot())).toBe(true);
    realtime.emit(userChannel, 'conversation', withCarol);
    expect(selectIsListEmpty(snapshot())).toBe(false);
    expect(partners()).toEqual(['carol']);
  });

  it('a `conversation` event replaces its entry and moves it to the top; a new one joins only if it matches the search', async () => {
    const { calls, realtime, actor, clock, partners } = openScreen();
    await calls.answer('conversations', [withBob, withCarol]);
    realtime.emit(userChannel, 'conversation', { ...withCarol, last_message: 'paid' });
    expect(partners()).toEqual(['carol', 'bob']);
    expect(selectConversations(actor.getSnapshot())[0]!.last_message).toBe('paid');

    actor.send({ type: 'search.change', value: 'CA' });
    clock.increment(SEARCH_DEBOUNCE);
    await calls.answerLatest('conversations', [withCarol]);
    realtime.emit(userChannel, 'conversation', conversationWith('dave'));
    realtime.emit(userChannel, 'conversation', conversationWith('mcarthy'));
    expect(partners()).toEqual(['mcarthy', 'carol']);
  });

  it('waits 500 ms of quiet after typing in the search before it reloads', async () => {
    const { calls, actor, clock } = openScreen();
    await calls.answer('conversations', [withBob, withCarol]);
    actor.send({ type: 'search.change', value: 'b' });
    clock.increment(SEARCH_DEBOUNCE - 1);
    actor.send({ type: 'search.change', value: 'bo' });
    clock.increment(SEARCH_DEBOUNCE - 1);
    expect(calls.inputs('conversations')).toEqual([{ search: '' }]);
    clock.increment(1);
    expect(calls.inputs('conversations')).toEqual([{ search: '' }, { search: 'bo' }]);
  });

  it('opens on ?channel= once the list brings it, with a spinner until then', async () => {
    const { calls, snapshot, conversationRef, realtime } = openScreen(withCarol.channel);
    expect(selectSelection(snapshot())).toBe('waiting');
    await calls.answer('conversations', [withBob, withCarol]);
    expect(selectSelection(snapshot())).toBe('open');
    expect(selectConversation(conversationRef()!.getSnapshot())).toEqual(withCarol);
    expect(realtime.listeners(`private-${withCarol.channel}`)).toBe(1);
    expect(calls.inputs('messages')).toEqual([{ channel: withCarol.channel }]);
  });

  it('a ?channel= that is none of the trader’s says "Select a conversation"', async () => {
    const { calls, snapshot } = openScreen('trade-of-someone-else');
    await calls.answer('conversations', [withBob]);
    expect(selectSelection(snapshot())).toBe('none');
    expect(snapshot().context.channel).toBeNull();
  });

  it('selecting another conversation ends the first one’s subscription; closing goes back to the list', async () => {
    const { calls, actor, realtime, snapshot, conversationRef } = openScreen();
    await calls.answer('conversations', [withBob, withCarol]);
    actor.send({ type: 'conversation.select', channel: withBob.channel });
    expect(realtime.listeners(bobChannel)).toBe(1);
    actor.send({ type: 'conversation.select', channel: withCarol.channel });
    expect(realtime.listeners(bobChannel)).toBe(0);
    expect(realtime.listeners(`private-${withCarol.channel}`)).toBe(1);
    expect(selectConversation(conversationRef()!.getSnapshot()).partner).toBe('carol');
    actor.send({ type: 'conversation.close' });
    expect(selectSelection(snapshot())).toBe('none');
    expect(realtime.listeners(`private-${withCarol.channel}`)).toBe(0);
  });

  it('a message in the open conversation updates its preview and moves it to the top of the list', async () => {
    const { calls, actor, realtime, partners, snapshot } = openScreen();
    await calls.answer('conversations', [withBob, withCarol]);
    actor.send({ type: 'conversation.select', channel: withCarol.channel });
    await calls.answer('messages', []);
    const text = 'The payment is on its way, please check your account in a minute';
    realtime.emit(`private-${withCarol.channel}`, 'new_message', chatMessage(40, { sender: 'carol', channel: withCarol.channel, text }));
    expect(partners()).toEqual(['carol', 'bob']);
    expect(selectConversations(snapshot())[0]!.last_message).toBe(text);
    expect(previewOf(text)).toBe('The payment is on its way, please c…');
  });

  it('what the list hears about the open trade reaches the conversation (online, facts)', async () => {
    const { calls, actor, realtime, conversationRef } = openScreen();
    await calls.answer('conversations', [withBob]);
    actor.send({ type: 'conversation.select', channel: withBob.channel });
    realtime.emit(userChannel, 'conversation', { ...withBob, ...facts.paid, online: false });
    const conversation = conversationRef()!.getSnapshot();
    expect(selectConversation(conversation)).toMatchObject({ ...facts.paid, online: false });
    expect(selectActionButtons(conversation).map((button) => button.label)).toEqual(['Raise Dispute']);
  });

  it('shows the banner while the connection is down; a reconnect reloads the list and the open conversation', async () => {
    const { calls, actor, realtime, snapshot, partners, conversationRef } = openScreen();
    realtime.setState('connected');
    realtime.accept();
    expect(calls.inputs('conversations'), 'a load that started before the channel was live is done again').toHaveLength(2);
    await calls.answerLatest('conversations', [withBob]);
    actor.send({ type: 'conversation.select', channel: withBob.channel });
    realtime.accept(bobChannel);
    await calls.answerLatest('messages', [chatMessage(1)]);
    expect(selectIsOffline(snapshot())).toBe(false);

    realtime.setState('offline');
    expect(selectIsOffline(snapshot())).toBe(true);
    realtime.reconnect();
    expect(selectIsOffline(snapshot())).toBe(false);
    await calls.answerLatest('conversations', [
      { ...withCarol, last_message: 'while you were away' },
      { ...withBob, ...facts.paid },
    ]);
    await calls.answerLatest('messages', [chatMessage(1), chatMessage(2)]);
    expect(partners()).toEqual(['carol', 'bob']);
    const conversation = conversationRef()!.getSnapshot();
    expect(selectMessages(conversation).map((message) => message.id)).toEqual([1, 2]);
    expect(selectConversation(conversation)).toMatchObject(facts.paid);
  });

  it('starts "connecting" without the banner; a connection that never comes shows it', () => {
    const { snapshot, realtime } = openScreen();
    expect(snapshot().matches({ connection: 'connecting' })).toBe(true);
    expect(selectIsOffline(snapshot())).toBe(false);
    realtime.setState('offline');
    expect(selectIsOffline(snapshot())).toBe(true);
  });

  it('a failed list load shows no message and keeps the list', async () => {
    const { calls, snapshot, notices, realtime, partners } = openScreen();
    await calls.answer('conversations', [withBob]);
    realtime.accept(userChannel);
    await calls.fail('conversations');
    expect(partners()).toEqual(['bob']);
    expect(snapshot().matches({ list: 'ready' })).toBe(true);
    expect(notices).toEqual([]);
    await flush();
  });
});

/** Keeps the type checker honest about the report the conversation sends its screen. */
export type _Report = ConversationReport & { conversation: Conversation & TradeFacts };
